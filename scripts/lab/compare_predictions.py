#!/usr/bin/env python3
"""Scores several calibrations against the same measurements (A/B on one run of the host).

Usage: scripts/lab/compare_predictions.py BIN MEASURE_JSON CALIBRATION [CALIBRATION...] [--keep DIR]
MEASURE_JSON: `perfmodel measure --format json` output (as scripts/calibration_accuracy.sh
writes: out/X/MODEL-bN-calibrated.json). Each calibration predicts the same model and batch
(`perfmodel predict`), and is scored as measure scores: median |error| over the layers the
measurement counted in its summary (>= min_layer_seconds), and the whole pass's end-to-end error.
A change to the model is judged on the same measured passes, not on two runs of a noisy host.
--keep DIR also writes the measurement with each calibration's predictions in place of its own
(each layer's predicted_seconds and error, the summary's median and end-to-end error) to
DIR/MEASURE_JSON's file name, `{cal}` in DIR standing for the calibration's file name without
.yaml: for the per-layer scripts (scripts/lab/layer_errors.py) to read.

       scripts/lab/compare_predictions.py BIN --runs RUN_DIR... --calibrations CAL... \
           [--max-cross-core BYTES_PER_S] [--min-cross-core BYTES_PER_S] [--same-state]
Tallies every calibration over every measurement of the runs' directories (their
MODEL-bN-calibrated.json), leaving out measurements flagged as taken in another host state and,
with --max-cross-core, those whose cross-core probe read more than that before or after the
passes (another placement of the vCPUs: 128-146 GB/s in one core complex on the 2-core VM
against about 60 in two), and with --min-cross-core those whose probe read less (the other
placement). With --same-state, each calibration is scored only on the
measurements whose probes lie within the tolerances `measure` judges by (from the measurement's
JSON) of that calibration's own host_state, the faster convolution probe standing for both
(as perfmodel/host_state.hpp's measurement_changed): how it predicts the state it was taken in.
Prints per calibration the targets met (median <= 10%, end to end within 5%) and the mean
median and end-to-end errors, best first, and the targets the same measurements met with the
predictions their own runs made: how a calibration does on measurements it did not make.

       scripts/lab/compare_predictions.py BIN --runs RUN_DIR... --calibrations CAL... --nearest \
           [--exclude-own]
Scores each measurement with the one calibration of the pool whose host_state its probe
drifted least from, as `measure` chooses among several (perfmodel/host_state.hpp's
nearest_state: the probe before the passes, its convolution figure the faster of the two
probes'), and prints one line per measurement and the targets met, beside those of the
measurement's own prediction. --exclude-own leaves out of each measurement's pool the
calibrations in its own run's directory: how a set of calibrations taken earlier (shipped)
would do against a fresh one.
"""
import copy, glob, json, os, re, statistics, subprocess, sys


def predict(binary, model, batch, hw, cal):
    """`perfmodel predict --format json` of the model with calibration `cal`."""
    return json.loads(subprocess.run(
        [binary, "predict", "--model", model, "--batch", str(batch), "--hw", hw,
         "--calibration", cal, "--format", "json"],
        check=True, capture_output=True, text=True).stdout)


def pass_seconds(p):
    """A prediction's whole-pass time (its layers' sum and the pass excess)."""
    return p["pass"]["predicted_seconds"] if p.get("pass") else p["totals"]["predicted_seconds"]


def rescored(binary, m, cal):
    """Measurement m with calibration `cal`'s predictions in place of its own: each layer's
    predicted_seconds and error, and the summary's median |error| (layers in summary) and
    end-to-end error. Returns (the copy, the layers the median counts)."""
    p = predict(binary, m["model"], m["batch"], m["hardware"], cal)
    pred = {l["name"]: l["predicted_seconds"] for l in p["layers"]}
    out = copy.deepcopy(m)
    errs = []
    for l in out["layers"]:
        if l["name"] not in pred:
            continue
        l["predicted_seconds"] = pred[l["name"]]
        if l.get("measured_seconds"):
            l["error"] = pred[l["name"]] / l["measured_seconds"] - 1
            if l.get("in_summary"):
                errs.append(l["error"])
    out["summary"]["median_abs_error"] = statistics.median(map(abs, errs))
    out["summary"]["end_to_end_error"] = pass_seconds(p) / m["summary"]["measured_total_seconds"] - 1
    return out, len(errs)


def score(binary, m, cal):
    """(median |error|, end-to-end error, layers) of calibration `cal` on measurement `m`."""
    r, n = rescored(binary, m, cal)
    return r["summary"]["median_abs_error"], r["summary"]["end_to_end_error"], n


def host_state(cal):
    """The calibration file's host_state figures ({} when it has none)."""
    m = re.search(r"^host_state: \{(.*)\}$", open(cal).read(), re.M)
    if not m:
        return {}
    return {k.strip(): float(v) for k, v in (kv.split(":") for kv in m.group(1).split(","))}


def probes(m):
    """Measurement m's probes (before, then after the passes; those it took), each with the
    convolution figure of the faster of the two (with_faster_conv)."""
    h = m["host_state"]
    taken = [dict(h[k]) for k in ("before", "after") if h[k]]
    faster = max((p.get("conv_flops_per_second", 0) for p in taken), default=0)
    for p in taken:
        p["conv_flops_per_second"] = faster
    return taken


