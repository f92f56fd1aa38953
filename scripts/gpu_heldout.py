#!/usr/bin/env python3
"""Held-out accuracy of the GPU model on the H200's measured kernels (docs/accuracy.md,
"GPU target: held-out H200 kernels").

The kernels are every row of reference/gpu/h200's PyTorch files, in both layouts, each with
the measurement CSV's `layout` column set from its file: torch_kernels.csv (GEMMs; forward
convolutions on NCHW tensors, fp32, tf32 and fp16) and torch_kernels_cl.csv (the same
convolutions channels-last), torch_kernels_bwd.csv (backward-data and backward-filter, fp32
NCHW) and torch_kernels_bwd_cl.csv (fp16 channels-last), and the GEMMs of both Llama decoders
(llm/*/llm_gemms.csv). A shape (its sizes, not its dtype, pass or layout) is held out when the
CRC-32 of its sizes is odd: every dtype, pass and layout of it is then predicted by calibrations
fitted on the other shapes only. Predictions per held-out kernel: the roofline, the efficiency
model fitted as before the GPU target (`--target generic`), with --before the GPU target of
another build (one without layouts: it ignores the `layout` column) and the GPU target of this
one (`--target gpu`). Prints median and mean |error| per class, then per dtype and layout of
the convolutions.

    python3 scripts/gpu_heldout.py [--perfmodel build/perfmodel] [--before OTHER/perfmodel]
                                   [--keep DIR]

With --ship, fits the GPU target on every kernel instead and writes the shipped calibration
calibration/h200-kernels.yaml with its samples beside it (calibration/h200-kernels.csv, a
measurement CSV: `calibrate --from-measurements` refits it).
"""
import argparse
import csv
import json
import os
import statistics as st
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = os.path.join(ROOT, "reference", "gpu", "h200")
SIZE_COLS = ["m", "n", "k", "batch", "c", "h", "w", "out_channels", "kernel_h", "kernel_w",
             "stride_h", "stride_w", "pad_h", "pad_w", "dilation_h", "dilation_w", "groups"]


def rows():
    """The kernels of every file, with their layout (module docstring)."""
    out = []

    def take(name, layout):
        with open(os.path.join(REF, name)) as f:
            for r in csv.DictReader(f):
                r["layout"] = layout if r["op"] == "conv2d" else ""
                out.append(r)
    take("torch_kernels.csv", "nchw")
    take("torch_kernels_cl.csv", "nhwc")
    take("torch_kernels_bwd.csv", "nchw")
    take("torch_kernels_bwd_cl.csv", "nhwc")
    take(os.path.join("llm", "llama-3-8b", "llm_gemms.csv"), "")
    take(os.path.join("llm", "llama-2-7b", "llm_gemms.csv"), "")
    seen, unique = set(), []
    for r in out:  # the two Llamas share shapes: each kernel once
        key = (r["op"], r["dtype"], r["pass"], r["layout"], *[r[c] for c in SIZE_COLS])
        if key not in seen:
            seen.add(key)
            unique.append(r)
    return unique


def held_out(r):
    return zlib.crc32(",".join([r["op"]] + [r[c] for c in SIZE_COLS]).encode()) % 2 == 1


def kernel_class(r):
    if r["op"] == "gemm":
        return "GEMM"
    p = r["pass"] or "fwd"
    return {"fwd": "conv fwd", "bwd_data": "conv bwd-data",
            "bwd_filter": "conv bwd-filter", "bwd_weight": "conv bwd-filter"}[p]


def layout_group(r):
    """A convolution's dtype and layout ("fp16 NCHW"); None for a GEMM."""
    if r["op"] != "conv2d":
        return None
    return f'{r["dtype"]} {"NCHW" if r["layout"] == "nchw" else "channels-last"}'


