#!/usr/bin/env python3
"""Scores several calibrations against the same measurements (A/B on one run of the host).

Usage: scripts/compare_predictions.py BIN MEASURE_JSON CALIBRATION [CALIBRATION...]
MEASURE_JSON: `perfmodel measure --format json` output (as scripts/calibration_accuracy.sh
writes: out/X/MODEL-bN-calibrated.json). Each calibration predicts the same model and batch
(`perfmodel predict`), and is scored as measure scores: median |error| over the layers the
measurement counted in its summary (>= min_layer_seconds), and the whole pass's end-to-end error.
A change to the model is judged on the same measured passes, not on two runs of a noisy host.
"""
import json, statistics, subprocess, sys

binary, measured_file, cals = sys.argv[1], sys.argv[2], sys.argv[3:]
m = json.load(open(measured_file))
layers = {l["name"]: l for l in m["layers"]}
for cal in cals:
    p = json.loads(subprocess.run(
        [binary, "predict", "--model", m["model"], "--batch", str(m["batch"]), "--hw",
         m["hardware"], "--calibration", cal, "--format", "json"],
        check=True, capture_output=True, text=True).stdout)
    errs = []
    for l in p["layers"]:
        ml = layers.get(l["name"])
        if ml and ml.get("in_summary") and ml.get("measured_seconds"):
            errs.append(l["predicted_seconds"] / ml["measured_seconds"] - 1)
    total = p["pass"]["predicted_seconds"] if p.get("pass") else p["totals"]["predicted_seconds"]
    e2e = total / m["summary"]["measured_total_seconds"] - 1
    print(f"{m['model']:14} {cal:40} median |err| {100 * statistics.median(map(abs, errs)):5.1f}%"
          f"  e2e {100 * e2e:+6.1f}%  ({len(errs)} layers)")
