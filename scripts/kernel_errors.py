#!/usr/bin/env python3
"""Summaries behind docs/cuda.md's GPU figures.

    scripts/kernel_errors.py errors KERNELS.json...   # per op and dtype: median |error| / median
                                                      # error of `perfmodel kernels --format json`
    scripts/kernel_errors.py repeat A.csv B.csv       # two measurements of the same rows: median
                                                      # and 90th percentile of |B/A - 1| per row

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


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "errors":
        errors(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "repeat":
        repeat(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
