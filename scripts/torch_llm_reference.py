#!/usr/bin/env python3
"""Time a Llama-shaped decoder in plain PyTorch on a GPU: prefill, one decode step with a KV
cache, and the GEMMs and attention calls it is made of. Reference measurements for
`perfmodel llm` (issue: large language models), not part of the product.

The model is built from a HuggingFace config.json's fields (hidden_size, intermediate_size,
num_hidden_layers, num_attention_heads, num_key_value_heads, head_dim, vocab_size,
rms_norm_eps, rope_theta, tie_word_embeddings) with random weights in fp16: RMSNorm, q/k/v/o
projections without bias, RoPE, grouped-query attention through
F.scaled_dot_product_attention (enable_gqa: the KV heads are not copied), SwiGLU MLP, final
RMSNorm and an LM head. The default config is Llama-3-8B's (meta-llama/Meta-Llama-3-8B,
config.json on the HuggingFace hub).

What is timed (CUDA events; median of the timed repetitions):
  prefill   batch x prompt tokens through every layer, K and V written to the cache, logits of
            the last token only (what serving engines compute); eager calls, 1 warm-up, 3 timed.
  decode    one new token per sequence at KV length L (attention over L cached entries plus
            the new one), logits for it; the step is captured in a CUDA graph and replayed
            (1 warm-up, 10 timed), as serving engines run decode, so that the time is the
            GPU's and not PyTorch's per-kernel dispatch.
  gemm      every linear layer's shape (F.linear, fp16) for M = 1 ... 8192 rows, timed as
            scripts/torch_gpu_kernels.py times GEMMs (graph replay); written as a measurement
            CSV (docs/formats.md) for `perfmodel kernels --input` and calibration.
  attention F.scaled_dot_product_attention alone at the prefill and decode shapes.
Cases whose KV cache would not fit in 70% of the free GPU memory are skipped (and listed).

    python3 scripts/torch_llm_reference.py --out out/gpu/llm
    python3 scripts/torch_llm_reference.py --cpu --out /tmp/llm   # a tiny check on the CPU

--cpu runs a tiny config in float32 and checks the KV-cache path: the logits of one decode
step after a prefill of T tokens equal those of a prefill of T + 1 tokens.
"""
import argparse
import csv
import json
import math
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_gpu_kernels import HEADER as MEASUREMENT_HEADER  # noqa: E402
from torch_gpu_kernels import time_call  # noqa: E402

LLAMA_3_8B = {  # meta-llama/Meta-Llama-3-8B config.json
    "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
    "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
    "vocab_size": 128256, "rms_norm_eps": 1e-5, "rope_theta": 500000.0,
    "max_position_embeddings": 8192, "tie_word_embeddings": False}
TINY = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 160,
        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
        "vocab_size": 256, "rms_norm_eps": 1e-5, "rope_theta": 10000.0,
        "max_position_embeddings": 64, "tie_word_embeddings": False}

PREFILL = [(1, 128), (1, 512), (1, 2048), (1, 8192), (8, 512), (8, 2048), (32, 512)]
DECODE_BATCHES = [1, 8, 32, 64]
DECODE_KV = [128, 512, 2048, 8192]
GEMM_M = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]


