#!/usr/bin/env bash
# A/B of two builds' fits on saved accuracy runs: for a change to the fit alone (its prediction
# code the same in both builds), which needs no new measurement. Each run's saved samples
# (RUN_DIR/samples.csv, as scripts/calibration_accuracy.sh writes) are refitted by both builds
# (calibrate --from-samples) and both refits are scored on the run's own measurements
# (scripts/compare_predictions.py with BIN_B: per-layer median |error| over layers >= 50 us).
# Prints each run's medians, then per network the mean median and the runs under 10%. A refit
# from samples has no pass excess: compare end-to-end errors between A and B only.
# Usage: scripts/refit_ab.sh BIN_A BIN_B RUN_DIR [RUN_DIR...]
set -euo pipefail
cd "$(dirname "$0")/.."
bin_a=${1:?usage: scripts/refit_ab.sh BIN_A BIN_B RUN_DIR [RUN_DIR...]}
bin_b=${2:?usage: scripts/refit_ab.sh BIN_A BIN_B RUN_DIR [RUN_DIR...]}
shift 2
[ $# -ge 1 ] || { echo "usage: scripts/refit_ab.sh BIN_A BIN_B RUN_DIR [RUN_DIR...]" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for run in "$@"; do
  "$bin_a" calibrate --from-samples "$run/samples.csv" --hw zen5-2c -o "$tmp/a.yaml" 2>/dev/null
  "$bin_b" calibrate --from-samples "$run/samples.csv" --hw zen5-2c -o "$tmp/b.yaml" 2>/dev/null
  for m in "$run"/*-calibrated.json; do
    scripts/compare_predictions.py "$bin_b" "$m" "$tmp/a.yaml" "$tmp/b.yaml" |
      sed "s|$tmp/||; s|^|$(basename "$run") |"
  done
done | tee "$tmp/scores.txt"
python3 - "$tmp/scores.txt" <<'PY'
import re, sys
per = {}
for line in open(sys.argv[1]):
    m = re.match(r"\S+ (\S+)\s+(a|b)\.yaml\s+median \|err\|\s+([\d.]+)%", line)
    if m:
        per.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)))
for model in sorted({k[0] for k in per}):
    a, b = per[(model, "a")], per[(model, "b")]
    print(f"{model:14} A mean {sum(a)/len(a):5.2f}% ({sum(x <= 10 for x in a)}/{len(a)} <= 10%)"
          f"  B mean {sum(b)/len(b):5.2f}% ({sum(x <= 10 for x in b)}/{len(b)} <= 10%)")
PY
