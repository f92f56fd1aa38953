#!/usr/bin/env python3
"""Carries a GPU calibration fitted on one GPU over to another GPU by its structure
(docs/calibration.md, "Transfer to another GPU"): an estimate for a GPU with no measurements,
never a fit on it.

What carries over, per op class: the Hockney halves (m_half, n_half, k_half: matrix sizes, in
elements, at which a CTA reaches half its rate), the tile choice, the lowering factor, the
compute / memory overlap and the per-call overhead: what the fit learnt of how the kernels
behave. What is rescaled to the other GPU's spec: the class's peak FLOP rate by the ratio of
the two specs' peaks for the class's dtype (tensor unit where the spec has one), each memory
level's bandwidth by the ratio of the two specs' bandwidths of that level (by name), the
split-K partial-sum rate by the DRAM ratio; the SM count (`cores`, which sets the waves of the
GPU target) and the memory capacities are the other GPU's. The fitted fraction of each peak is
thus assumed the same on both GPUs.

usage: scripts/transfer_calibration.py CALIBRATION.yaml --from HW.yaml --to HW.yaml -o OUT.yaml
"""
import argparse
import os
import re
import sys

import yaml

UNITS = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15}
BINARY = {"kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "b": 1, "kb": 1e3, "mb": 1e6,
          "gb": 1e9, "tb": 1e12}


def number(text, what):
    """'312 TFLOP/s', '2039 GB/s', '40 MiB', '80 GB' -> a plain number (FLOP/s, B/s, B)."""
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([A-Za-z]*)(?:FLOP|B)?(/s)?\s*", str(text))
    if not m:
        sys.exit(f"transfer_calibration: {what}: cannot read '{text}'")
    value, unit = float(m.group(1)), m.group(2).lower()
    if m.group(3):  # a rate: decimal prefixes (TFLOP/s, GB/s)
        return value * UNITS[unit[:1]] if unit[:1] in UNITS else value
    return value * BINARY.get(unit + "b" if unit and not unit.endswith("b") else unit or "b", 1)


class Spec:
    def __init__(self, path):
        s = yaml.safe_load(open(path))
        self.name, self.units = s["name"], int(s["units"])
        self.peaks = {}  # dtype -> the fastest unit's peak
        for c in s["compute"]:
            p = number(c["peak"], f"{path}: peak")
            self.peaks[c["dtype"]] = max(p, self.peaks.get(c["dtype"], 0))
        self.levels = {m["name"]: (number(m["bandwidth"], f"{path}: bandwidth"),
                                   number(m["capacity"], f"{path}: capacity")) for m in s["memory"]}
        self.order = [m["name"] for m in s["memory"]]


def transfer(cal, src, dst, origin):
    levels = [l["name"] for l in cal["memory_levels"]]
    for name in levels:
        if name not in src.levels or name not in dst.levels:
            sys.exit(f"transfer_calibration: memory level '{name}' is not in both specs")
    bw = [dst.levels[n][0] / src.levels[n][0] for n in levels]
    for k in cal["classes"]:
        d = k["dtype"]
        if d not in src.peaks or d not in dst.peaks:
            sys.exit(f"transfer_calibration: dtype '{d}' has no peak in both specs")
        # float(): PyYAML reads '2e+12' (no dot, YAML 1.1) as a string
        k["peak_flops_per_second"] = float(f"{float(k['peak_flops_per_second']) * dst.peaks[d] / src.peaks[d]:.6g}")
        k["bytes_per_second"] = [float(f"{float(b) * r:.6g}") for b, r in zip(k["bytes_per_second"], bw)]
        if "split_k_bytes_per_second" in k:
            k["split_k_bytes_per_second"] = float(f"{float(k['split_k_bytes_per_second']) * bw[-1]:.6g}")
        k.pop("at_bound", None)  # the bounds were the first spec's
    if hasattr(cal.get("date"), "strftime"):  # YAML read the timestamp; write it as it was
        cal["date"] = cal["date"].strftime("%Y-%m-%dT%H:%M:%SZ")
    cal["hardware"] = dst.name
    cal["device"]["name"] = dst.name
    cal["device"]["cores"] = dst.units
    cal["cores"] = dst.units
    cal["memory_levels"] = [{"name": n, "capacity_bytes": int(dst.levels[n][1]) if n != "dram" else 0}
                            for n in levels]
    cal["source"] = f"transfer:{origin} ({src.name} -> {dst.name} by spec ratios)"
    return cal


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("calibration")
    ap.add_argument("--from", dest="src", required=True, help="the spec the calibration was fitted on")
    ap.add_argument("--to", dest="dst", required=True, help="the spec to carry it to")
    ap.add_argument("-o", dest="out", required=True)
    a = ap.parse_args()
    cal = yaml.safe_load(open(a.calibration))
    src, dst = Spec(a.src), Spec(a.dst)
    if cal.get("target") != "gpu" or cal.get("hardware") != src.name:
        sys.exit(f"transfer_calibration: {a.calibration}: not a GPU calibration of '{src.name}'")
    out = transfer(cal, src, dst, a.calibration)
    head = (f"# {a.calibration} carried from {src.name} to {dst.name} by scripts/transfer_calibration.py:\n"
            "# the fitted Hockney halves, tiles, overlap and per-call overhead kept; peaks and\n"
            "# bandwidths rescaled by the two specs' ratios; SMs and capacities of the new spec.\n"
            f"# `fit:` and `fitted_range:` are the {src.name} fit's.\n"
            "# An estimate from another GPU's measurements (docs/calibration.md), not a fit.\n")
    text = head + yaml.safe_dump(out, sort_keys=False, default_flow_style=None, width=100)
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()
