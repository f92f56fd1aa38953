#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang + ASan + UBSan, in build-asan/ like
# scripts/sanitize.sh) and runs each for SECONDS, one after another, at low priority:
#   scripts/fuzz.sh [SECONDS] [TARGET...]     (default 60 s each, every target)
# Each run starts from the committed seeds fuzz/corpus/<target> plus what earlier runs kept in
# build-asan/fuzz/work/<target>; a crash, leak, timeout or broken contract leaves its
# reproducer in build-asan/fuzz/artifacts/<target>/ and makes the script exit 1. Prints one
# line per target: executions, inputs kept, findings. Environment: BUILD_DIR, JOBS, CXX.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
build_dir=${BUILD_DIR:-build-asan}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(model_yaml hw_yaml calibration_yaml onnx trace measurements_csv
  samples_csv llm_config nccl_tests)

# Configure and build only the fuzzers (scripts/sanitize.sh builds the whole tree).
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  BUILD_DIR=$build_dir scripts/sanitize.sh --configure-only
fi
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}" \
  >"$build_dir.fuzz-build.log" 2>&1 || { tail -n 60 "$build_dir.fuzz-build.log" >&2; exit 1; }

status=0
for t in "${targets[@]}"; do
  work=$build_dir/fuzz/work/$t
  artifacts=$build_dir/fuzz/artifacts/$t
  log=$build_dir/fuzz/$t.log
  mkdir -p "$work" "$artifacts"
  rc=0
  nice -n 19 "$build_dir/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  found=$(find "$artifacts" -type f | wc -l)
  printf '%-18s %10s executions in %ss, %5s inputs kept, %s finding(s), exit %s\n' "$t" \
    "${execs:-?}" "$seconds" "$(find "$work" -type f | wc -l)" "$found" "$rc"
  if [ "$rc" != 0 ]; then
    status=1
    grep -m 3 -E 'ERROR|fuzz contract broken|runtime error' "$log" || true
  fi
done
exit $status
