#!/usr/bin/env bash
# The cross-core term's A/B on one accuracy run: refits the run's saved samples with and without
# their cross_core_bytes (calibrate --from-samples; the column zeroed) and scores both on the
# run's own measurements (scripts/lab/compare_predictions.py): per-layer medians and end-to-end
# errors, the host's run-to-run spread left out. Both refits lack the pass excess (a refit from
# samples has none), so compare their end-to-end errors with each other, not with the run's.
# Usage: scripts/lab/cross_core_ab.sh [BUILD_DIR] RUN_DIR   (RUN_DIR: from calibration_accuracy.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
run=${2:?usage: scripts/lab/cross_core_ab.sh [BUILD_DIR] RUN_DIR}
bin=$build/perfmodel
python3 - "$run/samples.csv" "$run/samples_nocross.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
i = rows[0].index("cross_core_bytes")
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(rows[0])
    for r in rows[1:]:
        r[i] = "0"
        w.writerow(r)
PY
"$bin" calibrate --from-samples "$run/samples.csv" --hw zen5-2c -o "$run/fs_cross.yaml" 2>/dev/null
"$bin" calibrate --from-samples "$run/samples_nocross.csv" --hw zen5-2c -o "$run/fs_nocross.yaml" 2>/dev/null
for m in "$run"/*-calibrated.json; do
  scripts/lab/compare_predictions.py "$bin" "$m" "$run/fs_cross.yaml" "$run/fs_nocross.yaml"
done
