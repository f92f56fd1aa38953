#!/usr/bin/env bash
# Times the small networks of bench/context/ (a layer's time depends on what ran before it in
# the pass; docs/measure.md, "Threads and cache lines"): every layer's p20 inside 400 passes,
# with 2 threads and 1, with the `reuse` and `distinct` memory plans.
# Usage: scripts/lab/context_experiments.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build}/perfmodel
for f in bench/context/*.yaml; do
  for threads in 2 1; do
    for buffers in reuse distinct; do
      printf '%-20s threads %s %-8s ' "$(basename "$f" .yaml)" "$threads" "$buffers"
      "$bin" measure --model "$f" --iters 400 --threads "$threads" --buffers "$buffers" -q \
        --format json | python3 -c '
import json, sys
j = json.load(sys.stdin)
print("  ".join("%s %.0f us" % (l["name"], 1e6 * l["stats"]["p20_seconds"]) for l in j["layers"]))'
    done
  done
done
