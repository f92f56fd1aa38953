#!/usr/bin/env python3
"""The held-out check of calibrations, from their logs: per calibration, the median error of
each GEMM-like class on the calibration networks' layers it was not fitted on (the
`calibrate: held out: ...` lines of `calibrate --device cpu`), and the largest |median|; then,
per class, the median of the medians over all the logs given.

Usage: scripts/lab/held_out_medians.py LOG_OR_DIR [LOG_OR_DIR...]
A DIR (as scripts/calibration_accuracy.sh writes) stands for its kept calibrations' logs: the
last calibrate-N.log (the attempt kept as HW.yaml) and every HW-K.log (HW-K.yaml).
The last line names the calibration whose largest |median| is smallest: the rule that chose
the shipped calibration/xeon-emr-2c.yaml and zen3-2c.yaml (docs/accuracy.md,
"The shipped calibration").
"""
import glob, os, re, statistics, sys

LINE = re.compile(r"held out: (\w+)/(\w+), (\d+) network layers: median error ([+-]?[\d.]+)%")


def logs_of(path):
    if not os.path.isdir(path):
        return [path]
    attempts = sorted(glob.glob(f"{path}/calibrate-*.log"),
                      key=lambda p: int(re.search(r"-(\d+)\.log$", p).group(1)))
    return attempts[-1:] + sorted(p for p in glob.glob(f"{path}/*-[0-9]*.log")
                                  if not os.path.basename(p).startswith("calibrate-"))


def main():
    if len(sys.argv) < 2:
        sys.exit(next(l for l in __doc__.splitlines() if l.startswith("Usage:")))
    rows, per_class = [], {}
    for arg in sys.argv[1:]:
        for log in logs_of(arg):
            medians = {}
            for m in LINE.finditer(open(log).read()):
                medians[m.group(1)] = float(m.group(4))
            if not medians:
                continue
            for c, v in medians.items():
                per_class.setdefault(c, []).append(v)
            rows.append((max(abs(v) for v in medians.values()), log, medians))
    if not rows:
        sys.exit("no 'held out' lines in the logs given")
    classes = sorted(per_class)
    print(f"{'calibration log':40} " + " ".join(f"{c:>10}" for c in classes) + f" {'largest':>8}")
    for worst, log, medians in rows:
        cells = " ".join(f"{medians[c]:>+9.1f}%" if c in medians else f"{'-':>10}" for c in classes)
        print(f"{log:40} {cells} {worst:>7.1f}%")
    print(f"{'median over ' + str(len(rows)) + ' calibrations':40} " +
          " ".join(f"{statistics.median(per_class[c]):>+9.1f}%" for c in classes))
    best = min(rows, key=lambda r: r[0])
    print(f"smallest largest |median|: {best[1]} ({best[0]:.1f}%)")


main()
