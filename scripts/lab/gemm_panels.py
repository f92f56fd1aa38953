#!/usr/bin/env python3
"""How well each tile rule explains BM_GemmPlane: a convolution's product by plane size.

Usage: build/bench/bench_cpu_kernels --benchmark_filter=BM_GemmPlane > OUT.txt
       scripts/lab/gemm_panels.py OUT.txt [OUT2.txt ...]

For each file: the rates at a few plane sizes, then per rule the mean and largest |error| of
time = c * tiled_rows(plane) * (plane + m_half) / plane, with c fitted (mean log ratio) and
m_half the best of a small grid (the Hockney size the calibration fits beside the tiles).
Rules: whole rows (no tile), whole tiles of 16 and 32 rows (`gemm_tiles: padded`), and Eigen's
panels of 16 rows (`gemm_tiles: panels`, tiled_extent in src/core/efficiency.cpp:
one 8-row and one 4-row panel, each as dear as a whole panel, then single rows at a quarter).
"""
import math
import re
import statistics
import sys

ROW_SHARE = 0.25  # kPanelRowShare (include/perfmodel/calibration.hpp)


def panels(m, tile=16):
    passes, rest = divmod(m, tile)
    for width in (tile // 2, tile // 4):
        if width >= 1 and rest >= width:
            passes, rest = passes + 1, rest - width
    return max(m, (passes + rest * ROW_SHARE) * tile)


def padded(m, tile):
    return math.ceil(m / tile) * tile


RULES = [("whole rows", lambda m: m), ("padded 16", lambda m: padded(m, 16)),
         ("padded 32", lambda m: padded(m, 32)), ("panels 16", panels)]


def load(path):
    rates = {}
    for line in open(path):
        hit = re.match(r"BM_GemmPlane/\d+/(\d+)/\d+/real_time\s.*FLOP/s=([\d.]+)([kMGT]?)/s", line)
        if hit:
            scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[hit.group(3)]
            rates[int(hit.group(1))] = float(hit.group(2)) * scale
    if not rates:
        sys.exit("gemm_panels.py: %s: no BM_GemmPlane rows" % path)
    return rates


def score(rates, rule):
    best = None
    for m_half in (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32):
        planes = sorted(rates)
        logs = [math.log((m / rates[m]) / (rule(m) * (m + m_half) / m)) for m in planes]
        mean = statistics.mean(logs)
        errors = [abs(math.exp(v - mean) - 1) for v in logs]
        cand = (statistics.mean(errors), max(errors), m_half)
        best = cand if best is None or cand < best else best
    return best


def main(paths):
    if not paths:
        sys.exit(__doc__)
    for path in paths:
        rates = load(path)
        shown = [m for m in (48, 49, 52, 56, 60, 63, 64, 196) if m in rates]
        print(path + ": GFLOP/s by plane " +
              " ".join("%d:%.0f" % (m, rates[m] / 1e9) for m in shown))
        for name, rule in RULES:
            mean, worst, m_half = score(rates, rule)
            print("  %-10s mean |error| %4.1f%%  max %4.1f%%  (m_half %d)" %
                  (name, 100 * mean, 100 * worst, m_half))


if __name__ == "__main__":
    main(sys.argv[1:])
