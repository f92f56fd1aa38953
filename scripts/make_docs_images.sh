#!/usr/bin/env bash
# Regenerates the plots the README and docs/plots.md show: a roofline of resnet50 on a100 and
# batch sweeps. Needs a built perfmodel (BUILD_DIR, default build) and gnuplot (gnuplot-nox).
# Usage: scripts/make_docs_images.sh   (from anywhere; writes into docs/)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PERFMODEL:-${BUILD_DIR:-build}/perfmodel}
if [ ! -x "$bin" ]; then
  echo "make_docs_images: $bin not found; build first (scripts/bootstrap.sh) or set PERFMODEL" >&2
  exit 1
fi
command -v gnuplot >/dev/null || { echo "make_docs_images: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
mkdir -p docs

run() { echo "+ perfmodel $*" >&2; "$bin" "$@"; }

# Roofline: every layer of resnet50 at batch 64, fp16 on an A100.
run roofline --model resnet50 --hw a100 --batch 64 --dtype fp16 -o docs/roofline_resnet50_a100.svg
# Batch sweep of resnet50 in fp16 on four GPUs: latency, throughput, energy per sample.
run sweep --model resnet50 --hw t4,v100,a100,h100 --batch 1:1024:x2 --dtype fp16 \
  --plot docs/sweep_resnet50_fp16.svg >/dev/null
# Forward vs training of resnet50 on an H100 in bf16 and fp32 (train points past the 80 GB of
# DRAM are ringed).
run sweep --model resnet50 --hw h100 --batch 1:2048:x2 --dtype bf16,fp32 --pass fwd,train \
  --plot docs/sweep_resnet50_h100_train.svg >/dev/null
echo "make_docs_images: wrote docs/roofline_resnet50_a100.svg docs/sweep_resnet50_fp16.svg" \
  "docs/sweep_resnet50_h100_train.svg" >&2
