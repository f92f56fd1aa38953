#!/usr/bin/env python3
"""Calibrations taken in the host's slow spells, and what they predicted (the figures behind
`steady_probes` in perfmodel/host_state.hpp and docs/calibration.md, "Which runs count").

Usage: scripts/lab/spell_calibrations.py [--split GFLOPS] [--quiet GFLOPS] RUN_DIR...
RUN_DIR: as scripts/calibration_accuracy.sh writes. Reads
- every calibrate log in it (calibrate-N.log, HW-N.log): the convolution figure of each host
  probe, and prints per log its fastest probe, and over all logs the range of those;
- every measurement (MODEL-bN-attempt-K.json) with the calibration it was predicted with (the
  file named in it; the shipped one as well): the calibration's host_state convolution figure
  (the median of its steady probes) and its conv class's fitted peak.
Calibrations are split at --split (default 178 GFLOP/s) by that host_state figure; prints each
side's count and fitted conv peak range, then, over the measurements whose faster convolution
probe read at least --quiet (default 180 GFLOP/s: the quiet host), each side's end-to-end
errors: how many, their range and median, and how many within 5% (issue 4's target).
"""
import glob, json, os, re, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_predictions import host_state, probes  # noqa: E402

PROBES = re.compile(r"core round trip s(?:; \(x\): disturbed)?\): (.*)$", re.M)
CONV_PEAK = re.compile(r"op_class: conv\n\s+dtype: fp32\n\s+peak_flops_per_second: (\S+)")


def probe_convs(log):
    """The convolution figure (GFLOP/s) of each host probe a calibrate log lists."""
    m = PROBES.search(open(log).read())
    if not m:
        return []
    return [float(p.split("/")[3].split()[0]) / 1e9 for p in m.group(1).split(", ")]


def conv_peak(cal):
    m = CONV_PEAK.search(open(cal).read())
    return float(m.group(1)) / 1e9 if m else None


def main(argv):
    split, quiet, runs = 178.0, 180.0, []
    while argv:
        a = argv.pop(0)
        if a in ("--split", "--quiet"):
            if not argv:
                sys.exit(f"{a} needs a value in GFLOP/s")
            v = float(argv.pop(0))
            split, quiet = (v, quiet) if a == "--split" else (split, v)
        else:
            runs.append(a)
    if not runs:
        sys.exit(__doc__)
    logs = [f for r in runs for f in sorted(glob.glob(os.path.join(r, "*.log")))]
    fastest = []
    for log in logs:
        convs = probe_convs(log)
        if convs:
            fastest.append(max(convs))
            print(f"{log}: {len(convs)} probes, conv {min(convs):.0f}-{max(convs):.0f} GFLOP/s, "
                  f"median {statistics.median(convs):.0f}")
    if fastest:
        print(f"{len(fastest)} calibration logs; their fastest probes {min(fastest):.0f}-"
              f"{max(fastest):.0f} GFLOP/s")
    cals, errors = {}, {True: [], False: []}
    for r in runs:
        for f in sorted(glob.glob(os.path.join(r, "*-attempt-*.json"))):
            m = json.load(open(f))
            cal = m.get("calibration")
            if not cal or not os.path.exists(cal):
                continue
            state = host_state(cal).get("conv_flops_per_second", 0) / 1e9
            if not state:
                continue
            cals[cal] = (state, conv_peak(cal))
            now = max((p.get("conv_flops_per_second", 0) for p in probes(m)), default=0) / 1e9
            if now >= quiet:
                errors[state < split].append(100 * m["summary"]["end_to_end_error"])
    for low in (True, False):
        side = [c for c in cals.values() if (c[0] < split) == low]
        peaks = [p for _, p in side if p]
        name = f"host_state conv {'<' if low else '>='} {split:g} GFLOP/s"
        print(f"{name}: {len(side)} calibrations" +
              (f", conv peak {min(peaks):.0f}-{max(peaks):.0f} GFLOP/s" if peaks else ""))
        e = errors[low]
        if e:
            print(f"  measured at conv >= {quiet:g}: {len(e)} end to end {min(e):+.1f}.."
                  f"{max(e):+.1f}%, median {statistics.median(e):+.1f}%, "
                  f"{sum(abs(x) <= 5 for x in e)} within 5%")


if __name__ == "__main__":
    main(sys.argv[1:])
