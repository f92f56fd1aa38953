#!/usr/bin/env bash
# Calibrates this CPU from microbenchmarks, then measures the issue-4 models calibrated and with
# the pure roofline, and prints median per-layer |error| (layers >= 50 us) and end-to-end error.
# Usage: scripts/calibration_accuracy.sh [BUILD_DIR] [OUT_DIR]
# Which runs count, when a calibration or a measurement is taken again and which attempt is
# kept are the CLI's measurement policy (docs/measurement-policy.md); this script only passes
# the attempt counts on and collects the results:
# CALIBRATION=file skips calibrate; CALIBRATION="a.yaml b.yaml": measure predicts with the one
#   nearest the host's state.
# CAL_ATTEMPTS=3 (default): calibrate --attempts (the calibration log, OUT_DIR/calibrate.log,
#   lists every attempt and the one kept).
# ATTEMPTS=4 (default), ATTEMPT_WAIT=20: measure --attempts and --attempt-wait (each model's log,
#   OUT_DIR/MODEL-bN.log, lists every attempt and the one reported; all of them are appended to
#   OUT_DIR/attempts.log).
# CALIBRATE_ARGS: extra arguments for calibrate (e.g. --no-networks: isolated kernels only).
# HW: the hardware spec calibrate refines and measure predicts for (default: the one
#   `perfmodel list hw` marks "(this CPU)", by its cpu_id).
# BUFFERS=reuse (default) or distinct: the executor's memory plan (measure --buffers).
# THREADS=0 (default: every hardware thread) or N: threads for calibrate and measure alike.
# STATISTIC=p20 (default), min or median: what calibrate fits and what measure compares against
#   (docs/measure.md, "Which statistic").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-out/accuracy}
bin=$build/perfmodel
mkdir -p "$out"
hw=${HW:-$("$bin" list hw --format csv | awk -F, '/\(this CPU\)/ {print $1; exit}')}
[ -n "$hw" ] || { echo "no shipped hw spec has this CPU's cpu_id: set HW" >&2; exit 2; }
cal=${CALIBRATION:-$out/$hw.yaml}
cal_args=()
for c in $cal; do cal_args+=(--calibration "$c"); done
stat=${STATISTIC:-p20}
buffers=${BUFFERS:-reuse}
threads=${THREADS:-0}
: > "$out/attempts.log"
if [ -z "${CALIBRATION:-}" ]; then
  /usr/bin/time -f "calibrate took %e s" "$bin" calibrate --device cpu --hw "$hw" \
    --statistic "$stat" --threads "$threads" --attempts "${CAL_ATTEMPTS:-3}" \
    --save-samples "$out/samples.csv" ${CALIBRATE_ARGS:-} -o "$cal" 2>&1 |
    tee "$out/calibrate.log" >&2
fi
# model, batch, timed passes (about 3 s of passes each: the host's slow spells last seconds)
runs=("resnet50 1 80" "mobilenet_v2 1 400" "vgg16 1 40" "nin 5 60")
for r in "${runs[@]}"; do
  set -- $r
  "$bin" measure --model "$1" --batch "$2" --hw "$hw" "${cal_args[@]}" --iters "$3" \
    --statistic "$stat" --buffers "$buffers" --threads "$threads" -q --format json \
    --attempts "${ATTEMPTS:-4}" --attempt-wait "${ATTEMPT_WAIT:-20}" \
    -o "$out/$1-b$2-calibrated.json" 2> "$out/$1-b$2.log" ||
    { cat "$out/$1-b$2.log" >&2; exit 1; }
  cat "$out/$1-b$2.log" >&2
  sed "s/^/$1: /" "$out/$1-b$2.log" >> "$out/attempts.log"
  "$bin" measure --model "$1" --batch "$2" --hw "$hw" --iters "$3" --statistic "$stat" \
    --buffers "$buffers" --threads "$threads" -q --format json -o "$out/$1-b$2-roofline.json"
done
python3 - "$out" "${runs[@]}" <<'PY'
import json, re, sys
out = sys.argv[1]
# "attempt 2 of 4" lines and the "kept attempt K of N" line of a log (none: one attempt)
def attempts(log):
    try:
        text = open(log).read()
    except FileNotFoundError:
        return "1 (1)"
    taken = len(re.findall(r"^\w+: attempt \d+ of \d+", text, re.M))
    kept = re.search(r"kept attempt (\d+) of", text)
    return f"{max(taken, 1)} ({kept.group(1) if kept else 1})"
print(f"{'model':14} {'batch':>5} {'layers':>6}  {'median |err| cal':>16} {'e2e cal':>8}  "
      f"{'median |err| roof':>17} {'e2e roof':>9}  {'measured':>9}  {'attempts (kept)':>8}  host  "
      f"(calibration)")
for r in sys.argv[2:]:
    m, b, _ = r.split()
    j = json.load(open(f"{out}/{m}-b{b}-calibrated.json"))
    c, h = j["summary"], j["host_state"]
    u = json.load(open(f"{out}/{m}-b{b}-roofline.json"))["summary"]
    print(f"{m:14} {b:>5} {c['layers_in_summary']:>6}  {100*c['median_abs_error']:>15.1f}% "
          f"{100*c['end_to_end_error']:>+7.1f}%  {100*u['median_abs_error']:>16.1f}% "
          f"{100*u['end_to_end_error']:>+8.1f}%  {1e3*c['measured_total_seconds']:>7.1f}ms  "
          f"{attempts(f'{out}/{m}-b{b}.log'):>8}  {'CHANGED' if h['changed'] else 'as calibrated'}"
          f"  ({j['calibration']})")
log = f"{out}/calibrate.log"
try:
    open(log)
    print(f"calibrations taken (kept): {attempts(log)}")
except FileNotFoundError:
    pass
PY
