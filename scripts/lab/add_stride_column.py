#!/usr/bin/env python3
"""Adds the strided_lowered_bytes column to a sample CSV written before it (perfmodel calibrate
--save-samples before 2026-11-25): a microbenchmark's im2col matrix (source
microbench:conv/im2col…/n<N>c<C>h<H>o<O>k<K>s<S>) counts as gathered where S > 1. Network rows
stay at 0: their convolutions are held out of the fit, never fitted.

Usage: scripts/lab/add_stride_column.py IN.csv OUT.csv
Used by scripts/lab/refit_ab.sh (STRIDE_COLUMN=1); also makes a run's samples comparable on both
sides of an A/B of two builds that both read the column.
"""
import csv
import re
import sys


def main(src, dst):
    rows = list(csv.reader(open(src)))
    if "strided_lowered_bytes" in rows[0]:
        sys.exit("add_stride_column.py: %s already has strided_lowered_bytes" % src)
    at, lowered = rows[0].index("time (s)"), rows[0].index("lowered_bytes")
    rows[0].insert(at, "strided_lowered_bytes")
    for r in rows[1:]:
        m = re.search(r"^microbench:conv/im2col[^/]*/n\d+c\d+h\d+o\d+k\d+s(\d+)(/|$)", r[-1])
        r.insert(at, r[lowered] if m and int(m.group(1)) > 1 else "0")
    csv.writer(open(dst, "w", newline=""), lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