class Llama:
    """A Llama-style decoder as plain tensors and functions (random weights)."""

    def __init__(self, cfg, device, dtype):
        g = torch.Generator(device=device).manual_seed(0)
        d, f = cfg["hidden_size"], cfg["intermediate_size"]
        self.heads, self.kv_heads = cfg["num_attention_heads"], cfg["num_key_value_heads"]
        self.hd = cfg.get("head_dim") or d // self.heads
        self.eps, self.theta = cfg["rms_norm_eps"], cfg["rope_theta"]
        self.device, self.dtype = device, dtype

        def w(*shape):
            return (torch.randn(*shape, device=device, dtype=dtype, generator=g) * 0.02)

        def ones(n):
            return torch.ones(n, device=device, dtype=dtype)
        self.embed = w(cfg["vocab_size"], d)
        self.layers = [{"in_norm": ones(d), "q": w(self.heads * self.hd, d),
                        "k": w(self.kv_heads * self.hd, d), "v": w(self.kv_heads * self.hd, d),
                        "o": w(d, self.heads * self.hd), "post_norm": ones(d),
                        "gate": w(f, d), "up": w(f, d), "down": w(d, f)}
                       for _ in range(cfg["num_hidden_layers"])]
        self.norm = ones(d)
        self.lm_head = self.embed if cfg.get("tie_word_embeddings") else w(cfg["vocab_size"], d)

    def linear_shapes(self):
        """(name, N, K) of every distinct linear layer: y[M, N] = x[M, K] W[N, K]^T."""
        lay = self.layers[0]
        return [(n, lay[n].shape[0], lay[n].shape[1]) for n in ("q", "k", "o", "gate", "down")] \
            + [("lm_head", self.lm_head.shape[0], self.lm_head.shape[1])]

    def new_cache(self, batch, length):
        shape = (batch, self.kv_heads, length, self.hd)
        return [(torch.zeros(shape, device=self.device, dtype=self.dtype),
                 torch.zeros(shape, device=self.device, dtype=self.dtype)) for _ in self.layers]

    def rms(self, x, w):
        x32 = x.float()
        return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype) * w

    def rope(self, x, start):
        t = x.shape[2]
        inv = 1.0 / (self.theta ** (torch.arange(0, self.hd, 2, device=self.device).float()
                                    / self.hd))
        ang = torch.outer(torch.arange(start, start + t, device=self.device).float(), inv)
        cos, sin = ang.cos().to(x.dtype), ang.sin().to(x.dtype)
        x1, x2 = x[..., : self.hd // 2], x[..., self.hd // 2:]
        return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)

    def attend(self, q, k, v, causal):
        if getattr(self, "gqa_ok", True) and hasattr(F, "scaled_dot_product_attention"):
            try:
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
            except (TypeError, RuntimeError) as err:  # torch before 2.5, or no kernel for it
                print(f"torch_llm_reference: no SDPA with enable_gqa ({err}); the KV heads are "
                      "repeated instead", file=sys.stderr)
                self.gqa_ok = False
        rep = self.heads // self.kv_heads
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        if hasattr(F, "scaled_dot_product_attention"):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        s = q @ k.transpose(-1, -2) / math.sqrt(self.hd)
        if causal:
            tq, tk = s.shape[-2], s.shape[-1]
            mask = torch.ones(tq, tk, device=s.device, dtype=torch.bool).tril(tk - tq)
            s = s.masked_fill(~mask, float("-inf"))
        return torch.softmax(s.float(), -1).to(q.dtype) @ v

    def forward(self, ids, cache, start):
        """Logits of the last position of ids [batch, t], with K and V of positions
        start ... start + t - 1 written to cache; attention over cache[:start + t]."""
        b, t = ids.shape
        h = self.embed[ids]
        for lay, (ck, cv) in zip(self.layers, cache):
            a = self.rms(h, lay["in_norm"])
            q = F.linear(a, lay["q"]).view(b, t, self.heads, self.hd).transpose(1, 2)
            k = F.linear(a, lay["k"]).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
            v = F.linear(a, lay["v"]).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
            q, k = self.rope(q, start), self.rope(k, start)
            ck[:, :, start:start + t] = k
            cv[:, :, start:start + t] = v
            o = self.attend(q, ck[:, :, :start + t], cv[:, :, :start + t], causal=t > 1)
            h = h + F.linear(o.transpose(1, 2).reshape(b, t, -1), lay["o"])
            m = self.rms(h, lay["post_norm"])
            h = h + F.linear(F.silu(F.linear(m, lay["gate"])) * F.linear(m, lay["up"]),
                             lay["down"])
        return F.linear(self.rms(h[:, -1:], self.norm), self.lm_head)


