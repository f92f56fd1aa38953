#!/usr/bin/env bash
# Regenerates the plots the README and docs/plots.md show: a roofline of resnet50 on a100 and
# batch sweeps, and the screenshot of the HTML report (docs/images/report.png). Needs a built
# perfmodel (BUILD_DIR, default build) and gnuplot (gnuplot-nox); the screenshot needs Chromium
# and is reduced to 64 colours where python3 has PIL (python3-pil).
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

# The top of the HTML report of resnet50 on an A100 (batch 64, fp16), as headless Chromium
# renders it with the network off.
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "make_docs_images: no chromium; docs/images/report.png not regenerated" >&2
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run report --model resnet50 --hw a100 --batch 64 --dtype fp16 -o "$tmp/report.html"
mkdir -p docs/images
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --proxy-server=http://127.0.0.1:9 --host-resolver-rules="MAP * ~NOTFOUND" \
  --user-data-dir="$tmp/profile" --window-size=1200,1240 --screenshot="$tmp/report.png" \
  "file://$tmp/report.html" 2>/dev/null
python3 - "$tmp/report.png" docs/images/report.png <<'PY' || cp "$tmp/report.png" docs/images/report.png
import sys
from PIL import Image
Image.open(sys.argv[1]).convert("RGB").quantize(
    colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(sys.argv[2], optimize=True)
PY
echo "make_docs_images: wrote docs/images/report.png" >&2
