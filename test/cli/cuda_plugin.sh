#!/usr/bin/env bash
# The CUDA plugin as the perfmodel binary loads it (docs/cuda.md, "Plugin").
#
#   cuda_plugin.sh BIN hidden          the binary where no CUDA plugin or library can be found:
#                                      --version and predict work; calibrate and measure --device
#                                      cuda exit 1 with one line (plugin missing; plugin not
#                                      loadable) and write nothing; the binary links no CUDA
#                                      library (ldd).
#   cuda_plugin.sh BIN no-gpu PLUGIN   the built plugin, with every GPU hidden: calibrate and
#                                      measure --device cuda load it (named by PERFMODEL_CUDA_PLUGIN,
#                                      and found next to the binary) and exit 1 with the one-line
#                                      "no usable device" error, writing nothing. Where a private
#                                      mount namespace is permitted (unshare -m, as root), then
#                                      also with the CUDA libraries' folder hidden (libs-hidden).
#   cuda_plugin.sh BIN libs-hidden PLUGIN DIR   (run by no-gpu inside the namespace) DIR, the
#                                      folder of libcudart, emptied: --version and predict work;
#                                      the plugin does not load, one line naming the library.
set -u
bin=$1
mode=$2
plugin=${3:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Runs the binary with "$@"; sets status, and leaves stdout/stderr in $tmp/out, $tmp/err.
run() {
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
}

# calibrate --device cuda and measure --device cuda must each exit 1 with exactly one stderr
# line containing $1, print nothing, and create none of their output files.
expect_gpu_refusal() {
  local want=$1 what
  for what in calibrate measure; do
    rm -rf "$tmp/written" && mkdir -p "$tmp/written"
    if [ $what = calibrate ]; then
      run calibrate --device cuda --hw v100 --quick -o "$tmp/written/cal.yaml" \
        --save-samples "$tmp/written/s.csv"
    else
      run measure --device cuda --hw h100 --model resnet50 --dtype fp16 --channels-last \
        -o "$tmp/written/m.json" --save-samples "$tmp/written/s.csv"
    fi
    [ "$status" = 1 ] || bad "$what --device cuda: exit $status, expected 1"
    [ "$(wc -l <"$tmp/err")" = 1 ] || bad "$what --device cuda: stderr is not one line"
    grep -qF -- "$want" "$tmp/err" || bad "$what --device cuda: stderr lacks '$want'"
    [ -z "$(ls -A "$tmp/written")" ] || bad "$what --device cuda wrote $(ls "$tmp/written")"
    [ -s "$tmp/out" ] && bad "$what --device cuda printed to stdout"
    echo "$what stderr: $(cat "$tmp/err")"
  done
}

case $mode in
  hidden)
    export LD_LIBRARY_PATH=
    export PERFMODEL_CUDA_PLUGIN="$tmp/absent/libperfmodel_cuda.so"
    if command -v ldd >/dev/null; then
      ldd "$bin" | grep -E 'lib(cudart|cublas|cublasLt|cudnn|cuda|nvidia-ml)[.-]' \
        && bad "the binary links a CUDA library"
    fi
    run --version
    [ "$status" = 0 ] && [ -s "$tmp/out" ] || bad "--version: exit $status"
    run predict --hw v100 --model nin --batch 5
    [ "$status" = 0 ] || bad "predict: exit $status: $(cat "$tmp/err")"
    diff -u "$src/test/golden/predict_nin_table/expected.out" "$tmp/out" >/dev/null \
      || bad "predict's output differs from test/golden/predict_nin_table/expected.out"
    expect_gpu_refusal "libperfmodel_cuda.so was not found (looked for $PERFMODEL_CUDA_PLUGIN)"
    # A file that is not a loadable library, named through its folder.
    mkdir -p "$tmp/broken" && echo "not a shared library" >"$tmp/broken/libperfmodel_cuda.so"
    export PERFMODEL_CUDA_PLUGIN="$tmp/broken"
    expect_gpu_refusal "cannot load the CUDA backend $tmp/broken/libperfmodel_cuda.so: "
    ;;
  no-gpu)
    export CUDA_VISIBLE_DEVICES=
    export PERFMODEL_CUDA_PLUGIN="$plugin"
    expect_gpu_refusal "error: CUDA: no usable device: "
    # Found next to the binary, where the build puts it.
    unset PERFMODEL_CUDA_PLUGIN
    [ -f "$(dirname "$bin")/libperfmodel_cuda.so" ] || bad "no plugin next to $bin"
    expect_gpu_refusal "error: CUDA: no usable device: "
    cudart=$(ldd "$plugin" | awk '/libcudart/ {print $3}')
    dir=$(dirname "$(readlink -f "$cudart")")
    if [ -z "$cudart" ] || [ -e "$dir/libc.so.6" ] || [ -e "$dir/libstdc++.so.6" ]; then
      echo "skipped hiding the CUDA libraries: libcudart not found apart from the system's"
    elif ! unshare -m true 2>/dev/null; then
      echo "skipped hiding the CUDA libraries: no private mount namespace here (not root)"
    else
      unshare -m bash "$0" "$bin" libs-hidden "$plugin" "$dir" || fail=1
    fi
    ;;
  libs-hidden)
    mount -t tmpfs none "$4" || { echo "FAIL: cannot hide $4"; exit 1; }
    [ -z "$(ls -A "$4")" ] || bad "$4 still lists files"
    export PERFMODEL_CUDA_PLUGIN="$plugin"
    run --version
    [ "$status" = 0 ] || bad "--version without the CUDA libraries: exit $status"
    run predict --hw v100 --model nin --batch 5
    [ "$status" = 0 ] || bad "predict without the CUDA libraries: exit $status"
    expect_gpu_refusal "cannot load the CUDA backend $plugin: lib"
    grep -qF "cannot open shared object file" "$tmp/err" || bad "the loader's reason is not quoted"
    ;;
  *) echo "usage: $0 BIN hidden | BIN no-gpu PLUGIN" >&2; exit 2 ;;
esac
exit $fail