def events(fn, reps, device, warm=1):
    """Median seconds of fn() over reps calls after warm calls (CUDA events, or the wall
    clock on the CPU)."""
    for _ in range(warm):
        fn()
    out = []
    for _ in range(reps):
        if device == "cuda":
            a, z = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            fn()
            z.record()
            z.synchronize()
            out.append(a.elapsed_time(z) * 1e-3)
        else:
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return statistics.median(out)


def kv_bytes(model, batch, length):
    return 2 * len(model.layers) * batch * model.kv_heads * length * model.hd * \
        torch.finfo(model.dtype).bits // 8


def fits(model, batch, length, device):
    if device != "cuda":
        return True
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info()
    return kv_bytes(model, batch, length) < 0.7 * free


def prefill_rows(model, cfg, device, cases):
    for b, t in cases:
        if not fits(model, b, t, device):
            print(f"torch_llm_reference: prefill b{b} T{t}: skipped (KV cache does not fit)",
                  file=sys.stderr)
            continue
        cache = model.new_cache(b, t)
        ids = torch.randint(0, cfg["vocab_size"], (b, t), device=device)
        with torch.inference_mode():
            s = events(lambda: model.forward(ids, cache, 0), 3, device)
        del cache
        yield {"phase": "prefill", "batch": b, "prompt": t, "kv_len": 0, "seconds": s}


def decode_rows(model, cfg, device, batches, lengths):
    for b in batches:
        need = [L for L in lengths if fits(model, b, L + 1, device)]
        for L in sorted(set(lengths) - set(need)):
            print(f"torch_llm_reference: decode b{b} L{L}: skipped (KV cache does not fit)",
                  file=sys.stderr)
        if not need:
            continue
        cache = model.new_cache(b, max(need) + 1)
        ids = torch.randint(0, cfg["vocab_size"], (b, 1), device=device)
        for L in need:
            step = lambda: model.forward(ids, cache, L)  # noqa: E731
            with torch.inference_mode():
                if device == "cuda":
                    side = torch.cuda.Stream()
                    side.wait_stream(torch.cuda.current_stream())
                    with torch.cuda.stream(side):
                        step()
                    torch.cuda.current_stream().wait_stream(side)
                    graph = torch.cuda.CUDAGraph()
                    with torch.cuda.graph(graph):
                        step()
                    s = events(graph.replay, 10, device)
                    eager = events(step, 3, device)
                    del graph
                else:
                    s = eager = events(step, 3, device)
            yield {"phase": "decode", "batch": b, "prompt": 0, "kv_len": L, "seconds": s,
                   "eager_seconds": eager}
        del cache


def gemm_rows(model, device, ms):
    for name, n, k in model.linear_shapes():
        w = torch.randn(n, k, device=device, dtype=model.dtype)
        for m in ms:
            x = torch.randn(m, k, device=device, dtype=model.dtype)
            s, e = time_call(lambda: F.linear(x, w), device)
            yield {"op": "gemm", "dtype": "fp16" if model.dtype == torch.float16 else "fp32",
                   "m": m, "n": n, "k": k, "batch": 1, "seconds": f"{s:.6e}",
                   "eager_seconds": f"{e:.6e}", "source": f"llama {name} F.linear"}


def attention_rows(model, device, prefill, batches, lengths):
    hd, H, KV = model.hd, model.heads, model.kv_heads
    shapes = [("prefill", b, t, t) for b, t in prefill] + \
        [("decode", b, 1, L + 1) for b in batches for L in lengths]
    for phase, b, tq, tk in shapes:
        if device == "cuda" and 4 * b * (H * tq + 2 * KV * tk) * hd > \
                0.5 * torch.cuda.mem_get_info()[0]:
            continue
        q = torch.randn(b, H, tq, hd, device=device, dtype=model.dtype)
        k = torch.randn(b, KV, tk, hd, device=device, dtype=model.dtype)
        v = torch.randn(b, KV, tk, hd, device=device, dtype=model.dtype)
        s, e = time_call(lambda: model.attend(q, k, v, causal=tq > 1), device)
        yield {"phase": phase, "batch": b, "heads": H, "kv_heads": KV, "q_len": tq,
               "kv_len": tk, "head_dim": hd, "causal": int(tq > 1), "seconds": f"{s:.6e}",
               "eager_seconds": f"{e:.6e}"}


