#!/bin/bash
# The checks that need an NVIDIA GPU, in one run (docs/cuda.md, "Tests"):
#   1. test_cuda_device and test_cuda (built with -DPERFMODEL_DEVICE_TESTS=ON),
#   2. `calibrate --device cuda --quick` and the full plan, each with its fit samples,
#   2b. `measure --device cuda` (MEASURE=0 skips it) of resnet50, mobilenet_v2 and vgg16 at
#      batch 1 and 32, fp32 NCHW and fp16 channels-last, and bert_base at batch 1 and 32 in
#      fp32 and fp16, predicted with the full calibration of step 2 (the roofline where it
#      failed): each JSON report and its layer samples saved in MEASURE_DIR (default
#      reference/gpu/HW/measure/, to be committed; docs/cuda.md, "measure --device cuda"),
#   3. with PyTorch installed (and TORCH not 0), the reference measurements, saved in OUT_DIR:
#      - scripts/torch_gpu_kernels.py: GEMMs and the convolutions of ResNet-50, MobileNet-V2 and
#        VGG-16 (torch_kernels.csv: NCHW, forward; torch_kernels_cl.csv: channels-last,
#        forward; torch_kernels_bwd.csv: both backward passes, fp32 NCHW and fp16
#        channels-last), then `perfmodel kernels` of each CSV against the roofline and each
#        calibration;
#      - scripts/torch_gpu_traces.py: profiler traces of training steps and inference passes
#        (traces/);
#      - scripts/torch_llm_reference.py: a Llama-3-8B-shaped decoder's prefill and decode
#        steps, its GEMMs and attention calls (llm/).
# Usage: scripts/cuda_device_check.sh BUILD_DIR OUT_DIR [HW]   (HW: a hw_specs name; default
# h100, or h200 when the GPU is one). Each step's output goes to OUT_DIR; a failing step is
# reported and the others still run; the exit status is 1 if any step failed. Each step has a
# time limit (STEP_LIMIT seconds, default 150) so that one slow step cannot take the others'
# time on a lent machine.
set -u
build=${1:?usage: cuda_device_check.sh BUILD_DIR OUT_DIR [HW]}
out=${2:?usage: cuda_device_check.sh BUILD_DIR OUT_DIR [HW]}
cd "$(dirname "$0")/.."
mkdir -p "$out"
hw=${3:-h100}
if [ $# -lt 3 ] && nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | grep -q H200; then
  hw=h200
fi
failed=0
limit=${STEP_LIMIT:-150}
step() { # step NAME COMMAND...: runs it with its output in OUT_DIR/NAME.log
  local name=$1
  shift
  local start=$(date +%s%N)
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "$name: exit $rc, $(( ($(date +%s%N) - start) / 1000000 )) ms" | tee -a "$out/summary.txt"
  [ $rc -eq 0 ] || failed=1
}
: >"$out/summary.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv \
  >>"$out/summary.txt" 2>&1
step test_cuda_device "$build/test/test_cuda_device" --no-version
step test_cuda "$build/test/test_cuda" --no-version
step calibrate_quick "$build/perfmodel" calibrate --device cuda --hw "$hw" --quick \
  -o "$out/$hw-quick.yaml" --save-samples "$out/quick-samples.csv"
step calibrate "$build/perfmodel" calibrate --device cuda --hw "$hw" \
  -o "$out/$hw.yaml" --save-samples "$out/samples.csv"
if [ "${MEASURE:-1}" != 0 ]; then
  ref=${MEASURE_DIR:-reference/gpu/$hw/measure}
  mkdir -p "$ref"
  cal=()
  [ -s "$out/$hw.yaml" ] && cal=(--calibration "$out/$hw.yaml") && cp "$out/$hw.yaml" "$ref/"
  measure() { # measure NAME ARGS...: one model's report and samples under $ref
    local name=$1
    shift
    step "measure_$name" "$build/perfmodel" measure --device cuda --hw "$hw" "${cal[@]}" -q \
      --format json -o "$ref/$name.json" --save-samples "$ref/$name.samples.csv" "$@"
  }
  for m in resnet50 mobilenet_v2 vgg16; do
    for b in 1 32; do
      measure "${m}_b${b}_fp32" --model "$m" --batch "$b" --dtype fp32
      measure "${m}_b${b}_fp16_cl" --model "$m" --batch "$b" --dtype fp16 --channels-last
    done
  done
  for b in 1 32; do
    measure "bert_base_b${b}_fp32" --model bert_base --batch "$b" --dtype fp32
    measure "bert_base_b${b}_fp16" --model bert_base --batch "$b" --dtype fp16
  done
  # per run: median |error| per layer, end to end, energy (docs/cuda.md's table)
  python3 scripts/measure_summary.py "$ref"/*.json | tee "$ref/summary.txt" | tee -a "$out/summary.txt"
fi
if [ "${TORCH:-1}" != 0 ] &&
  python3 -c "import torch, torchvision; assert torch.cuda.is_available()" 2>/dev/null; then
  step torch_kernels python3 scripts/torch_gpu_kernels.py -o "$out/torch_kernels.csv"
  # the convolutions again on channels-last tensors (no layout conversion inside the op)
  step torch_kernels_cl python3 scripts/torch_gpu_kernels.py --channels-last \
    -o "$out/torch_kernels_cl.csv"
  step torch_traces python3 scripts/torch_gpu_traces.py --out "$out/traces"
  step torch_llm python3 scripts/torch_llm_reference.py --out "$out/llm"
  step torch_kernels_bwd python3 scripts/torch_gpu_kernels.py --dtypes fp32 \
    --passes bwd_data,bwd_filter -o "$out/torch_kernels_bwd.csv"
  step torch_kernels_bwd_cl python3 scripts/torch_gpu_kernels.py --channels-last --dtypes fp16 \
    --passes bwd_data,bwd_filter -o "$out/torch_kernels_bwd_cl.csv"
  for ref in "" _cl; do
    for cal in "" "$out/$hw-quick.yaml" "$out/$hw.yaml"; do
      name="kernels$ref${cal:+_$(basename "$cal" .yaml)}"
      step "$name" "$build/perfmodel" kernels --hw "$hw" ${cal:+--calibration "$cal"} \
        --input "$out/torch_kernels$ref.csv" --format json -o "$out/$name.json"
    done
  done
  # per op and dtype: median |error| / median error (docs/cuda.md's table)
  python3 scripts/kernel_errors.py errors "$out"/kernels*.json | tee -a "$out/summary.txt"
else
  echo "torch_kernels: skipped (TORCH=0, or no PyTorch with CUDA)" | tee -a "$out/summary.txt"
fi
exit $failed
