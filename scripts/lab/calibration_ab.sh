#!/usr/bin/env bash
# A/B of two builds' calibrations on the same measurements: for a change to the microbenchmark
# protocol or the fit, which `calibrate --from-samples` cannot replay. Each cycle calibrates this
# CPU with build A and build B back to back (A first in odd cycles, B first in even ones, so a
# drift of the host during a cycle does not favour one side), measures the issue-4 models once
# with build B, and scores both calibrations on that measurement (scripts/lab/compare_predictions.py:
# per-layer median |error| over layers >= 50 us, and end-to-end error). The host's run-to-run
# spread then cancels out of the per-cycle differences; what is left is each calibration's own
# noise, so run several cycles.
# Usage: [HW=SPEC] scripts/lab/calibration_ab.sh BIN_A BIN_B OUT_DIR [CYCLES=3]
#   BIN_A, BIN_B: perfmodel binaries (e.g. a copy of build/perfmodel made before the change)
#   HW: the hardware spec (default: the one `perfmodel list hw` marks "(this CPU)", as
#   scripts/calibration_accuracy.sh; zen5-2c was hard-coded until 2026-11-27)
# OUT_DIR/cN/{a,b}.yaml, MODEL-bN.json, scores.txt; OUT_DIR/scores.txt gathers every cycle.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin_a=${1:?usage: scripts/lab/calibration_ab.sh BIN_A BIN_B OUT_DIR [CYCLES]}
bin_b=${2:?usage: scripts/lab/calibration_ab.sh BIN_A BIN_B OUT_DIR [CYCLES]}
out=${3:?usage: scripts/lab/calibration_ab.sh BIN_A BIN_B OUT_DIR [CYCLES]}
cycles=${4:-3}
hw=${HW:-$("$bin_b" list hw --format csv | awk -F, '/\(this CPU\)/ {print $1; exit}')}
[ -n "$hw" ] || { echo "no shipped hw spec has this CPU's cpu_id: set HW" >&2; exit 2; }
mkdir -p "$out"
: > "$out/scores.txt"
# model, batch, timed passes (as scripts/calibration_accuracy.sh)
runs=("resnet50 1 80" "mobilenet_v2 1 400" "vgg16 1 40" "nin 5 60")
for c in $(seq 1 "$cycles"); do
  d=$out/c$c
  mkdir -p "$d"
  order=(a b)
  [ $((c % 2)) -eq 0 ] && order=(b a)
  for side in "${order[@]}"; do
    bin=$bin_a
    [ "$side" = b ] && bin=$bin_b
    "$bin" calibrate --device cpu --hw "$hw" -o "$d/$side.yaml" 2> "$d/$side.log"
  done
  for r in "${runs[@]}"; do
    set -- $r
    "$bin_b" measure --model "$1" --batch "$2" --hw "$hw" --calibration "$d/b.yaml" \
      --iters "$3" -q --format json -o "$d/$1-b$2.json"
    scripts/lab/compare_predictions.py "$bin_b" "$d/$1-b$2.json" "$d/a.yaml" "$d/b.yaml"
  done | tee "$d/scores.txt"
  sed "s|^|c$c |" "$d/scores.txt" >> "$out/scores.txt"
done
