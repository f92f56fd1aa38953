#!/usr/bin/env bash
# Calibrates this CPU from microbenchmarks, then measures the issue-4 models calibrated and with
# the pure roofline, and prints median per-layer |error| (layers >= 50 us) and end-to-end error.
# Usage: scripts/calibration_accuracy.sh [BUILD_DIR] [OUT_DIR]   (CALIBRATION=file skips calibrate)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-out/accuracy}
bin=$build/perfmodel
mkdir -p "$out"
cal=${CALIBRATION:-$out/zen5-2c.yaml}
if [ -z "${CALIBRATION:-}" ]; then
  /usr/bin/time -f "calibrate took %e s" "$bin" calibrate --device cpu --hw zen5-2c \
    --save-samples "$out/samples.csv" -o "$cal"
fi
runs=("resnet50 1" "mobilenet_v2 1" "vgg16 1" "nin 5")
for r in "${runs[@]}"; do
  set -- $r
  "$bin" measure --model "$1" --batch "$2" --hw zen5-2c --calibration "$cal" --iters 40 -q --format json \
    -o "$out/$1-b$2-calibrated.json"
  "$bin" measure --model "$1" --batch "$2" --hw zen5-2c --iters 40 -q --format json -o "$out/$1-b$2-roofline.json"
done
python3 - "$out" "${runs[@]}" <<'PY'
import json, sys
out = sys.argv[1]
print(f"{'model':14} {'batch':>5} {'layers':>6}  {'median |err| cal':>16} {'e2e cal':>8}  "
      f"{'median |err| roof':>17} {'e2e roof':>9}  {'measured':>9}")
for r in sys.argv[2:]:
    m, b = r.split()
    c = json.load(open(f"{out}/{m}-b{b}-calibrated.json"))["summary"]
    u = json.load(open(f"{out}/{m}-b{b}-roofline.json"))["summary"]
    print(f"{m:14} {b:>5} {c['layers_in_summary']:>6}  {100*c['median_abs_error']:>15.1f}% "
          f"{100*c['end_to_end_error']:>+7.1f}%  {100*u['median_abs_error']:>16.1f}% "
          f"{100*u['end_to_end_error']:>+8.1f}%  {1e3*c['measured_total_seconds']:>7.1f}ms")
PY