def check_cache(model, cfg, device):
    """The decode path equals the prefill path: logits of a decode step after a prefill of T
    tokens against the prefill of the T + 1 tokens."""
    t = 7
    ids = torch.randint(0, cfg["vocab_size"], (2, t + 1), device=device)
    full = model.forward(ids, model.new_cache(2, t + 1), 0)
    cache = model.new_cache(2, t + 1)
    model.forward(ids[:, :t], cache, 0)
    step = model.forward(ids[:, t:], cache, t)
    err = (full - step).abs().max().item()
    if err > 1e-4 * max(1.0, full.abs().max().item()):
        sys.exit(f"torch_llm_reference: the KV-cache path differs from prefill by {err}")
    print(f"torch_llm_reference: KV-cache path equals prefill (max |diff| {err:.2e})",
          file=sys.stderr)


def write_csv(path, header, rows):
    with open(path + ".tmp", "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=header, extrasaction="ignore")
        wr.writeheader()
        for r in rows:
            wr.writerow(r)
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="folder for llm_reference.json and the CSVs")
    ap.add_argument("--config", help="a HuggingFace config.json (default: Llama-3-8B's fields)")
    ap.add_argument("--name", default="llama-3-8b")
    ap.add_argument("--cpu", action="store_true", help="a tiny check of this script on the CPU")
    a = ap.parse_args()
    device = "cpu" if a.cpu else "cuda"
    cfg = TINY if a.cpu else LLAMA_3_8B
    if a.config:
        with open(a.config) as f:
            cfg = json.load(f)
    if device == "cuda" and not torch.cuda.is_available():
        sys.exit("torch_llm_reference: no CUDA device")
    os.makedirs(a.out, exist_ok=True)
    dtype = torch.float32 if a.cpu else torch.float16
    t0 = time.time()
    model = Llama(cfg, device, dtype)
    if a.cpu:
        check_cache(model, cfg, device)
    limit = cfg.get("max_position_embeddings", 1 << 30)  # no case beyond the model's positions
    prefill = [(b, t) for b, t in ([(1, 8), (2, 16)] if a.cpu else PREFILL) if t <= limit]
    batches, lengths = ([1, 2], [8, 32]) if a.cpu else (DECODE_BATCHES, DECODE_KV)
    lengths = [L for L in lengths if L < limit]
    ms = [1, 4, 16] if a.cpu else GEMM_M
    phases = list(prefill_rows(model, cfg, device, prefill))
    phases += list(decode_rows(model, cfg, device, batches, lengths))
    for r in phases:
        print(f"torch_llm_reference: {r['phase']} b{r['batch']} prompt {r['prompt']} "
              f"kv {r['kv_len']}: {r['seconds'] * 1e3:.3f} ms", file=sys.stderr)
    info = {"model": a.name, "config": cfg, "dtype": str(dtype).replace("torch.", ""),
            "torch": torch.__version__, "device": torch.cuda.get_device_name(0)
            if device == "cuda" else "cpu", "phases": phases}
    with open(os.path.join(a.out, "llm_reference.json.tmp"), "w") as f:
        json.dump(info, f, indent=1)
    os.replace(os.path.join(a.out, "llm_reference.json.tmp"),
               os.path.join(a.out, "llm_reference.json"))
    write_csv(os.path.join(a.out, "llm_gemms.csv"), MEASUREMENT_HEADER,
              gemm_rows(model, device, ms))
    write_csv(os.path.join(a.out, "llm_attention.csv"),
              ["phase", "batch", "heads", "kv_heads", "q_len", "kv_len", "head_dim", "causal",
               "seconds", "eager_seconds"],
              attention_rows(model, device, prefill, batches, lengths))
    print(f"torch_llm_reference: done in {time.time() - t0:.1f} s -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
