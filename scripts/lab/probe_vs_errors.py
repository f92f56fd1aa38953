#!/usr/bin/env python3
"""How the host probes go with the errors of saved measurements (experiments behind
docs/measure.md, "Host state": `measure` neither scales a prediction by a probe nor judges the
DRAM figure).

Usage: scripts/lab/probe_vs_errors.py [--bin BIN] RUN_DIR...
RUN_DIR: as scripts/calibration_accuracy.sh writes (MODEL-bN-calibrated.json). For every
measurement, s = the calibration's convolution probe / the measurement's (the faster of its two
probes, as `measure` judges). Prints the scores as measured (median |error| over the summary's
layers / end-to-end error) and with every layer's prediction and the pass excess multiplied by
s, the targets met (median <= 10%, end to end within 5%) both ways, and per model how constant
measured pass time x convolution probe is across the runs (its spread around the median):
how well the probe alone tracks the host's speed. Last, over the measurements not flagged, how
many would a tolerance on the DRAM figure's drift flag (either probe beyond it), and how many of
those missed the end-to-end target. With --bin (a perfmodel binary), also per model how constant
predicted pass time x the calibration's convolution probe is over the runs' calibrations
(RUN_DIR/zen5-2c*.yaml, each predicting the model at the measurements' batch): how well a
calibration tracks the state its probe read.
"""
import glob, json, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_predictions import host_state, met, pass_seconds, predict, probes  # noqa: E402


def scores(m, s):
    """(median |error|, end-to-end error) with every prediction multiplied by s."""
    errs = [abs(s * l["predicted_seconds"] / l["measured_seconds"] - 1)
            for l in m["layers"] if l["in_summary"]]
    t = m["summary"]
    return statistics.median(errs), s * t["predicted_total_seconds"] / t["measured_total_seconds"] - 1


def spread(label, products):
    """How far the products lie from their median: the range and how many within 3%."""
    med = statistics.median(products)
    dev = sorted(100 * (x / med - 1) for x in products)
    return (f"{label}: {dev[0]:+.1f}..{dev[-1]:+.1f}% around its median, "
            f"{sum(abs(x) <= 3 for x in dev)} of {len(dev)} within 3%")


def calibration_products(binary, runs, measured):
    """Per model (measured: model -> (batch, hardware)), predicted pass time x the
    calibration's convolution probe, one per calibration of the runs."""
    cals = [c for d in runs for c in sorted(glob.glob(f"{d}/zen5-2c*.yaml"))
            if host_state(c).get("conv_flops_per_second")]
    for model, (batch, hw) in sorted(measured.items()):
        products = [pass_seconds(predict(binary, model, batch, hw, c)) *
                    host_state(c)["conv_flops_per_second"] for c in cals]
        print(f"{model:13} " + spread("predicted time x the calibration's conv probe", products))


def main(args):
    binary = args[args.index("--bin") + 1] if "--bin" in args else None
    runs = [a for i, a in enumerate(args) if a != "--bin" and (i == 0 or args[i - 1] != "--bin")]
    batches = {}
    hits = {"as measured": 0, "scaled": 0}
    n = 0
    product = {}
    dram = []  # (larger |DRAM drift| of the two probes, missed end to end) of unflagged ones
    for d in runs:
        for f in sorted(glob.glob(f"{d}/*-calibrated.json")):
            m = json.load(open(f))
            h = m["host_state"]
            taken = probes(m)  # the conv figure of each: the faster of the two
            conv = taken[0].get("conv_flops_per_second", 0) if taken else 0
            ref = h["reference"] and h["reference"].get("conv_flops_per_second", 0)
            if not conv or not ref:
                continue
            s = ref / conv
            line = f"{d:14} {m['model']:13} s {s:5.3f}"
            for name, scale in (("as measured", 1.0), ("scaled", s)):
                med, e2e = scores(m, scale)
                hits[name] += met(med, e2e)
                line += f"   {name} {100 * med:5.1f}% / {100 * e2e:+6.1f}%"
            print(line + ("  (flagged)" if h["changed"] else ""))
            if not h["changed"]:
                drifts = [abs(h[k]["memory"]) for k in ("drift_before", "drift_after") if h[k]]
                dram.append((max(drifts), abs(m["summary"]["end_to_end_error"]) > 0.05))
            n += 1
            product.setdefault(m["model"], []).append(
                m["summary"]["measured_total_seconds"] * conv)
            batches[m["model"]] = (m["batch"], m["hardware"])
    print(f"{n} measurements; targets met out of {2 * n}: "
          + ", ".join(f"{k} {v}" for k, v in hits.items()))
    for model, v in product.items():
        print(f"{model:13} " + spread("measured time x conv probe", v))
    if binary:
        calibration_products(binary, runs, batches)
    print(f"{len(dram)} measurements not flagged, {sum(x for _, x in dram)} missed end to end")
    for tol in (0.15, 0.25, 0.35, 0.5):
        flagged = [x for d, x in dram if d > tol]
        print(f"a DRAM tolerance of {100 * tol:.0f}% would flag {len(flagged)}, "
              f"{sum(flagged)} of them misses")


if __name__ == "__main__":
    main(sys.argv[1:])
