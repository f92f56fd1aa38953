#!/usr/bin/env bash
# A GPU-target calibration refitted from the samples it saved (calibrate --save-samples, then
# --from-samples) is the calibration fitted from the source data: the sample CSV keeps every
# feature the fit reads (the conv geometry, parallel units) and the times exactly.
#   samples_refit.sh PERFMODEL        (run from the source root)
# 1. the H200 kernels (calibration/h200-kernels.csv, a measurement CSV) with --target gpu;
# 2. the shipped calibration/v100-resnet50-trace-samples.csv refits
#    calibration/v100-resnet50-trace.yaml;
# 3. where the shared V100 traces are (../shared/traces beside the checkout), their fit and the
#    refit of its saved samples.
# The calibrations are compared but for their date, their `source:` line and comments.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

same() { # same NAME A B: the two calibrations' fits are equal
  if diff <(grep -v '^#\|^date:\|^source:' "$2") <(grep -v '^#\|^date:\|^source:' "$3") \
    >"$tmp/diff"; then
    echo "$1: the refit is the fit"
  else
    echo "$1: the refit differs from the fit:"
    head -n 20 "$tmp/diff"
    fail=1
  fi
}

"$bin" calibrate --from-measurements calibration/h200-kernels.csv --hw h200 --target gpu \
  --save-samples "$tmp/h200.csv" -o "$tmp/h200.yaml" 2>/dev/null
"$bin" calibrate --from-samples "$tmp/h200.csv" --hw h200 --target gpu -o "$tmp/h200-refit.yaml" \
  2>/dev/null
same "h200 kernels" "$tmp/h200.yaml" "$tmp/h200-refit.yaml"

"$bin" calibrate --from-samples calibration/v100-resnet50-trace-samples.csv --hw v100 \
  -o "$tmp/v100-shipped-refit.yaml" 2>/dev/null
same "shipped v100 trace samples" calibration/v100-resnet50-trace.yaml "$tmp/v100-shipped-refit.yaml"

traces=../shared/traces
t0=$traces/resnet50_v100_num_workers_0.pt.trace.json.gz
t4=$traces/resnet50_v100_num_workers_4.pt.trace.json.gz
if [ -f "$t0" ] && [ -f "$t4" ]; then
  "$bin" calibrate --from-trace "$t0" "$t4" --hw v100 --save-samples "$tmp/v100.csv" \
    -o "$tmp/v100.yaml" 2>/dev/null
  "$bin" calibrate --from-samples "$tmp/v100.csv" --hw v100 -o "$tmp/v100-refit.yaml" 2>/dev/null
  same "v100 traces" "$tmp/v100.yaml" "$tmp/v100-refit.yaml"
else
  echo "v100 traces: not in $traces; skipped"
fi
exit $fail
