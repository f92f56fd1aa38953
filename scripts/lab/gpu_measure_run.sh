#!/bin/bash
# On a lent GPU machine, from a build staged by scripts/lab/stage_device_build.sh: the checks
# of scripts/cuda_device_check.sh without the PyTorch steps (TORCH=0, their references are in
# reference/gpu/h200/), the `measure --device cuda` reports written to OUT/measure (copy them to
# reference/gpu/HW/measure/ and commit). PM_CUDA_LIBS, when unset, becomes the folders of the
# machine's libcudart, libcublas and libcudnn (PyTorch's nvidia-* wheels, /usr/local/cuda*).
# Usage: scripts/lab/gpu_measure_run.sh STAGE OUT [HW]
set -u
stage=${1:?usage: gpu_measure_run.sh STAGE OUT [HW]}
out=${2:?usage: gpu_measure_run.sh STAGE OUT [HW]}
cd "$(dirname "$0")/../.."
if [ -z "${PM_CUDA_LIBS:-}" ]; then
  PM_CUDA_LIBS=$(python3 - <<'PY'
import glob, os, site
roots = [os.path.join(p, "nvidia") for p in site.getsitepackages() + [site.getusersitepackages()]]
roots += glob.glob("/usr/local/cuda*/lib64") + glob.glob("/usr/local/cuda*/targets/*/lib")
dirs = []
for r in roots:
    for name in ("libcudart.so*", "libcublas.so*", "libcublasLt.so*", "libcudnn.so*"):
        for p in glob.glob(os.path.join(r, "**", name), recursive=True):
            if os.path.dirname(p) not in dirs:
                dirs.append(os.path.dirname(p))
print(":".join(dirs))
PY
)
  export PM_CUDA_LIBS
fi
echo "PM_CUDA_LIBS=$PM_CUDA_LIBS"
mkdir -p "$out"
TORCH=${TORCH:-0} MEASURE_DIR="$out/measure" scripts/cuda_device_check.sh "$stage" "$out" ${3:+"$3"}