def write_csv(path, rs):
    cols = ["op", "dtype", "pass"] + SIZE_COLS + ["seconds", "layout"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(rs)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p.stdout


def predictions(perfmodel, csv_path, calibration):
    cmd = [perfmodel, "kernels", "--hw", "h200", "--input", csv_path, "--format", "json"]
    if calibration:
        cmd += ["--calibration", calibration]
    return [row["predicted_seconds"] for row in json.loads(run(cmd))["rows"]]


def ship(perfmodel):
    samples = os.path.join(ROOT, "calibration", "h200-kernels.csv")
    out = os.path.join(ROOT, "calibration", "h200-kernels.yaml")
    write_csv(samples, rows())
    run([perfmodel, "calibrate", "--from-measurements", os.path.relpath(samples, ROOT), "--hw",
         "h200", "--target", "gpu", "-o", out])
    with open(out) as f:
        text = f.read()
    note = ("# The GPU target (docs/gpu_model.md) fitted on every H200 kernel of\n"
            "# calibration/h200-kernels.csv: reference/gpu/h200's GEMMs (torch_kernels.csv, both\n"
            "# Llama decoders' llm_gemms.csv) and convolutions in both layouts (the `layout`\n"
            "# column): forward fp32, tf32 and fp16 NCHW and channels-last, backward-data and\n"
            "# backward-filter fp32 NCHW and fp16 channels-last. Written by\n"
            "# `python3 scripts/gpu_heldout.py --ship`; held-out accuracy: docs/accuracy.md.\n")
    with open(out, "w") as f:
        f.write(note + text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--perfmodel", default=os.path.join(ROOT, "build", "perfmodel"))
    ap.add_argument("--keep", help="write the CSVs and calibrations to this folder")
    ap.add_argument("--before", help="another build's perfmodel (e.g. one without layouts): "
                    "its GPU target fitted and predicting the same kernels, a column of its own")
    ap.add_argument("--ship", action="store_true",
                    help="fit on every kernel: calibration/h200-kernels.{csv,yaml}")
    a = ap.parse_args()
    if a.ship:
        ship(a.perfmodel)
        return
    work = a.keep or tempfile.mkdtemp(prefix="gpu_heldout_")
    os.makedirs(work, exist_ok=True)
    data = rows()
    fit = [r for r in data if not held_out(r)]
    test = [r for r in data if held_out(r)]
    write_csv(os.path.join(work, "fit.csv"), fit)
    write_csv(os.path.join(work, "held_out.csv"), test)
    preds = {"roofline": predictions(a.perfmodel, os.path.join(work, "held_out.csv"), None)}
    fits = [("generic", a.perfmodel, "generic")]
    if a.before:
        fits.append(("before", a.before, "gpu"))
    fits.append(("gpu", a.perfmodel, "gpu"))
    for name, binary, target in fits:
        cal = os.path.join(work, f"h200-half-{name}.yaml")
        run([binary, "calibrate", "--from-measurements", os.path.join(work, "fit.csv"),
             "--hw", "h200", "--target", target, "-o", cal])
        preds[name] = predictions(binary, os.path.join(work, "held_out.csv"), cal)
    print(f"fitted on {len(fit)} kernels, held out {len(test)} ({work})")
    names = {"roofline": "roofline", "generic": "generic fit", "before": "GPU target (--before)",
             "gpu": "GPU target"}
    # Two kinds inside the classes, whose kernels are not CTA tiles of a product: depthwise
    # convolutions (every pass) and GEMVs (m or n = 1).
    kinds = {"(of which depthwise)": lambda r: r["op"] != "gemm" and int(r["groups"] or 1) > 1,
             "(of which GEMV)": lambda r: r["op"] == "gemm" and "1" in (r["m"], r["n"])}

    def table(title, groups, group_of, extra=None):
        extra = extra or {}
        print()
        print(f"| {title} | kernels | " +
              " | ".join(f"{names[m]} median / mean" for m in preds) + " |")
        print("|---|---|" + "---|" * len(preds))
        for g in groups + ["all"] + list(extra):
            idx = [i for i, r in enumerate(test)
                   if (extra[g](r) if g in extra else
                       group_of(r) is not None and (g == "all" or group_of(r) == g))]
            if not idx:
                continue
            cells = []
            for m, p in preds.items():
                errs = [abs(p[i] / float(test[i]["seconds"]) - 1) for i in idx]
                cells.append(f"{st.median(errs):.1%} / {st.mean(errs):.1%}")
            print(f"| {g} | {len(idx)} | " + " | ".join(cells) + " |")

    table("class", ["GEMM", "conv fwd", "conv bwd-data", "conv bwd-filter"], kernel_class, kinds)
    table("convolutions", [f"{d} {l}" for d in ("fp32", "tf32", "fp16")
                           for l in ("NCHW", "channels-last")], layout_group)


if __name__ == "__main__":
    main()
