#!/usr/bin/env python3
"""Record PyTorch profiler traces of training steps and inference passes on a GPU, as test data
for `perfmodel trace` and for cross-GPU prediction (docs/cuda.md, "Reference traces").

This is a reference measurement made with a framework users already trust, not part of the
product. It runs where PyTorch with CUDA is installed (the device machine); --cpu records one
tiny case on the CPU, only to check the script itself.

Models: torchvision's resnet50, mobilenet_v2 and vgg16 (random weights, 224x224 images, 1000
classes) and a BERT-base-shaped encoder in plain PyTorch (12 layers, d_model 768, 12 heads,
FFN 3072, GELU, post-LayerNorm, sequence 128, vocabulary 30522: the shape of Devlin et al.'s
BERT-base; nn.TransformerEncoderLayer, no HuggingFace code).

Each case (model, pass, batch, precision):
  train  forward, cross-entropy loss, backward, SGD step (momentum 0.9);
  infer  forward under torch.inference_mode;
  fp32   float32 with TF32 off;
  amp    torch.autocast(float16) (training with a GradScaler), CNNs on channels-last tensors
         (PyTorch's performance guide for tensor-core convolutions).
cuDNN autotuning is on (torch.backends.cudnn.benchmark, what a training script sets). The
profiler (record_shapes=True, as `trace --view attainment` needs) skips 1 step, warms up 2 and
records 2 (schedule(wait=1, warmup=2, active=2)); the trace is written gzip-compressed as
<out>/<model>_<pass>_b<batch>_<precision>.pt.trace.json.gz, and one line per case goes to
<out>/traces.csv: the case, the mean wall time per step of 5 more steps timed with CUDA events
outside the profiler, and the trace's size.

    python3 scripts/torch_gpu_traces.py --out out/gpu/traces
    perfmodel trace out/gpu/traces/resnet50_train_b32_fp32.pt.trace.json.gz --hw h200
"""
import argparse
import csv
import gzip
import os
import shutil
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

# (model, pass, batch, precision): the cases recorded by default.
CASES = [(m, p, b, prec)
         for m in ("resnet50", "mobilenet_v2", "vgg16", "bert_base")
         for (p, b, prec) in (("train", 32, "fp32"), ("train", 32, "amp"), ("infer", 1, "fp32"),
                              ("infer", 32, "fp32"), ("infer", 32, "amp"))]


class BertBaseShaped(nn.Module):
    """BERT-base's shape: token + position + segment embeddings, LayerNorm, 12 post-LN encoder
    layers, and a classification head on the first token."""

    def __init__(self, layers=12, d=768, heads=12, ffn=3072, vocab=30522, seq=512, classes=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        self.seg = nn.Embedding(2, d)
        self.norm = nn.LayerNorm(d, eps=1e-12)
        layer = nn.TransformerEncoderLayer(d, heads, ffn, dropout=0.1, activation="gelu",
                                           batch_first=True, layer_norm_eps=1e-12)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.pool = nn.Linear(d, d)
        self.head = nn.Linear(d, classes)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], device=ids.device)
        x = self.norm(self.tok(ids) + self.pos(pos)[None] + self.seg(torch.zeros_like(ids)))
        x = self.encoder(x)
        return self.head(torch.tanh(self.pool(x[:, 0])))


def build(model, batch, device, tiny):
    """(module, input, target) for one case."""
    if model == "bert_base":
        kw = dict(layers=1, d=64, heads=2, ffn=128, vocab=100, seq=16) if tiny else {}
        net = BertBaseShaped(**kw)
        seq = 16 if tiny else 128
        x = torch.randint(0, 100 if tiny else 30522, (batch, seq), device=device)
        y = torch.randint(0, 2, (batch,), device=device)
        return net.to(device), x, y
    import torchvision
    net = getattr(torchvision.models, model)(weights=None)
    size = 64 if tiny else 224
    x = torch.randn(batch, 3, size, size, device=device)
    y = torch.randint(0, 1000, (batch,), device=device)
    return net.to(device), x, y


