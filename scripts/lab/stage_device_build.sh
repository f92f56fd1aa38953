#!/bin/bash
# Stages a CUDA build made on this (Debian) machine for a lent GPU machine of another
# distribution: the binaries, the plugin and the Debian libraries they need (not glibc, not the
# CUDA libraries, which the GPU machine has), behind wrappers that put those libraries on
# LD_LIBRARY_PATH for perfmodel's own processes only (PyTorch keeps the machine's own).
# Usage: scripts/lab/stage_device_build.sh BUILD_DIR STAGE_DIR
# On the GPU machine: export PM_CUDA_LIBS=<folders of libcudart/libcublas/libcudnn>, then run
# STAGE_DIR/perfmodel, STAGE_DIR/test/test_cuda_device as built (cuda_device_check.sh STAGE_DIR).
set -euo pipefail
build=${1:?usage: stage_device_build.sh BUILD_DIR STAGE_DIR}
stage=${2:?usage: stage_device_build.sh BUILD_DIR STAGE_DIR}
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib" "$stage/lib-stdcxx" "$stage/test"
cp "$build/perfmodel" "$build/libperfmodel_cuda.so" "$stage/bin/"
for t in test_cuda test_cuda_device; do
  [ -x "$build/test/$t" ] && cp "$build/test/$t" "$stage/bin/"
done
ldd "$stage"/bin/* | awk '/=> \//{print $3}' | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so* | libm.so* | libpthread* | libdl.so* | librt.so* | ld-linux* | libcuda.so* | \
      libcudart* | libcublas* | libcudnn* | libnvidia*) ;;
    libstdc++* | libgcc_s*) cp -L "$lib" "$stage/lib-stdcxx/" ;;
    *) cp -L "$lib" "$stage/lib/" ;;
  esac
done
# One wrapper per program: the machine's own libstdc++ first (newer than Debian's), ours only
# where the program does not start with it.
wrapper() { # wrapper NAME PATH_OF_WRAPPER
  cat >"$2" <<EOT
#!/bin/sh
root=\$(cd "\$(dirname "\$0")" && cd "$3" && pwd)
libs="\$root/lib:\${PM_CUDA_LIBS:-}"
if ! LD_LIBRARY_PATH="\$libs" "\$root/bin/$1" --help >/dev/null 2>&1; then
  libs="\$libs:\$root/lib-stdcxx"
fi
LD_LIBRARY_PATH="\$libs:\${LD_LIBRARY_PATH:-}" exec "\$root/bin/$1" "\$@"
EOT
  chmod +x "$2"
}
wrapper perfmodel "$stage/perfmodel" .
for t in test_cuda test_cuda_device; do
  [ -x "$stage/bin/$t" ] && wrapper "$t" "$stage/test/$t" ..
done
du -sh "$stage"
