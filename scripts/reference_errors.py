#!/usr/bin/env python3
"""Whole-model predictions against a GPU's reference measurements (reference/gpu/<gpu>/): for
every traced case (model, pass, batch, precision), perfmodel's predicted time against the GPU
time per step of its profiler trace (the overview's average Kernel + Memcpy + Memset, the time
the GPU was busy), and the predicted energy against the NVML energy per step (energy.csv).

    python3 scripts/reference_errors.py reference/gpu/h200 --hw h200 [--calibration C]

Cases map to `perfmodel predict --model <model> --batch <batch> --pass train|fwd --dtype
fp32|fp16` (AMP cases as fp16: its convolutions and GEMMs run in fp16; its batch norms stay in
fp32, which the prediction does not follow). Predicted energy is `energy_power_time_joules`
(the power model over the predicted time), measured energy NVML's over the whole step (the GPU
idles between kernels too, which the prediction does not hold).
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run_json(perfmodel, args):
    out = subprocess.run([perfmodel] + args + ["--format", "json"], capture_output=True,
                         text=True)
    if out.returncode != 0:
        sys.exit(f"reference_errors: perfmodel {' '.join(args)}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference", help="a reference/gpu/<gpu> folder")
    ap.add_argument("--hw", required=True)
    ap.add_argument("--calibration")
    ap.add_argument("--perfmodel", default=os.path.join(HERE, "..", "build", "perfmodel"))
    a = ap.parse_args()
    energy = {}
    path = os.path.join(a.reference, "energy.csv")
    if os.path.exists(path):
        energy = {r["case"]: r for r in csv.DictReader(open(path))}
    cases = list(csv.DictReader(open(os.path.join(a.reference, "traces", "traces.csv"))))
    print(f"{'case':30s} {'GPU ms':>8s} {'pred ms':>8s} {'error':>7s} {'NVML J':>8s} "
          f"{'pred J':>8s} {'error':>7s}")
    t_err, e_err = [], []
    for c in cases:
        trace = os.path.join(a.reference, "traces", c["case"] + ".pt.trace.json.gz")
        o = run_json(a.perfmodel, ["trace", trace, "--view", "overview"])["overview"]["average"]
        gpu = o["kernel"] + o["memcpy"] + o["memset"]
        args = ["predict", "--hw", a.hw, "--model", c["model"], "--batch", c["batch"],
                "--pass", "train" if c["pass"] == "train" else "fwd",
                "--dtype", "fp32" if c["precision"] == "fp32" else "fp16"]
        if a.calibration:
            args += ["--calibration", a.calibration]
        t = run_json(a.perfmodel, args)["totals"]
        te = t["predicted_seconds"] / gpu - 1
        t_err.append(te)
        line = f"{c['case']:30s} {gpu * 1e3:8.2f} {t['predicted_seconds'] * 1e3:8.2f} {te:+7.1%}"
        if c["case"] in energy:
            mj = float(energy[c["case"]]["joules_per_step"])
            pj = t["energy_power_time_joules"]
            e_err.append(pj / mj - 1)
            line += f" {mj:8.2f} {pj:8.2f} {pj / mj - 1:+7.1%}"
        print(line)

    def summary(name, errs):
        if errs:
            print(f"{name}: median |error| {statistics.median(abs(e) for e in errs):.1%}, "
                  f"median error {statistics.median(errs):+.1%}, "
                  f"mean |error| {statistics.mean(abs(e) for e in errs):.1%} over {len(errs)}")
    summary("time", t_err)
    summary("energy", e_err)


if __name__ == "__main__":
    main()
