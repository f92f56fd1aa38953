#!/usr/bin/env python3
"""Time GEMMs and the convolutions of torchvision models on a GPU with PyTorch, and write a
measurement CSV in the format `perfmodel kernels --input` and `calibrate --from-measurements`
read (docs/formats.md): one row per kernel, `seconds` per call.

This is a reference measurement made with a framework users already trust, not part of the
product: perfmodel's own GPU microbenchmarks are in kernels/cuda. It runs where PyTorch with
CUDA is installed (the device machine); with --cpu it runs a few tiny cases on the CPU, only to
check the script itself.

Timing: cuDNN autotuning on (torch.backends.cudnn.benchmark, what a user's training script
gets), 3 warm-up calls, then `inner` back-to-back calls captured in a CUDA graph (`inner` makes
a replay last >= 200 us) and replayed 15 times, timed with CUDA events; `seconds` is the median
replay / inner: the kernels' own time, without PyTorch's ~20 us of dispatch per eager call.
`eager_seconds` is the same from eager calls, for comparison (perfmodel ignores the column).
fp32 rows run with TF32 off, tf32 rows with it on, fp16 rows on fp16 tensors (tensor cores).
With --channels-last the convolutions' input and weights are in channels-last (NHWC) memory
format, the one cuDNN's tensor-core kernels take natively, and no GEMM is timed: on NCHW
tensors an fp16 or tf32 convolution also runs cuDNN's layout conversions, which the graph
replay times with it (docs/cuda.md, "Measured on an H200").

    python3 scripts/torch_gpu_kernels.py -o out/gpu/torch_kernels.csv
    python3 scripts/torch_gpu_kernels.py --channels-last -o out/gpu/torch_kernels_cl.csv
    perfmodel kernels --hw h200 --input out/gpu/torch_kernels.csv
"""
import argparse
import csv
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

HEADER = ["op", "dtype", "pass", "m", "n", "k", "batch", "c", "h", "w", "out_channels",
          "kernel_h", "kernel_w", "stride_h", "stride_w", "pad_h", "pad_w", "dilation_h",
          "dilation_w", "groups", "seconds", "eager_seconds", "source"]

GEMMS = [(512, 512, 512), (1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096),
         (8192, 8192, 8192), (1, 4096, 4096), (16, 4096, 4096), (128, 4096, 4096),
         (4096, 1000, 2048), (32, 1000, 2048), (256, 1000, 2048), (12544, 64, 576),
         (3136, 256, 2304), (784, 512, 4608)]


def set_tf32(on):
    torch.backends.cuda.matmul.allow_tf32 = on
    torch.backends.cudnn.allow_tf32 = on


def event_seconds(fn):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1e-3


