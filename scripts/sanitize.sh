#!/usr/bin/env bash
# The sanitizer job of CI (docs/reliability.md): builds perfmodel with clang, AddressSanitizer
# and UndefinedBehaviorSanitizer (-fno-sanitize-recover=undefined) and the libFuzzer targets
# into build-asan/ (no CUDA, no benchmarks, no Python module; unity build; ccache when
# present), then runs its ctest suite: the unit tests of every library but the CPU kernels and
# calibrate, every golden and bad-input test plus a short smoke run of each fuzzer. Only what
# that suite runs is built (the CLI, those unit tests, the fuzz targets). Left out (they time
# real kernels for minutes under the sanitizers' slowdown; the Release suite runs them): the
# CPU microbenchmark calibrations (golden calibrate_cpu_*), the measure goldens that run a model
# (measure_*; the ones that fail before running stay), "unit: kernels" and "unit: calibrate"
# (over 5 minutes under the sanitizers; its samples CSV reader is fuzzed) and "calibration: refit
# from saved samples" (three Ceres fits, 90 s under the sanitizers); also the "scripts: *"
# checks of the Python/torch reference scripts, the Python module's tests and the browser test
# of the HTML report, which test no sanitized code of their own.
# Environment: BUILD_DIR (default build-asan), JOBS, CXX (a clang++, default clang++ or
# clang++-14), FUZZ_SMOKE_SECONDS (per fuzzer, default 5). --configure-only: configure, no more.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang and its sanitizer and libFuzzer runtimes (Debian 12: clang 14), installed like
# scripts/bootstrap.sh installs the rest, only when missing.
packages=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null; then
  echo "sanitize: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

build_dir=${BUILD_DIR:-build-asan}
jobs=${JOBS:-$(nproc)}
cxx=${CXX:-}
if [ -z "$cxx" ]; then
  for c in clang++ clang++-14; do
    command -v "$c" >/dev/null && { cxx=$c; break; }
  done
fi
[ -n "$cxx" ] || { echo "sanitize: no clang++ found (Debian: apt-get install clang)" >&2; exit 1; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    -DCMAKE_UNITY_BUILD=ON -DPERFMODEL_WITH_CUDA=OFF -DPERFMODEL_BENCHMARKS=OFF \
    -DPERFMODEL_WITH_PYTHON=OFF -DPERFMODEL_BROWSER_TEST=OFF -DPERFMODEL_FUZZERS=ON \
    -DPERFMODEL_FUZZ_SMOKE_SECONDS="${FUZZ_SMOKE_SECONDS:-5}" >"$build_dir.configure.log" 2>&1 \
    || { cat "$build_dir.configure.log" >&2; exit 1; }
fi
[ "${1:-}" = --configure-only ] && exit 0
# What the ctest run below needs: the CLI (golden, bad-input and cli tests), the unit tests it
# runs, the fuzz targets (their smoke runs). test_kernels and test_calibrate are not built: their
# tests are left out.
targets=(perfmodel test_core test_targets test_io test_onnx test_trace test_policy test_llm
  test_report test_gpu_plan fuzz_model_yaml fuzz_hw_yaml fuzz_calibration_yaml fuzz_onnx fuzz_trace
  fuzz_measurements_csv fuzz_samples_csv fuzz_llm_config fuzz_nccl_tests)
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}" >"$build_dir.build.log" 2>&1 \
  || { tail -n 60 "$build_dir.build.log" >&2; exit 1; }

# detect_leaks: LeakSanitizer is part of ASan on x86-64 Linux; on by default, stated here.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" \
  -E '^(golden: calibrate_cpu_|golden: measure_(attempts|buffers|foreign_calibration|local_calibration_first|min_time_isolated|nearest_calibration|save_samples_unwritable)$|unit: (kernels|calibrate)$|calibration: refit from saved samples$|scripts: )'
