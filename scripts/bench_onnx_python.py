#!/usr/bin/python3
# Times Python's onnx.load + onnx.shape_inference.infer_shapes: the baseline of bench_onnx_load.
"""Baseline for bench/onnx_load_bench.cpp.

With --export, first writes resnet50.onnx and vgg16.onnx (torchvision, random weights, opset
13, dynamic batch) into --dir (default /tmp/perfmodel-zoo; never commit them). Then, for each
file, reports the median over --repeat runs of onnx.load() + onnx.shape_inference.infer_shapes()
(file in the page cache: the first, cold run is discarded).

Usage: /usr/bin/python3 scripts/bench_onnx_python.py [--export] [--dir D] [--repeat N]
"""
import argparse
import os
import statistics
import time

import onnx


def export(path, name):
    import torch
    import torchvision
    model = getattr(torchvision.models, name)(weights=None).eval()
    torch.onnx.export(model, (torch.randn(1, 3, 224, 224),), path, opset_version=13,
                      input_names=["input"], output_names=["output"],
                      dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}},
                      training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default="/tmp/perfmodel-zoo")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--export", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    for name in ("resnet50", "vgg16"):
        path = os.path.join(args.dir, name + ".onnx")
        if args.export and not os.path.exists(path):
            export(path, name)
        times = []
        for i in range(args.repeat + 1):
            t0 = time.perf_counter()
            m = onnx.load(path)
            onnx.shape_inference.infer_shapes(m)
            if i:
                times.append(time.perf_counter() - t0)
        print("%-9s %7.1f MB  onnx.load + infer_shapes: median %.1f ms (min %.1f, %d runs)"
              % (name, os.path.getsize(path) / 1e6, 1e3 * statistics.median(times),
                 1e3 * min(times), len(times)))


if __name__ == "__main__":
    main()