def step_fn(net, x, y, pass_, prec, device):
    """One training step or inference pass of the case, as a closure."""
    amp = prec == "amp"
    ac = (lambda: torch.autocast(device_type=device, dtype=torch.float16)) if amp else None
    if pass_ == "infer":
        net.eval()

        def infer():
            with torch.inference_mode():
                if ac:
                    with ac():
                        net(x)
                else:
                    net(x)
        return infer
    net.train()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    scaler = torch.cuda.amp.GradScaler() if amp and device == "cuda" else None

    def train():
        opt.zero_grad(set_to_none=True)
        if ac:
            with ac():
                loss = F.cross_entropy(net(x), y)
        else:
            loss = F.cross_entropy(net(x), y)
        if scaler:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.step()
    return train


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def step_seconds(fn, device, n=5):
    """Mean wall time per step of n steps (CUDA events on the GPU)."""
    if device != "cuda":
        t = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t) / n
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(n):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1e-3 / n


def record(case, out, device, tiny):
    model, pass_, batch, prec = case
    torch.manual_seed(0)
    net, x, y = build(model, batch, device, tiny)
    if prec == "amp" and model != "bert_base":
        net = net.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)
    fn = step_fn(net, x, y, pass_, prec, device)
    name = f"{model}_{pass_}_b{batch}_{prec}"
    raw = os.path.join(out, name + ".pt.trace.json")
    acts = [torch.profiler.ProfilerActivity.CPU]
    if device == "cuda":
        acts.append(torch.profiler.ProfilerActivity.CUDA)
    with torch.profiler.profile(activities=acts, record_shapes=True,
                                schedule=torch.profiler.schedule(wait=1, warmup=2, active=2),
                                on_trace_ready=lambda p: p.export_chrome_trace(raw)) as prof:
        for _ in range(5):
            fn()
            sync(device)
            prof.step()
    secs = step_seconds(fn, device)
    with open(raw, "rb") as src, gzip.open(raw + ".gz.tmp", "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    os.replace(raw + ".gz.tmp", raw + ".gz")
    os.remove(raw)
    del net, x, y, fn
    if device == "cuda":
        torch.cuda.empty_cache()
    return {"case": name, "model": model, "pass": pass_, "batch": batch, "precision": prec,
            "step_seconds": f"{secs:.6e}", "trace_bytes": os.path.getsize(raw + ".gz")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="folder for the traces and traces.csv")
    ap.add_argument("--cases", default="",
                    help="comma-separated case names (model_pass_bN_precision); default all")
    ap.add_argument("--cpu", action="store_true", help="one tiny case on the CPU")
    a = ap.parse_args()
    device = "cpu" if a.cpu else "cuda"
    if device == "cuda":
        if not torch.cuda.is_available():
            sys.exit("torch_gpu_traces: no CUDA device")
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        print(f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
              f"{torch.cuda.get_device_name(0)}", file=sys.stderr)
    os.makedirs(a.out, exist_ok=True)
    cases = [("bert_base", "train", 2, "fp32"), ("resnet18", "infer", 1, "fp32")] if a.cpu \
        else CASES
    if a.cases:
        want = set(a.cases.split(","))
        cases = [c for c in cases if f"{c[0]}_{c[1]}_b{c[2]}_{c[3]}" in want]
    path = os.path.join(a.out, "traces.csv")
    with open(path, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=["case", "model", "pass", "batch", "precision",
                                           "step_seconds", "trace_bytes"])
        wr.writeheader()
        for case in cases:
            t = time.time()
            row = record(case, a.out, device, a.cpu)
            wr.writerow(row)
            f.flush()
            print(f"torch_gpu_traces: {row['case']}: {float(row['step_seconds']) * 1e3:.2f} ms "
                  f"per step, trace {row['trace_bytes'] / 1e6:.2f} MB ({time.time() - t:.1f} s)",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
