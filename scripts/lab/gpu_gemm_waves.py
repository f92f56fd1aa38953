#!/usr/bin/env python3
"""A prototype of the GPU target's GEMM model, checked on the H200's fp16 GEMMs
(reference/gpu/h200: the Llama-3-8B linear layers for M = 1 ... 8192 and torch_kernels.csv's 14
shapes): CTA tiles from 256x128 down to 64x64, waves = ceil(tiles x splits / SMs), split-K
where the tiles do not fill the SMs, time = min over (tile, splits) of max(compute, memory) +
overhead, with three parameters (tensor-core efficiency, DRAM efficiency, overhead) fitted by
grid search on every other shape and judged on the rest.

    /usr/bin/python3 scripts/lab/gpu_gemm_waves.py
"""
import csv
import math
import os
import statistics as st

REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "reference", "gpu",
                   "h200")
SMS, PEAK, BW = 132, 989e12, 4.8e12  # hw_specs/h200.yaml: fp16 tensor peak, HBM3e
TILES = [(256, 128), (128, 256), (128, 128), (128, 64), (64, 128), (64, 64)]


def model(m, n, k, eff, bw_eff, overhead):
    best = math.inf
    for tm, tn in TILES:
        tiles = math.ceil(m / tm) * math.ceil(n / tn)
        for s in (1, 2, 4, 8, 16):
            if s > 1 and (tiles * s > 2 * SMS or k / s < 256):
                continue
            waves = math.ceil(tiles * s / SMS)
            compute = waves * 2 * tm * tn * (k / s) / (PEAK / SMS * eff)
            traffic = 2 * (m * k + n * k + m * n) + (4 * m * n * s if s > 1 else 0)
            best = min(best, max(compute, traffic / (BW * bw_eff)) + overhead)
    return best


def main():
    rows = list(csv.DictReader(open(os.path.join(REF, "llm", "llama-3-8b", "llm_gemms.csv"))))
    rows += [r for r in csv.DictReader(open(os.path.join(REF, "torch_kernels.csv")))
             if r["op"] == "gemm" and r["dtype"] == "fp16"]
    data = [(int(r["m"]), int(r["n"]), int(r["k"]), float(r["seconds"])) for r in rows]
    fit, held = data[::2], data[1::2]

    def errors(ds, p):
        return [model(m, n, k, *p) / s - 1 for m, n, k, s in ds]
    grid = [(e, b, o) for e in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)
            for b in (0.6, 0.7, 0.8, 0.85, 0.9, 0.95) for o in (0, 2e-6, 4e-6, 6e-6, 8e-6)]
    p = min(grid, key=lambda q: st.mean(abs(x) for x in errors(fit, q)))
    e = errors(held, p)
    r = [max(2 * m * n * k / PEAK, 2 * (m * k + n * k + m * n) / BW) / s - 1
         for m, n, k, s in held]
    print(f"fitted on {len(fit)}: tensor efficiency {p[0]}, DRAM efficiency {p[1]}, "
          f"overhead {p[2] * 1e6:.0f} us")
    print(f"held out {len(held)}: median |error| {st.median(abs(x) for x in e):.1%}, "
          f"mean {st.mean(abs(x) for x in e):.1%}; roofline median |error| "
          f"{st.median(abs(x) for x in r):.1%}")


if __name__ == "__main__":
    main()