def time_call(fn, device):
    """(graph, eager): median seconds per call of fn() replayed from a CUDA graph, and called
    from Python. The graph's figure is the kernel's own time: eager calls of small kernels are
    bound by PyTorch's dispatch (about 20 us a call), not by the GPU."""
    if device == "cpu":
        for _ in range(3):
            fn()
        samples = []
        for _ in range(5):
            t = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - t)
        return statistics.median(samples), statistics.median(samples)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up (and cuDNN's autotuning) off the capture
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    one = max(event_seconds(fn), 1e-7)
    inner_eager = max(1, min(10000, int(200e-6 / one) + 1))

    def loop(n):
        return lambda: [fn() for _ in range(n)]

    eager = statistics.median(event_seconds(loop(inner_eager)) / inner_eager for _ in range(15))
    inner = inner_eager
    try:
        for _ in range(3):  # grow the graph until one replay lasts >= 200 us
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                loop(inner)()
            graph.replay()
            torch.cuda.synchronize()
            t = event_seconds(graph.replay)
            if t >= 200e-6 or inner >= 10000:
                break
            inner = min(10000, int(inner * 200e-6 / max(t, 1e-7)) + 1)
    except RuntimeError as err:  # not capturable: say so, and keep the eager figure
        print(f"torch_gpu_kernels: no CUDA graph ({err}); eager time kept", file=sys.stderr)
        return eager, eager
    replay = statistics.median(event_seconds(graph.replay) / inner for _ in range(15))
    return replay, eager


def torch_dtype(name):
    return torch.float16 if name == "fp16" else torch.float32


def gemm_rows(dtypes, device, shapes):
    for dt in dtypes:
        set_tf32(dt == "tf32")
        for m, n, k in shapes:
            a = torch.randn(m, k, device=device, dtype=torch_dtype(dt))
            b = torch.randn(k, n, device=device, dtype=torch_dtype(dt))
            s, e = time_call(lambda: torch.matmul(a, b), device)
            yield {"op": "gemm", "dtype": dt, "m": m, "n": n, "k": k, "batch": 1, "seconds": s,
                   "eager_seconds": e, "source": "torch.matmul"}


def model_convs(name, batch):
    """The distinct Conv2d layers of a torchvision model with their input shapes."""
    import torchvision
    model = getattr(torchvision.models, name)(weights=None).eval()
    seen, out = set(), []

    def hook(mod, inp, _):
        x = inp[0]
        key = (tuple(x.shape), mod.out_channels, mod.kernel_size, mod.stride, mod.padding,
               mod.dilation, mod.groups)
        if key not in seen:
            seen.add(key)
            out.append((mod, key))

    hs = [m.register_forward_hook(hook) for m in model.modules()
          if isinstance(m, torch.nn.Conv2d)]
    with torch.no_grad():
        model(torch.randn(batch, 3, 224, 224))
    for h in hs:
        h.remove()
    return out


def conv_call(pass_, x, wt, stride, pad, dil, g, fmt):
    """The call that runs one pass of a convolution: the forward, or aten's
    convolution_backward asked for the input gradient alone (bwd_data) or the weight gradient
    alone (bwd_filter), which is what autograd calls for a Conv2d layer."""
    if pass_ == "fwd":
        return lambda: F.conv2d(x, wt, None, stride, pad, dil, g)
    dy = F.conv2d(x, wt, None, stride, pad, dil, g).contiguous(memory_format=fmt)
    mask = [pass_ == "bwd_data", pass_ == "bwd_filter", False]
    return lambda: torch.ops.aten.convolution_backward(dy, x, wt, None, stride, pad, dil, False,
                                                       [0, 0], g, mask)


def conv_rows(models, batch, dtypes, device, channels_last=False, passes=("fwd",)):
    fmt = torch.channels_last if channels_last else torch.contiguous_format
    for name in models:
        for _, key in model_convs(name, batch):
            (n, c, h, w), oc, (kh, kw), (sh, sw), (ph, pw), (dh, dw), g = key
            for dt in dtypes:
                set_tf32(dt == "tf32")
                x = torch.randn(n, c, h, w, device=device, dtype=torch_dtype(dt)).to(
                    memory_format=fmt)
                wt = torch.randn(oc, c // g, kh, kw, device=device, dtype=torch_dtype(dt)).to(
                    memory_format=fmt)
                for pass_ in passes:
                    s, e = time_call(conv_call(pass_, x, wt, (sh, sw), (ph, pw), (dh, dw), g, fmt),
                                     device)
                    call = "F.conv2d" if pass_ == "fwd" else "aten.convolution_backward"
                    yield {"op": "conv2d", "dtype": dt, "pass": pass_, "batch": n, "c": c,
                           "h": h, "w": w, "out_channels": oc, "kernel_h": kh, "kernel_w": kw,
                           "stride_h": sh, "stride_w": sw, "pad_h": ph, "pad_w": pw,
                           "dilation_h": dh, "dilation_w": dw, "groups": g, "seconds": s,
                           "eager_seconds": e,
                           "source": f"{name} b{batch} {call}"
                                     + (" channels_last" if channels_last else "")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--models", default="resnet50,mobilenet_v2,vgg16")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--dtypes", default="fp32,tf32,fp16")
    ap.add_argument("--cpu", action="store_true", help="a tiny check of this script on the CPU")
    ap.add_argument("--channels-last", action="store_true",
                    help="convolutions only, on channels-last (NHWC) tensors")
    ap.add_argument("--passes", default="fwd",
                    help="convolution passes: fwd, bwd_data, bwd_filter (comma-separated); "
                         "GEMMs are timed only with fwd and without --channels-last")
    a = ap.parse_args()
    passes = a.passes.split(",")
    for p in passes:
        if p not in ("fwd", "bwd_data", "bwd_filter"):
            sys.exit(f"torch_gpu_kernels: --passes: unknown pass '{p}' (fwd, bwd_data, bwd_filter)")
    device = "cpu" if a.cpu else "cuda"
    if device == "cuda":
        if not torch.cuda.is_available():
            sys.exit("torch_gpu_kernels: no CUDA device")
        torch.backends.cudnn.benchmark = True
        print(f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
              f"{torch.cuda.get_device_name(0)}", file=sys.stderr)
    dtypes = ["fp32"] if a.cpu else a.dtypes.split(",")
    shapes = GEMMS[:2] if a.cpu else GEMMS
    models = ["resnet18"] if a.cpu else a.models.split(",")
    batch = 1 if a.cpu else a.batch
    gemms = [] if a.channels_last or "fwd" not in passes else list(
        gemm_rows(dtypes, device, shapes))
    rows = gemms + list(conv_rows(models, batch, dtypes, device, a.channels_last, passes))
    tmp = a.output + ".tmp"
    with open(tmp, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=HEADER)
        wr.writeheader()
        for r in rows:
            r = dict(r)
            for col in ("seconds", "eager_seconds"):
                r[col] = f"{r[col]:.6e}"
            wr.writerow(r)
    os.replace(tmp, a.output)
    print(f"torch_gpu_kernels: {len(rows)} rows -> {a.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
