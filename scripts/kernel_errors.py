#!/usr/bin/env python3
"""Summaries behind docs/cuda.md's GPU figures.

    scripts/kernel_errors.py errors KERNELS.json...   # per op and dtype: median |error| / median
                                                      # error of `perfmodel kernels --format json`
    scripts/kernel_errors.py repeat A.csv B.csv       # two measurements of the same rows: median
                                                      # and 90th percentile of |B/A - 1| per row
    scripts/kernel_errors.py ratio A.csv B.csv        # the same kernels measured two ways: per op
                                                      # and dtype, B/A and each side's range

`ratio` matches rows by their shape (op, dtype and the shape columns of a measurement CSV, e.g.
NCHW against channels-last tensors from torch_gpu_kernels.py) or, in fit samples, by the case
name after `microbench:` (e.g. eager against graph-replay timing of the same plan).

`repeat` reads CSVs with a `seconds` column (torch_gpu_kernels.py) or a `time (s)` column and a
`source` column (calibrate --save-samples), matching rows by `source` where both have one that
is unique, else by position.
"""
import collections
import csv
import json
import statistics as st
import sys


def errors(paths):
    for path in paths:
        j = json.load(open(path))
        groups = collections.defaultdict(list)
        for r in j["rows"]:
            if r.get("error") is not None:
                groups[(r["op"], r.get("dtype", ""))].append(r["error"])
        print(f"{path}: MAPE {100 * j['summary']['mape']:.1f}% over "
              f"{sum(len(v) for v in groups.values())} rows")
        for (op, dtype), e in sorted(groups.items()):
            print(f"  {op} {dtype} ({len(e)}): median |error| "
                  f"{100 * st.median(abs(x) for x in e):.0f}%, median error "
                  f"{100 * st.median(e):+.0f}%")


def times(path):
    rows = list(csv.DictReader(open(path)))
    col = "seconds" if rows and "seconds" in rows[0] else "time (s)"
    keys = [r.get("source", "") for r in rows]
    by_source = len(set(keys)) == len(keys) and all(keys)
    return {(r["source"] if by_source else i): float(r[col]) for i, r in enumerate(rows)}


def repeat(a, b):
    ta, tb = times(a), times(b)
    d = sorted(abs(tb[k] / ta[k] - 1) for k in ta if k in tb)
    print(f"{len(d)} rows in both: median |B/A - 1| {100 * st.median(d):.1f}%, "
          f"90th percentile {100 * d[int(0.9 * (len(d) - 1))]:.1f}%, max {100 * d[-1]:.1f}%")


SHAPE = ["op", "dtype", "pass", "m", "n", "k", "batch", "c", "h", "w", "out_channels",
         "kernel_h", "kernel_w", "stride_h", "stride_w", "pad_h", "pad_w", "dilation_h",
         "dilation_w", "groups"]


def kernels(path):
    """{key: (op, dtype, seconds)}: a measurement CSV keyed by shape, fit samples by case."""
    out = {}
    for r in csv.DictReader(open(path)):
        if "seconds" in r:
            out[tuple(r.get(c, "") for c in SHAPE)] = (r["op"], r["dtype"], float(r["seconds"]))
        else:  # calibrate --save-samples: source "microbench:cuda/conv/fp16/n32c64…"
            case = r["source"].split(":", 1)[-1]
            out[case] = (r["op_class"], r["dtype"], float(r["time (s)"]))
    return out


def ratio(a, b):
    ka, kb = kernels(a), kernels(b)
    groups = collections.defaultdict(list)
    for k, (op, dtype, ta) in ka.items():
        if k in kb:
            groups[(op, dtype)].append((ta, kb[k][2]))
    for (op, dtype), v in sorted(groups.items()):
        r = sorted(tb / ta for ta, tb in v)
        us = lambda xs: f"{1e6 * min(xs):.3g}-{1e6 * max(xs):.3g} us"
        print(f"{op} {dtype} ({len(v)}): B/A median {st.median(r):.2f} ({r[0]:.2f}-{r[-1]:.2f}); "
              f"A {us([x for x, _ in v])}, B {us([y for _, y in v])}, "
              f"A - B {us([x - y for x, y in v])}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "errors":
        errors(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "repeat":
        repeat(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "ratio":
        ratio(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
