#!/usr/bin/env python3
"""Held-out accuracy of the GPU model on the two shared ResNet-50 V100 traces (docs/accuracy.md,
"GPU target: the shared ResNet-50 V100 traces").

The traces (shared/traces/resnet50_v100_num_workers_{0,4}.pt.trace.json.gz) are two runs
of one workload: ResNet-50 training at batch 32, fp32, on one V100. Two held-out checks:

- across runs: fit on one trace (`calibrate --from-trace A --hw v100`), predict the other's
  per-operator device times (`trace B --hw v100 --calibration FIT --view attainment`), both
  ways. The shapes are the same in both runs, so this holds out the run, not the shapes.
- across shapes and runs: the operator signatures (name and recorded input shapes) are split
  in two by the CRC-32 of the signature; the kernels of the odd half are removed from one trace
  (the operators keep their host events but no longer have device time, so calibrate does not
  take them), the model is fitted on what remains and predicts the odd half of the other trace,
  both ways.

- across models (shapes) on the H200: fit on reference/gpu/h200's ResNet-50 fp32 training
  trace, predict MobileNetV2's and VGG-16's (PyTorch 2 records a convolution's backward as one
  operator, so these traces have no backward convolution rows); the same for the AMP
  (fp16 channels-last) traces (--amp-only: that table alone).

Per class (GEMM, conv fwd / bwd-data / bwd-filter, elementwise, norm, pool) the median and
mean |error| of each operator signature's predicted device time against the measured one:
the roofline, the calibration of `--before` (a perfmodel build of the model before this
change, fitted the same way: omitted without it) and this build's.

    /usr/bin/python3 scripts/gpu_trace_heldout.py [--perfmodel build/perfmodel]
        [--before OTHER/build/perfmodel] [--traces DIR] [--keep DIR] [--amp-only]

With --ship, fits this build on both traces and writes calibration/v100-resnet50-trace.yaml
and the samples it was fitted on beside it (calibration/v100-resnet50-trace-samples.csv, a
fit-sample CSV: `calibrate --from-samples` refits it without the traces).
"""
import argparse
import gzip
import json
import os
import statistics as st
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = ["resnet50_v100_num_workers_0.pt.trace.json.gz",
         "resnet50_v100_num_workers_4.pt.trace.json.gz"]
CLASSES = ["GEMM", "conv fwd", "conv bwd-data", "conv bwd-filter", "elementwise", "norm",
           "pool"]


def op_class(op):
    """The class of an attainment row's `op` ("conv2d bwd_data", "relu fwd", ...)."""
    kind, part = op.rsplit(" ", 1)
    if kind == "conv2d":
        return {"fwd": "conv fwd", "bwd_data": "conv bwd-data",
                "bwd_weight": "conv bwd-filter"}.get(part)
    if kind in ("linear", "matmul"):
        return "GEMM"
    if kind in ("relu", "add", "mul"):
        return "elementwise"
    if kind in ("batchnorm", "softmax", "layer_norm"):
        return "norm"
    if kind in ("maxpool", "avgpool", "global_avgpool"):
        return "pool"
    return None


def signature(name, shapes):
    return f"{name} {shapes}"


def held_out(sig):
    return zlib.crc32(sig.encode()) % 2 == 1


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p.stdout


def fit(perfmodel, traces, out, hw="v100", samples=None):
    run([perfmodel, "calibrate", "--from-trace", *traces, "--hw", hw, "-o", out]
        + (["--save-samples", samples] if samples else []))


def attainment(perfmodel, trace, calibration, hw="v100"):
    cmd = [perfmodel, "trace", trace, "--hw", hw, "--view", "attainment", "--top", "0",
           "--format", "json"]
    if calibration:
        cmd += ["--calibration", calibration]
    return json.loads(run(cmd))["attainment"]


