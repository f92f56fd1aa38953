#!/usr/bin/env python3
"""Fits one calibration's microbenchmarks again under other rules for which runs count.

Usage: scripts/lab/runs_refit.py BIN RUNS_CSV SAMPLES_CSV HW OUT_DIR [--rule NAME...]
RUNS_CSV and SAMPLES_CSV: what `calibrate --device cpu --save-runs R --save-samples S` wrote.
For each rule, every microbenchmark sample's time becomes the statistic the rule picks from the
case's runs (one per round; the network samples stay as they were), the result is written to
OUT_DIR/RULE.csv and fitted with `calibrate --from-samples ... -o OUT_DIR/RULE.yaml`. Score the
calibrations with scripts/lab/compare_predictions.py (--runs ... --calibrations OUT_DIR/*.yaml).

Rules (default: all of them):
  all          median over every run, none judged (calibrate before 2026-11-27)
  counted      median over the runs calibrate counted (its own rule: the probes on either side
               steady), every run where none counted -- reproduces the calibration's samples
  tolN         the same with the convolution judged N% under the fastest probe (tol10 = counted,
               but the FMA judgement of the probes between rounds left out)
  counted_p25  the 25th percentile over the counted runs in place of the median
  quietest     the counted runs; where none counted, the runs beside the quietest probes the
               case met (the slower of the two probes within 10% of the case's best)
"""
import csv, os, statistics, subprocess, sys
from collections import defaultdict


def quantile(v, q):
    v = sorted(v)
    if not v:
        return float("nan")
    x = q * (len(v) - 1)
    i = int(x)
    return v[i] if i + 1 >= len(v) else v[i] + (x - i) * (v[i + 1] - v[i])


def read_runs(path):
    runs = defaultdict(list)  # case -> [(counted, slower probe's conv, seconds)]
    with open(path) as f:
        rows = list(csv.DictReader(f))
    stat_col = [k for k in rows[0] if k.endswith(" (s)")][0]
    fastest = max(max(float(r["probe_before_conv (FLOP/s)"]), float(r["probe_after_conv (FLOP/s)"]))
                  for r in rows)
    for r in rows:
        slower = min(float(r["probe_before_conv (FLOP/s)"]), float(r["probe_after_conv (FLOP/s)"]))
        runs[r["case"]].append((r["counted"] == "1", slower, float(r[stat_col])))
    return runs, fastest


def pick(rule, runs, fastest):
    times = [t for _, _, t in runs]
    if rule == "all":
        return quantile(times, 0.5)
    if rule.startswith("tol"):
        bar = (1 - int(rule[3:]) / 100) * fastest
        kept = [t for _, s, t in runs if s >= bar]
        return quantile(kept or times, 0.5)
    counted = [t for c, _, t in runs if c]
    if rule == "counted":
        return quantile(counted or times, 0.5)
    if rule == "counted_p25":
        return quantile(counted or times, 0.25)
    if rule == "quietest":
        if counted:
            return quantile(counted, 0.5)
        best = max(s for _, s, _ in runs)
        return quantile([t for _, s, t in runs if s >= 0.9 * best], 0.5)
    sys.exit(f"unknown rule {rule}")


def main():
    args = sys.argv[1:]
    rules = ["all", "counted", "tol10", "tol15", "counted_p25", "quietest"]
    if "--rule" in args:
        i = args.index("--rule")
        rules = args[i + 1:]
        args = args[:i]
    if len(args) != 5:
        sys.exit(__doc__)
    binary, runs_csv, samples_csv, hw, out = args
    runs, fastest = read_runs(runs_csv)
    with open(samples_csv) as f:
        reader = csv.DictReader(f)
        header, samples = reader.fieldnames, list(reader)
    os.makedirs(out, exist_ok=True)
    for rule in rules:
        changed = 0
        rows = []
        for s in samples:
            s = dict(s)
            case = s["source"].removeprefix("microbench:")
            if s["source"].startswith("microbench:") and case in runs:
                s["time (s)"] = "%.9g" % pick(rule, runs[case], fastest)
                changed += 1
            rows.append(s)
        path = os.path.join(out, rule + ".csv")
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=header)
            w.writeheader()
            w.writerows(rows)
        subprocess.run([binary, "calibrate", "--from-samples", path, "--hw", hw, "-o",
                        os.path.join(out, rule + ".yaml")], check=True, capture_output=True)
        print(f"{rule}: {changed} microbenchmark samples re-picked -> {out}/{rule}.yaml")


if __name__ == "__main__":
    main()
