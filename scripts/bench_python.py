#!/usr/bin/python3
"""Costs of the Python module against what it wraps (docs/python.md, "Speed").

1. perfmodel.predict("resnet50", "a100") called in a loop, against the same C++ call (model and
   hardware loaded, predicted, rendered as JSON) looped in C++ (_perfmodel.time_predict_call):
   the Python layer's cost. Also with the first attribute read, which parses the JSON.
2. perfmodel.from_torch(resnet50) against torch.onnx.export of the same module into memory
   alone (the export from_torch runs, with its settings, and with torch's defaults).

Each figure is the median of --repeat runs. Usage (from the source root, after the build):
    PYTHONPATH=build/python /usr/bin/python3 scripts/bench_python.py [--calls N] [--repeat R]
"""
import argparse
import io
import statistics
import time
import warnings

import perfmodel
from perfmodel import _perfmodel


def median_seconds(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_predict(calls, repeat):
    perfmodel.predict("resnet50", "a100")  # warm: files in the page cache

    def loop():
        for _ in range(calls):
            perfmodel.predict("resnet50", "a100")

    def loop_read():
        for _ in range(calls):
            perfmodel.predict("resnet50", "a100").totals.predicted_seconds
    # Interleaved, so that load on the machine falls on all three alike.
    cpp, py, py_read = [], [], []
    for _ in range(repeat):
        cpp.append(_perfmodel.time_predict_call("resnet50", "a100", calls))
        py.append(median_seconds(loop, 1) / calls)
        py_read.append(median_seconds(loop_read, 1) / calls)
    cpp, py, py_read = (statistics.median(t) for t in (cpp, py, py_read))
    print(f"predict(resnet50, a100): C++ {cpp * 1e3:.3f} ms/call, Python {py * 1e3:.3f} ms/call "
          f"({py / cpp:.2f}x); with the first field read (JSON parsed) {py_read * 1e3:.3f} ms "
          f"({py_read / cpp:.2f}x)")


def bench_from_torch(repeat):
    import torch
    import torchvision
    model = torchvision.models.resnet50(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)

    def export_default():
        torch.onnx.export(model, (x,), io.BytesIO())

    def export_as_from_torch():
        torch.onnx.export(model, (x,), io.BytesIO(), input_names=["input0"],
                          dynamic_axes={"input0": {0: "batch"}}, opset_version=13,
                          training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=True)

    def from_torch():
        perfmodel.from_torch(model, x, hw="a100")

    # Interleaved, after a warm-up of each, so that load on the machine falls on all three.
    fns = {"default": export_default, "same": export_as_from_torch, "from_torch": from_torch}
    times = {k: [] for k in fns}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="It is recommended that constant folding")
        for fn in fns.values():
            fn()
        for _ in range(repeat):
            for k, fn in fns.items():
                times[k].append(median_seconds(fn, 1))
    default, same, ft = (statistics.median(times[k]) for k in fns)
    print(f"resnet50: torch.onnx.export alone {default * 1e3:.0f} ms (torch defaults), "
          f"{same * 1e3:.0f} ms (from_torch's settings); from_torch {ft * 1e3:.0f} ms "
          f"({ft / default:.2f}x, {ft / same:.2f}x)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-torch", action="store_true", help="skip the from_torch figure")
    args = ap.parse_args()
    bench_predict(args.calls, args.repeat)
    if not args.no_torch:
        bench_from_torch(args.repeat)


if __name__ == "__main__":
    main()