def severity(m, ref, probe):
    """The largest of the probe's drifts from state `ref`, each over the tolerance measurement
    m was judged by (HostDrift::severity): above 1, beyond tolerance."""
    h = m["host_state"]
    def drift(figure):
        r, v = ref.get(figure, 0), probe.get(figure, 0)
        return abs(v / r - 1) if r > 0 and v > 0 else 0.0
    return max(drift("fp32_flops_per_second") / h["compute_tolerance"],
               drift("cross_core_bytes_per_second") / h["cross_core_tolerance"],
               drift("conv_flops_per_second") / h.get("conv_tolerance", 0.10))


def same_state(m, ref):
    """Whether measurement m's probes are within its tolerances of the state `ref`."""
    taken = probes(m)
    return bool(ref) and bool(taken) and all(severity(m, ref, p) <= 1 for p in taken)


def nearest(m, cals, states):
    """The calibration of `cals` whose state m's first probe drifted least from (the first of
    equals; a calibration without a state is never preferred to one with)."""
    probe = probes(m)[0]
    return min(cals, key=lambda c: (not states[c], severity(m, states[c], probe)
                                    if states[c] else 0))


def met(med, e2e):
    return (med <= 0.10) + (abs(e2e) <= 0.05)


def one_measurement(binary, measured_file, args):
    keep = args[args.index("--keep") + 1] if "--keep" in args else None
    cals = [a for i, a in enumerate(args) if a != "--keep" and (i == 0 or args[i - 1] != "--keep")]
    m = json.load(open(measured_file))
    for cal in cals:
        r, n = rescored(binary, m, cal)
        med, e2e = r["summary"]["median_abs_error"], r["summary"]["end_to_end_error"]
        print(f"{m['model']:14} {cal:40} median |err| {100 * med:5.1f}%"
              f"  e2e {100 * e2e:+6.1f}%  ({n} layers)")
        if keep:
            out = keep.replace("{cal}", os.path.basename(cal).removesuffix(".yaml"))
            os.makedirs(out, exist_ok=True)
            json.dump(r, open(os.path.join(out, os.path.basename(measured_file)), "w"), indent=1)


def tally_nearest(binary, measured, cals, exclude_own):
    """--nearest: each measurement scored with the nearest calibration of the pool."""
    states = {c: host_state(c) for c in cals}
    own_met = pool_met = scored = 0
    for d, m in measured:
        pool = [c for c in cals if not (exclude_own and c.startswith(d.rstrip("/") + "/"))]
        if not pool or not probes(m):  # nothing to choose from, or no probe to choose by
            continue
        cal = nearest(m, pool, states)
        med, e2e, _ = score(binary, m, cal)
        scored += 1
        s = m["summary"]
        own_met += met(s["median_abs_error"], s["end_to_end_error"])
        pool_met += met(med, e2e)
        print(f"{d:14} {m['model']:13} own {100 * s['median_abs_error']:5.1f}% / "
              f"{100 * s['end_to_end_error']:+6.1f}%   nearest {100 * med:5.1f}% / "
              f"{100 * e2e:+6.1f}%  {cal} (severity {severity(m, states[cal], probes(m)[0]):.2f})")
    print(f"{scored} measurements; targets met out of {2 * scored}: "
          f"own calibration {own_met}, nearest of the pool {pool_met}")


def tally(binary, args):
    def values(flag):
        i = args.index(flag) + 1
        out = []
        while i < len(args) and not args[i].startswith("--"):
            out.append(args[i])
            i += 1
        return out
    runs, cals = values("--runs"), values("--calibrations")
    def limit(flag, default):
        return float(values(flag)[0]) if flag in args else default
    max_cross, min_cross = limit("--max-cross-core", float("inf")), limit("--min-cross-core", 0)
    measured = []
    for d in runs:
        for f in sorted(glob.glob(f"{d}/*-calibrated.json")):
            m = json.load(open(f))
            h = m["host_state"]
            if h.get("changed"):
                continue
            if any(h[k] and not min_cross <= h[k]["cross_core_bytes_per_second"] <= max_cross
                   for k in ("before", "after")):
                continue
            measured.append((d, m))
    if "--nearest" in args:
        return tally_nearest(binary, measured, cals, "--exclude-own" in args)
    measured = [m for _, m in measured]
    same = "--same-state" in args
    rows = []
    for cal in cals:
        meds, e2es = [], []
        own = 0  # targets the same measurements met with their own runs' predictions
        ref = host_state(cal) if same else None
        for m in (x for x in measured if not same or same_state(x, ref)):
            med, e2e, _ = score(binary, m, cal)
            meds.append(med)
            e2es.append(e2e)
            own += met(m["summary"]["median_abs_error"], m["summary"]["end_to_end_error"])
        rows.append((sum(met(x, y) for x, y in zip(meds, e2es)), cal, meds, e2es, own))
    print(f"{len(measured)} measurements; targets met out of {2 * len(measured)}"
          + (", of twice the measurements in each calibration's state" if same else ""))
    # best first: the larger share of targets met (the same measurements for all without
    # --same-state), then the more measurements
    for hits, cal, meds, e2es, own in sorted(rows, key=lambda r: (-r[0] / max(len(r[2]), 1),
                                                                 -len(r[2]))):
        if not meds:
            print(f"{cal:45}    -  no measurement in its state")
            continue
        print(f"{cal:45} {hits:4}/{2 * len(meds):<3} mean median {100 * statistics.mean(meds):5.1f}%"
              f"  mean |e2e| {100 * statistics.mean(map(abs, e2es)):5.1f}%"
              f"  mean e2e {100 * statistics.mean(e2es):+5.1f}%  (their own predictions: {own})")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "--runs":
        tally(sys.argv[1], sys.argv[2:])
    else:
        one_measurement(sys.argv[1], sys.argv[2], sys.argv[3:])
