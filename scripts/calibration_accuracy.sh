#!/usr/bin/env bash
# Calibrates this CPU from microbenchmarks, then measures the issue-4 models calibrated and with
# the pure roofline, and prints median per-layer |error| (layers >= 50 us) and end-to-end error.
# Usage: scripts/calibration_accuracy.sh [BUILD_DIR] [OUT_DIR]   (CALIBRATION=file skips calibrate;
# CALIBRATION="a.yaml b.yaml": measure predicts with the one nearest the host's state)
# CAL_ATTEMPTS=3 (default): a calibration during which the host's state changed is taken again
# (if all warn, the one that counted the largest share of its runs is kept).
# ATTEMPTS=4 (default): a calibrated measurement that `measure` finds taken in another host
# state than its calibration's (compute probe beyond 10%, the core round trip beyond a factor
# of 2 (else cross-core beyond 25%), the faster conv probe beyond 10%: a busy SMT sibling
# halves a core; the vCPUs were moved to other core
# complexes; a neighbour slows the caches), or whose passes it finds mostly in a slow spell
# (host_state.passes_in_spell: 1 + the share of spell passes, in tolerances), is repeated, up to this many attempts, and the
# attempt whose probes drifted least from its calibration's (in tolerances, as `measure` judges
# them; the later of equals) is kept: OUT_DIR/MODEL-bN-calibrated.json, every attempt in
# OUT_DIR/MODEL-bN-attempt-K.json. After an odd-numbered attempt it waits ATTEMPT_WAIT seconds first (default
# 20: a dip passes); after an even-numbered one the host is taken to be in a state no
# calibration of the run describes (the caches' slow spells last minutes), and, unless
# CALIBRATION was given, a new calibration joins the run's pool (OUT_DIR/HW-2.yaml, ...;
# at most CAL_POOL=3 in all), from which `measure` predicts with the one nearest the host's
# state. Every attempt's figures stay in OUT_DIR/attempts.log; the table says how many
# attempts were taken and which calibration predicted.
# CALIBRATE_ARGS: extra arguments for calibrate (e.g. --no-networks: isolated kernels only).
# HW: the hardware spec calibrate refines and measure predicts for (default: the one
# `perfmodel list hw` marks "(this CPU)", by its cpu_id: xeon-emr-2c since 2026-11-26 20:08Z,
# zen3-2c from 2026-11-25 20:12Z).
# BUFFERS=reuse (default) or distinct: the executor's memory plan (measure --buffers).
# THREADS=0 (default: every hardware thread) or N: threads for calibrate and measure alike.
# STATISTIC=p20 (default), min or median: what calibrate fits and what measure compares against.
# On a shared host the 20th percentile of many runs is far more reproducible than the median,
# which catches the host's slow spells (ResNet-50 passes: medians 39.3 and 44.2 ms in two runs),
# and than the min, which latches onto rare fast moments of the memory bus.
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
attempts=${ATTEMPTS:-4}
cal_pool=${CAL_POOL:-3}
attempt_wait=${ATTEMPT_WAIT:-20}
threads=${THREADS:-0}
: > "$out/attempts.log"
# calibrate OUTPUT SAMPLES LOG: a calibration of this CPU from its microbenchmarks
calibrate() {
  /usr/bin/time -f "calibrate took %e s" "$bin" calibrate --device cpu --hw "$hw" \
    --statistic "$stat" --threads "$threads" --save-samples "$2" \
    ${CALIBRATE_ARGS:-} -o "$1" 2>&1 | tee "$3" >&2
}
if [ -z "${CALIBRATION:-}" ]; then
  # A calibration during which the host's state changed (calibrate warns: a probe's
  # cross-core figure far from their median, e.g. the vCPUs moved to other core complexes, or a
  # third of them compute or conv, or too few runs between steady probes) is taken again, as the
  # warning advises, up to CAL_ATTEMPTS times (default 3). The first attempt without the warning
  # is kept; if every attempt warned, the one that counted the largest share of its runs (runs
  # between steady probes, calibrate's "N of M runs ... counted" line) is kept. Every attempt
  # stays in OUT_DIR/calibrate-N.{yaml,log} with its samples in OUT_DIR/samples-N.csv; the kept
  # one is copied to OUT_DIR/HW.yaml and OUT_DIR/samples.csv, its number in calibrate-kept.
  kept_cal=
  rm -f "$out"/calibrate-[0-9]* "$out"/samples-[0-9]*.csv
  for c in $(seq 1 "${CAL_ATTEMPTS:-3}"); do
    calibrate "$out/calibrate-$c.yaml" "$out/samples-$c.csv" "$out/calibrate-$c.log"
    echo "$c" > "$out/calibrate-attempts"
    if ! grep -q "warning: the host's state changed during calibration" "$out/calibrate-$c.log"
    then kept_cal=$c; break; fi
  done
  if [ -z "$kept_cal" ]; then
    kept_cal=$(for f in "$out"/calibrate-[0-9]*.log; do
      n=${f##*/calibrate-}
      awk -v n="${n%.log}" '/runs \(a case in a round\) counted/ {
        printf "%.6f %s\n", $2 / $4, n; found = 1 }
        END { if (!found) printf "0 %s\n", n }' "$f"
    done | sort -k1,1gr -k2,2nr | head -1)
    kept_cal=${kept_cal##* }
  fi
  cp "$out/calibrate-$kept_cal.yaml" "$cal"
  cp "$out/samples-$kept_cal.csv" "$out/samples.csv"
  echo "$kept_cal" > "$out/calibrate-kept"
fi
# model, batch, timed passes (about 3 s of passes each: the host's slow spells last seconds)
runs=("resnet50 1 80" "mobilenet_v2 1 400" "vgg16 1 40" "nin 5 60")
for r in "${runs[@]}"; do
  set -- $r
  rm -f "$out/$1-b$2"-attempt-*
  for a in $(seq 1 "$attempts"); do
    "$bin" measure --model "$1" --batch "$2" --hw "$hw" "${cal_args[@]}" --iters "$3" \
      --statistic "$stat" --buffers "$buffers" --threads "$threads" -q --format json \
      -o "$out/$1-b$2-calibrated.json"
    changed=$(python3 - "$out/$1-b$2-calibrated.json" "$a" >> "$out/attempts.log" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s, h = j["summary"], j["host_state"]
d = lambda k: "-" if h[k] is None else \
    f"{100*h[k]['compute']:+.0f}%/{100*h[k]['memory']:+.0f}%/{100*h[k]['cross_core']:+.0f}%/" \
    f"{100*h[k]['conv']:+.0f}%/{100*h[k].get('round_trip', 0):+.0f}%"
print(f"{j['model']} attempt {sys.argv[2]} ({j['calibration']}): median |err| {100*s['median_abs_error']:.1f}%, "
      f"e2e {100*s['end_to_end_error']:+.1f}%, drift (compute/memory/cross-core/conv/round trip) before {d('drift_before')} "
      f"after {d('drift_after')}, changed {h['changed']}")
open(sys.argv[1] + ".changed", "w").write(str(h["changed"]))
# How far the host was from the calibrated state, in tolerances, as `measure` judges it
# (perfmodel/host_state.hpp: compute and placement per probe, the placement on the core round
# trip where both have it, else on the cross-core read; the faster conv probe for both).
r, probes = h["reference"], [h[k] for k in ("before", "after") if h[k]]
def drift(v, ref): return v / ref - 1 if ref and v else 0.0
def placement(p):
    a, b = r.get("core_round_trip_seconds", 0), p.get("core_round_trip_seconds", 0)
    if a > 0 and b > 0:
        return (max(b / a, a / b) - 1) / (h["round_trip_factor"] - 1)
    return abs(drift(p["cross_core_bytes_per_second"], r["cross_core_bytes_per_second"])) / h["cross_core_tolerance"]
sev = 0.0
for p in probes:
    sev = max(sev, abs(drift(p["fp32_flops_per_second"], r["fp32_flops_per_second"])) / h["compute_tolerance"],
              placement(p))
if probes and r.get("conv_flops_per_second"):
    fast = max(p["conv_flops_per_second"] for p in probes)
    sev = max(sev, abs(drift(fast, r["conv_flops_per_second"])) / h["conv_tolerance"])
# Passes mostly in a slow spell (`measure --passes quiet` flags them): more than one tolerance,
# the fewer quiet passes the more.
if h.get("passes_in_spell"):
    q = j["passes"]["quiet"]
    judged = q["quiet_passes"] + q["spell_passes"]
    sev = max(sev, 2 - (q["quiet_passes"] / judged if judged else 0))
open(sys.argv[1] + ".severity", "w").write(f"{sev:.6f}")
PY
    cat "$out/$1-b$2-calibrated.json.changed")
    rm -f "$out/$1-b$2-calibrated.json.changed"
    mv "$out/$1-b$2-calibrated.json.severity" "$out/$1-b$2-attempt-$a.severity"
    cp "$out/$1-b$2-calibrated.json" "$out/$1-b$2-attempt-$a.json"
    echo "$a" > "$out/$1-b$2-attempts"
    [ "$changed" = "True" ] || break
    [ "$a" = "$attempts" ] && break
    if [ $((a % 2)) = 0 ] && [ -z "${CALIBRATION:-}" ] && [ "${#cal_args[@]}" -lt $((2 * cal_pool)) ]; then
      next="$out/$hw-$((${#cal_args[@]} / 2 + 1)).yaml"
      calibrate "$next" "${next%.yaml}-samples.csv" "${next%.yaml}.log"
      cal_args+=(--calibration "$next")
    else
      sleep "$attempt_wait"
    fi
  done
  # Kept: the attempt whose host state drifted least from its calibration's (the later of
  # equals), chosen on the probes alone, never on the errors.
  best=$(for f in "$out/$1-b$2"-attempt-*.severity; do
    n=${f##*-attempt-}; echo "$(cat "$f") ${n%.severity}"; done | sort -k1,1g -k2,2nr | head -1)
  best=${best##* }
  cp "$out/$1-b$2-attempt-$best.json" "$out/$1-b$2-calibrated.json"
  echo "$1 kept attempt $best (the least drift from its calibration's state)" >> "$out/attempts.log"
  echo "$best" > "$out/$1-b$2-kept"
  "$bin" measure --model "$1" --batch "$2" --hw "$hw" --iters "$3" --statistic "$stat" \
    --buffers "$buffers" --threads "$threads" -q --format json -o "$out/$1-b$2-roofline.json"
done
python3 - "$out" "${runs[@]}" <<'PY'
import json, sys
out = sys.argv[1]
print(f"{'model':14} {'batch':>5} {'layers':>6}  {'median |err| cal':>16} {'e2e cal':>8}  "
      f"{'median |err| roof':>17} {'e2e roof':>9}  {'measured':>9}  {'attempts (kept)':>8}  host  "
      f"(calibration)")
for r in sys.argv[2:]:
    m, b, _ = r.split()
    c = json.load(open(f"{out}/{m}-b{b}-calibrated.json"))["summary"]
    u = json.load(open(f"{out}/{m}-b{b}-roofline.json"))["summary"]
    j = json.load(open(f"{out}/{m}-b{b}-calibrated.json"))
    h = j["host_state"]
    n = open(f"{out}/{m}-b{b}-attempts").read().strip()
    kept = open(f"{out}/{m}-b{b}-kept").read().strip()
    print(f"{m:14} {b:>5} {c['layers_in_summary']:>6}  {100*c['median_abs_error']:>15.1f}% "
          f"{100*c['end_to_end_error']:>+7.1f}%  {100*u['median_abs_error']:>16.1f}% "
          f"{100*u['end_to_end_error']:>+8.1f}%  {1e3*c['measured_total_seconds']:>7.1f}ms  "
          f"{n + ' (' + kept + ')':>8}  {'CHANGED' if h['changed'] else 'as calibrated'}  ({j['calibration']})")
try:
    print(f"calibrations taken: {open(f'{out}/calibrate-attempts').read().strip()} "
          f"(kept: {open(f'{out}/calibrate-kept').read().strip()})")
except FileNotFoundError:
    pass
PY
