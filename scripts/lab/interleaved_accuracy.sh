#!/usr/bin/env bash
# Runs scripts/calibration_accuracy.sh with two builds in turn, CYCLES times, alternating which
# goes first, so that a change is judged against the code before on the same stretch of a noisy
# host (each run calibrates afresh and measures the four networks).
# Usage: scripts/lab/interleaved_accuracy.sh OLD_BUILD_DIR NEW_BUILD_DIR OUT_DIR CYCLES
# Writes OUT_DIR/{old,new}N (the runs) and OUT_DIR/{old,new}N.log (their tables).
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$1 new=$2 out=$3 cycles=$4
mkdir -p "$out"
for c in $(seq 1 "$cycles"); do
  order="old new"
  [ $((c % 2)) = 0 ] && order="new old"
  for v in $order; do
    build=$old
    [ "$v" = new ] && build=$new
    scripts/calibration_accuracy.sh "$build" "$out/$v$c" > "$out/$v$c.log" 2>&1
    tail -n 6 "$out/$v$c.log"
  done
done
