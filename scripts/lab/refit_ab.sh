#!/usr/bin/env bash
# A/B of two builds' fits on saved accuracy runs: for a change to the fit, or (RECOUNT=1) to how
# a layer is counted, which needs no new measurement. Each run's saved samples
# (RUN_DIR/samples.csv, as scripts/calibration_accuracy.sh writes) are refitted by both builds
# (calibrate --from-samples) and both refits are scored on the run's own measurements
# (scripts/lab/compare_predictions.py, each refit predicted by its own build: per-layer median
# |error| over layers >= 50 us).
# Prints each run's medians, then per network the mean median, the runs under 10% and the runs
# whose median B made better / worse, and per op class each side's median fit MAPE. A refit
# from samples has no pass excess: the run's calibration's (RUN_DIR/HW.yaml) is copied into
# both refits, so that their end-to-end errors are the run's too.
# ZERO_COLUMN=NAME: A refits the samples with that column of the sample CSV set to 0 (a feature
# of the model turned off on the same samples: BIN_A = BIN_B), e.g. weight_bytes.
# DROP_ROWS=REGEX: A refits the samples without the rows matching the (Python) regular
# expression, e.g. '^depthwise.*,network:' (a source of samples left out).
# FIT_ROWS=REGEX: B refits the samples with the held-out calibration-network rows matching the
# (Python) regular expression fitted too (their source renamed "fitted-network:…"), e.g.
# '^(conv|pointwise),' (a class's network layers fitted, not held out).
# STRIDE_COLUMN=1: B refits sample files written before the strided_lowered_bytes column with
# that column added (scripts/lab/add_stride_column.py: a microbenchmark's im2col matrix counts as
# gathered where its stride is > 1).
# RECOUNT=1: B counts the calibration networks' layers again with its own rules
# (calibrate --recount-networks; their times kept), for a change to how a network layer is
# counted (its cross-core or reuse bytes).
# KEEP=DIR: also writes each run's measurements rescored with each refit to DIR/a/RUN and
# DIR/b/RUN (compare_predictions.py --keep), for scripts/lab/layer_errors.py, and the refits there
# as SPEC.yaml (HW).
# HW=SPEC: the spec the runs were calibrated for (default zen5-2c; zen3-2c for runs since
# 2026-11-25 20:12Z, xeon-emr-2c since 2026-11-26 20:08Z): the run's calibration is
# RUN_DIR/SPEC.yaml.
# HW_A=SPEC, HW_B=SPEC: the hardware spec each side fits with (default HW): the memory
# levels' capacities come from it, e.g. a copy of hw_specs/zen5-2c.yaml with another L3 size.
# Usage: scripts/lab/refit_ab.sh BIN_A BIN_B RUN_DIR [RUN_DIR...]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin_a=${1:?usage: scripts/lab/refit_ab.sh BIN_A BIN_B RUN_DIR [RUN_DIR...]}
bin_b=${2:?usage: scripts/lab/refit_ab.sh BIN_A BIN_B RUN_DIR [RUN_DIR...]}
shift 2
[ $# -ge 1 ] || { echo "usage: scripts/lab/refit_ab.sh BIN_A BIN_B RUN_DIR [RUN_DIR...]" >&2; exit 2; }
hw=${HW:-zen5-2c}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for run in "$@"; do
  samples_a="$run/samples.csv"
  if [ -n "${ZERO_COLUMN:-}${DROP_ROWS:-}" ]; then
    python3 - "$run/samples.csv" "$tmp/a.csv" "${ZERO_COLUMN:-}" "${DROP_ROWS:-}" <<'PY'
import csv, re, sys
lines = open(sys.argv[1]).read().splitlines()
head, body = lines[0], [l for l in lines[1:] if not (sys.argv[4] and re.search(sys.argv[4], l))]
rows = list(csv.reader([head] + body))
if sys.argv[3]:
    col = rows[0].index(sys.argv[3])  # a missing column is an error
    for r in rows[1:]:
        r[col] = "0"
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(rows)
PY
    samples_a="$tmp/a.csv"
  fi
  "$bin_a" calibrate --from-samples "$samples_a" --hw "${HW_A:-$hw}" -o "$tmp/a.yaml" 2>/dev/null
  samples_b="$run/samples.csv"
  if [ -n "${STRIDE_COLUMN:-}" ]; then
    scripts/lab/add_stride_column.py "$run/samples.csv" "$tmp/b.csv"
    samples_b="$tmp/b.csv"
  fi
  if [ -n "${FIT_ROWS:-}" ]; then
    python3 - "$samples_b" "$tmp/b2.csv" "$FIT_ROWS" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
out = [lines[0]] + [l.replace(",network:", ",fitted-network:", 1) if re.search(sys.argv[3], l)
                    else l for l in lines[1:]]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
    samples_b="$tmp/b2.csv"
  fi
  recount=()
  [ -z "${RECOUNT:-}" ] || recount=(--recount-networks)
  "$bin_b" calibrate --from-samples "$samples_b" --hw "${HW_B:-$hw}" "${recount[@]}" \
    -o "$tmp/b.yaml" 2>/dev/null
  excess=$(grep '^pass_excess:' "$run/$hw.yaml" || true)
  if [ -n "$excess" ]; then
    for f in "$tmp/a.yaml" "$tmp/b.yaml"; do
      sed -i "s|^conv_batch:.*|&\n$excess|" "$f"
    done
  fi
  mkdir -p "$tmp/fits"
  for side in a b; do
    cp "$tmp/$side.yaml" "$tmp/fits/$(basename "$run")-$side.yaml"
    if [ -n "${KEEP:-}" ]; then
      mkdir -p "$KEEP/$side/$(basename "$run")"
      cp "$tmp/$side.yaml" "$KEEP/$side/$(basename "$run")/$hw.yaml"
    fi
  done
  keep=()
  [ -z "${KEEP:-}" ] || keep=(--keep "$KEEP/{cal}/$(basename "$run")")
  for m in "$run"/*-calibrated.json; do
    for side in a b; do
      bin=$bin_a
      [ "$side" = a ] || bin=$bin_b
      scripts/lab/compare_predictions.py "$bin" "$m" "$tmp/$side.yaml" "${keep[@]}" |
        sed "s|$tmp/||; s|^|$(basename "$run") |"
    done
  done
done | tee "$tmp/scores.txt"
python3 - "$tmp/scores.txt" "$tmp/fits" <<'PY'
import glob, re, statistics, sys
per = {}
for line in open(sys.argv[1]):
    m = re.match(r"\S+ (\S+)\s+(a|b)\.yaml\s+median \|err\|\s+([\d.]+)%\s+e2e\s+([+-]?[\d.]+)%",
                 line)
    if m:
        per.setdefault((m.group(1), m.group(2)), []).append((float(m.group(3)), float(m.group(4))))
for model in sorted({k[0] for k in per}):
    out = []
    for side in "ab":
        v = per[(model, side)]
        out.append(f"{side.upper()} mean {sum(x for x, _ in v)/len(v):5.2f}% "
                   f"({sum(x <= 10 for x, _ in v)}/{len(v)} <= 10%, "
                   f"{sum(abs(e) <= 5 for _, e in v)}/{len(v)} e2e within 5%)")
    a, b = [x for x, _ in per[(model, "a")]], [x for x, _ in per[(model, "b")]]
    out.append(f"B better / worse {sum(y < x for x, y in zip(a, b))} / "
               f"{sum(y > x for x, y in zip(a, b))}")
    print(f"{model:14} " + "  ".join(out))
mape = {}  # (class, side) -> the refits' fit MAPEs
for f in sorted(glob.glob(sys.argv[2] + "/*.yaml")):
    side, cls = f[-6], None
    for line in open(f):
        c = re.match(r"\s+- op_class: (\S+)", line)
        cls = c.group(1) if c else cls
        fit = re.match(r"\s+fit: \{.*mape: ([\d.e+-]+)", line)
        if cls and fit:
            mape.setdefault((cls, side), []).append(float(fit.group(1)))
for cls in sorted({c for c, _ in mape}):
    print(f"fit MAPE {cls:18} " + "  ".join(
        f"{s.upper()} median {100 * statistics.median(mape[(cls, s)]):5.2f}%"
        for s in "ab" if (cls, s) in mape))
PY
