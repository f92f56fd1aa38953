#!/usr/bin/env python3
"""One line per `perfmodel measure --format json` report: the model, the layers in the summary,
median and mean |error| per layer, the end-to-end error and, where NVML measured it, the energy
per pass measured and predicted, each marked against issue 41's targets (median per-layer
|error| <= 10% over the layers in the summary, end to end <= 5%, energy <= 15%).

Usage: scripts/measure_summary.py REPORT.json...   (prints a Markdown table; exit 0)
"""
import json
import os
import sys

TARGETS = {"median": 0.10, "end_to_end": 0.05, "energy": 0.15}


def mark(value, limit):
    return f"{100 * value:+.1f}%" + ("" if abs(value) <= limit else " (!)")


def row(path):
    with open(path) as f:
        r = json.load(f)
    s = r["summary"]
    e = r.get("energy") or {}
    energy = "-"
    if e.get("measured"):
        energy = (f"{e['measured_joules_per_pass']:.3g} J / {e['predicted_joules_per_pass']:.3g} J,"
                  f" {mark(e['error'], TARGETS['energy'])}")
    elif e:
        energy = "not measured: " + e.get("why", "")
    return [os.path.basename(path).removesuffix(".json"), r.get("device", ""),
            r.get("calibration") or "roofline", str(s["layers_in_summary"]),
            mark(s["median_abs_error"], TARGETS["median"]).lstrip("+"),
            f"{100 * s['mape']:.1f}%",
            f"{1e3 * s['measured_total_seconds']:.3g} ms / {1e3 * s['predicted_total_seconds']:.3g} ms",
            mark(s["end_to_end_error"], TARGETS["end_to_end"]), energy]


def main(paths):
    head = ["run", "device", "predicted with", "layers", "median abs error", "MAPE",
            "pass measured / predicted", "end to end", "energy per pass measured / predicted"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for p in paths:
        try:
            print("| " + " | ".join(row(p)) + " |")
        except (OSError, ValueError, KeyError) as err:
            print(f"| {os.path.basename(p)} | unreadable: {err} |")
    print(f"\n(!): beyond the target (median per layer {TARGETS['median']:.0%}, end to end "
          f"{TARGETS['end_to_end']:.0%}, energy {TARGETS['energy']:.0%})")


if __name__ == "__main__":
    main(sys.argv[1:])
