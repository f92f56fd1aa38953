#!/usr/bin/env python3
"""Per-layer errors of `measure --format json` runs, pooled over several accuracy runs.

Usage: scripts/lab/layer_errors.py MODEL [--skip-flagged] [--by-op] DIR [DIR...]   (each DIR holds
MODEL-bN-calibrated.json, as scripts/calibration_accuracy.sh writes). Prints, per layer in summary
(>= min_layer_seconds), the median measured and predicted time over the runs, the median error
and its range, sorted by the time the layer's error costs the pass (median measured -
predicted). Shows where a systematic under- or over-prediction sits, as against one run's noise.
--skip-flagged leaves out the measurements still flagged as taken in another host state than
their calibration's; --by-op pools the layers by op and executor path (e.g. Conv im2col+gemm)
instead of by name.
"""
import glob, json, statistics, sys

flags = {a for a in sys.argv[2:] if a.startswith("--")}
model, dirs = sys.argv[1], [a for a in sys.argv[2:] if not a.startswith("--")]
runs = []
for d in dirs:
    runs += glob.glob(f"{d}/{model}-b*-calibrated.json")
if not runs:
    sys.exit(f"no {model} runs in {' '.join(dirs)}")
per = {}
order = []
used = 0
for r in runs:
    j = json.load(open(r))
    if "--skip-flagged" in flags and j["host_state"]["changed"]:
        continue
    used += 1
    for l in j["layers"]:
        if l.get("measured_seconds") is None or not l.get("in_summary"):
            continue
        key = f"{l['op']} {l['path']}" if "--by-op" in flags else l["name"]
        if key not in per:
            order.append(key)
        per.setdefault(key, []).append(
            (l["op"], l["measured_seconds"], l["predicted_seconds"], l["error"]))
rows = []
for name in order:
    v = per[name]
    meas = statistics.median(x[1] for x in v)
    pred = statistics.median(x[2] for x in v)
    errs = [x[3] for x in v]
    rows.append((meas - pred, name, v[0][0], meas, pred, statistics.median(errs), min(errs),
                 max(errs), len(v)))
print(f"{model}: {used} of {len(runs)} runs")
print(f"{'op, path' if '--by-op' in flags else 'layer':24} {'op':14} {'meas ms':>8} {'pred ms':>8} {'err':>7} {'range':>15} {'cost ms':>8}")
for d, name, op, meas, pred, med, lo, hi, n in sorted(rows, key=lambda r: -abs(r[0])):
    print(f"{name:24} {op:14} {1e3*meas:8.3f} {1e3*pred:8.3f} {100*med:+6.1f}% "
          f"{100*lo:+6.1f}..{100*hi:+5.1f}% {1e3*d:+8.3f}")