def without(trace, out, drop):
    """Writes `trace` to `out` without the device events launched inside the operators whose
    signature `drop(sig)` holds (by the runtime calls inside their span on their thread)."""
    with gzip.open(trace, "rt") as f:
        d = json.load(f)
    ev = d["traceEvents"]
    spans = {}
    for e in ev:
        if e.get("cat") in ("Operator", "cpu_op") and e.get("ph") == "X":
            dims = e.get("args", {}).get("Input dims") or e.get("args", {}).get("Input Dims")
            if dims is None:
                continue
            shapes = ", ".join("x".join(str(x) for x in d_) for d_ in dims
                               if isinstance(d_, list) and d_ and
                               all(isinstance(x, int) for x in d_))
            if drop(signature(e["name"], shapes)):
                spans.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
    corr = set()
    for e in ev:
        if e.get("cat") in ("Runtime", "cuda_runtime") and e.get("ph") == "X":
            for a, b in spans.get((e["pid"], e["tid"]), []):
                if a <= e["ts"] and e["ts"] + e["dur"] <= b:
                    corr.add(e["args"].get("correlation"))
                    break
    d["traceEvents"] = [e for e in ev if not (
        e.get("cat") in ("Kernel", "kernel", "Memcpy", "gpu_memcpy", "Memset", "gpu_memset")
        and e.get("args", {}).get("correlation") in corr)]
    with gzip.open(out, "wt") as f:
        json.dump(d, f)


def errors(rows, model, keep):
    """|error| per class of the rows `keep` selects: `model` names the predicted column."""
    per = {c: [] for c in CLASSES}
    for r in rows:
        c = op_class(r["op"])
        if c is None or not keep(signature(r["name"], r["shapes"])) or r["device_seconds"] <= 0:
            continue
        per[c].append(abs(r[model] / r["device_seconds"] - 1))
    return per


def table(title, columns):
    """columns: [(name, {class: [errors]})]"""
    print(f"\n{title}")
    print("| class | operators | " + " | ".join(n + " median / mean" for n, _ in columns) + " |")
    print("|---|---|" + "---|" * len(columns))
    for c in CLASSES + ["all"]:
        cells, count = [], 0
        for _, per in columns:
            e = sum(per.values(), []) if c == "all" else per[c]
            count = len(e)
            cells.append(f"{st.median(e):.1%} / {st.mean(e):.1%}" if e else "-")
        print(f"| {c} | {count} | " + " | ".join(cells) + " |")


def merge(a, b):
    return {c: a[c] + b[c] for c in CLASSES}


