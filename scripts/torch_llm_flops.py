#!/usr/bin/env python3
"""Cross-checks `perfmodel llm` against a plain-PyTorch model built from the same config.json
fields: the parameter count, and the GEMM FLOPs torch.profiler counts (with_flops: aten::mm,
addmm, bmm, baddbmm) for a prefill and for a decode step with a KV cache, against the GEMM
layers of perfmodel's prefill and decode graphs (`--attention eager`: the PyTorch model
computes the whole score rectangle; GQA by repeating the KV heads, which adds no FLOPs).

The model is scripts/torch_llm_reference.py's Llama (random weights, float32 on the CPU) with
its TINY config (GQA: 4 query heads, 2 KV heads). Exit 1 when a figure differs; the figures
are written to --out as JSON (test/data/llm/torch_tiny_flops.json holds a run's).

    python3 scripts/torch_llm_flops.py build/perfmodel --out /tmp/torch_llm_flops.json
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_llm_reference import TINY, Llama  # noqa: E402

GEMM_OPS = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"}


def eager_attend(self, q, k, v, causal):
    """Attention over the whole rectangle with the KV heads repeated (no SDPA)."""
    rep = self.heads // self.kv_heads
    k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
    s = q @ k.transpose(-1, -2) / math.sqrt(self.hd)
    if causal:
        tq, tk = s.shape[-2], s.shape[-1]
        mask = torch.ones(tq, tk, dtype=torch.bool).tril(tk - tq)
        s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, -1) @ v


def gemm_flops(fn):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                with_flops=True) as prof:
        fn()
    return int(sum(e.flops for e in prof.events() if e.name in GEMM_OPS and e.flops))


def perfmodel_gemm_flops(binary, config, batch, prompt, generate):
    out = subprocess.run([binary, "llm", "--model", config, "--hw", "h100", "--dtype", "fp32",
                          "--attention", "eager", "--batch", str(batch), "--prompt", str(prompt),
                          "--generate", str(generate), "--per-layer", "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    j = json.loads(out)

    def total(layers):
        return sum(l["flops"] for l in layers["layers"] if l["gemm"] is not None)
    return j["parameters"], total(j["prefill_layers"]), \
        total(j["decode_layers"]) if j["decode_layers"] else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("perfmodel", help="the perfmodel binary")
    ap.add_argument("--out", help="write the figures here (JSON)")
    a = ap.parse_args()
    torch.manual_seed(0)
    Llama.attend = eager_attend
    cfg = dict(TINY)
    model = Llama(cfg, "cpu", torch.float32)
    tensors = [model.embed, model.norm] + [t for lay in model.layers for t in lay.values()]
    if model.lm_head is not model.embed:
        tensors.append(model.lm_head)
    params = sum(t.numel() for t in tensors)
    batch, prompt = 2, 8
    ids = torch.randint(0, cfg["vocab_size"], (batch, prompt))
    cache = model.new_cache(batch, prompt + 1)
    with torch.inference_mode():
        prefill = gemm_flops(lambda: model.forward(ids, cache, 0))
        step = gemm_flops(lambda: model.forward(ids[:, :1], cache, prompt))  # KV length = prompt
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "tiny.json")
        with open(path, "w") as f:
            json.dump(cfg, f)
        pm_params, pm_prefill, pm_decode = perfmodel_gemm_flops(a.perfmodel, path, batch, prompt, 2)
    rows = [("parameters", params, pm_params), ("prefill GEMM FLOPs", prefill, pm_prefill),
            ("decode GEMM FLOPs", step, pm_decode)]
    ok = True
    for name, torch_value, pm_value in rows:
        same = torch_value == pm_value
        ok &= same
        print(f"torch_llm_flops: {name}: torch {torch_value}, perfmodel {pm_value}"
              f"{'' if same else '  DIFFERENT'}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"config": cfg, "batch": batch, "prompt": prompt, "kv_len": prompt,
                       "torch": torch.__version__,
                       "figures": {n: {"torch": t, "perfmodel": p} for n, t, p in rows}}, f,
                      indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