def across_models(a, builds, order, work, precision, title):
    """Across models on the H200 (reference/gpu/h200/traces): fit on ResNet-50's training step
    of `precision` (fp32, or amp: fp16 channels-last), predict MobileNetV2's and VGG-16's
    (other shapes: MobileNetV2's narrow channels)."""
    h200 = os.path.join(ROOT, "reference", "gpu", "h200", "traces")
    models = {}
    cals = {}
    for name, exe in builds:
        cals[name] = os.path.join(work, f"{name}-h200-resnet50-{precision}.yaml")
        fit(exe, [os.path.join(h200, f"resnet50_train_b32_{precision}.pt.trace.json.gz")],
            cals[name], "h200")
    for m in ("mobilenet_v2", "vgg16"):
        t = os.path.join(h200, f"{m}_train_b32_{precision}.pt.trace.json.gz")
        per = {"roofline": errors(attainment(a.perfmodel, t, None, "h200"), "roofline_seconds",
                                  lambda s: True)}
        for name, exe in builds:
            per[name] = errors(attainment(exe, t, cals[name], "h200"), "calibrated_seconds",
                               lambda s: True)
        for k, v in per.items():
            models[k] = v if k not in models else merge(models[k], v)
    table(title, [(n, models[n]) for n in order])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--perfmodel", default=os.path.join(ROOT, "build", "perfmodel"))
    ap.add_argument("--before", help="a perfmodel build of the model before (its own fit)")
    ap.add_argument("--traces", default=os.path.join(ROOT, "..", "shared", "traces"),
                    help="the folder of the shared traces (default: shared/traces beside the repository)")
    ap.add_argument("--keep", help="write the fits and reduced traces to this folder")
    ap.add_argument("--ship", action="store_true",
                    help="fit on both traces: calibration/v100-resnet50-trace.yaml")
    ap.add_argument("--amp-only", action="store_true",
                    help="print only the H200 AMP across-models table")
    a = ap.parse_args()
    traces = [os.path.join(a.traces, n) for n in NAMES]
    if a.ship:
        out = os.path.join(ROOT, "calibration", "v100-resnet50-trace.yaml")
        samples = os.path.join(ROOT, "calibration", "v100-resnet50-trace-samples.csv")
        rel = [os.path.join("/work/shared/traces", n) for n in NAMES]
        fit(a.perfmodel, traces, out, samples=samples)
        shared = a.traces.rstrip("/") + "/"
        with open(samples) as f:
            text = f.read()
        with open(samples, "w") as f:
            f.write(text.replace(shared, "/work/shared/traces/"))
        with open(out) as f:
            text = f.read()
        note = ("# The GPU target (docs/gpu_model.md) fitted on both shared ResNet-50 V100 training\n"
                "# traces (batch 32, fp32; two runs of one workload): one sample per operator\n"
                "# signature of each trace's attainment view (docs/trace.md); written with its\n"
                "# samples by `/usr/bin/python3 scripts/gpu_trace_heldout.py --ship`. Refit with\n"
                "#   perfmodel calibrate --from-trace " + " ".join(rel) + " --hw v100 -o FILE\n"
                "# or, without the traces, from the samples beside this file:\n"
                "#   perfmodel calibrate --from-samples calibration/v100-resnet50-trace-samples.csv"
                " --hw v100 -o FILE\n"
                "# Held-out accuracy (fitted on one trace or on half the shapes): docs/accuracy.md.\n")
        with open(out, "w") as f:
            f.write(note + text.replace(shared, "/work/shared/traces/"))
        return
    work = a.keep or tempfile.mkdtemp(prefix="gpu_trace_heldout_")
    os.makedirs(work, exist_ok=True)
    builds = [("after", a.perfmodel)] + ([("before", a.before)] if a.before else [])
    if a.amp_only:
        order = ["roofline"] + [n for n, _ in reversed(builds)]
        across_models(a, builds, order, work, "amp",
                      "AMP across models on the H200 (fit on ResNet-50's AMP channels-last "
                      "training trace, predict MobileNetV2's and VGG-16's):")
        return

    # Across runs: fit on one trace, predict the other (both ways).
    runs = {"roofline": None}
    for i in (0, 1):
        fitted, other = traces[i], traces[1 - i]
        cals = {}
        for name, exe in builds:
            cals[name] = os.path.join(work, f"{name}-fit{i}.yaml")
            fit(exe, [fitted], cals[name])
        rows = attainment(a.perfmodel, other, None)
        per = {"roofline": errors(rows, "roofline_seconds", lambda s: True)}
        for name, exe in builds:
            per[name] = errors(attainment(exe, other, cals[name]), "calibrated_seconds",
                               lambda s: True)
        for k, v in per.items():
            runs[k] = v if runs.get(k) is None else merge(runs[k], v)
    order = ["roofline"] + [n for n in ("before", "after") if n in runs]
    table("Across runs (fit on one trace, predict the other; both ways, each signature twice):",
          [(n, runs[n]) for n in order])

    # Across shapes and runs: fit on the even half of the signatures of one trace, predict the
    # odd half of the other (both ways).
    shapes = {}
    for i in (0, 1):
        reduced = os.path.join(work, f"even-half-{i}.pt.trace.json.gz")
        without(traces[i], reduced, held_out)
        other = traces[1 - i]
        per = {"roofline": errors(attainment(a.perfmodel, other, None), "roofline_seconds",
                                  held_out)}
        for name, exe in builds:
            cal = os.path.join(work, f"{name}-even-half-{i}.yaml")
            fit(exe, [reduced], cal)
            per[name] = errors(attainment(exe, other, cal), "calibrated_seconds", held_out)
        for k, v in per.items():
            shapes[k] = v if k not in shapes else merge(shapes[k], v)
    table("Across shapes and runs (fit on the signatures of one trace whose CRC-32 is even, "
          "predict the odd ones of the other; both ways):", [(n, shapes[n]) for n in order])
    across_models(a, builds, order, work, "fp32",
                  "Across models on the H200 (fit on ResNet-50's fp32 training trace, predict "
                  "MobileNetV2's and VGG-16's):")
    across_models(a, builds, order, work, "amp",
                  "AMP across models on the H200 (fit on ResNet-50's AMP channels-last training "
                  "trace, predict MobileNetV2's and VGG-16's):")
    print(f"\n(work files: {work})")


if __name__ == "__main__":
    main()
