#!/usr/bin/env python3
"""The accuracy table of several runs of scripts/calibration_accuracy.sh.

Usage: scripts/accuracy_table.py RUN_DIR [RUN_DIR...]
Each RUN_DIR holds MODEL-bN-calibrated.json and MODEL-bN-roofline.json for resnet50, mobilenet_v2
and vgg16 at batch 1 and nin at batch 5 (issue 4's models). Prints the Markdown rows docs/accuracy.md
shows: per run and model the median per-layer |error| / end-to-end error
(`*`: the measurement still flagged as taken in another host state than its calibration's) and
the targets met (median <= 10%, end to end within 5%); a row with the uncalibrated roofline's
ranges; then the totals, the targets met by model, the measured pass times' ranges and the
predicted ones' (whole passes, and the layers' sums without the pass excess): how far the runs'
calibrations agree.
"""
import json, os, sys

MODELS = ["resnet50-b1", "mobilenet_v2-b1", "vgg16-b1", "nin-b5"]


def summary(run, model, kind):
    return json.load(open(os.path.join(run, f"{model}-{kind}.json")))


def main(runs):
    if not runs:
        sys.exit("usage: scripts/accuracy_table.py RUN_DIR [RUN_DIR...]")
    medians = e2es = negative = 0
    by_model = {m: 0 for m in MODELS}
    roof = {m: ([], []) for m in MODELS}
    passes = {m: [] for m in MODELS}
    predicted = {m: ([], []) for m in MODELS}  # whole passes, layers' sums
    for run in runs:
        cells, met = [], 0
        for m in MODELS:
            j = summary(run, m, "calibrated")
            s = j["summary"]
            med, e2e = 100 * s["median_abs_error"], 100 * s["end_to_end_error"]
            ok_med, ok_e2e = med <= 10.0, abs(e2e) <= 5.0
            met += ok_med + ok_e2e
            medians += ok_med
            e2es += ok_e2e
            negative += e2e < 0
            by_model[m] += ok_med + ok_e2e
            star = " *" if j["host_state"]["changed"] else ""
            shown = f"{med:.2f}" if abs(med - 10) < 0.05 else f"{med:.1f}"  # 9.96 is not 10.0
            cells.append(f"{shown}% / {e2e:+.1f}%{star}")
            r = summary(run, m, "roofline")["summary"]
            roof[m][0].append(100 * r["median_abs_error"])
            roof[m][1].append(100 * r["end_to_end_error"])
            passes[m].append(1e3 * s["measured_total_seconds"])
            predicted[m][0].append(1e3 * s["predicted_total_seconds"])
            predicted[m][1].append(1e3 * s["predicted_layer_sum_seconds"])
        print(f"| {os.path.basename(os.path.normpath(run))} | " + " | ".join(cells) +
              f" | {met}/8 |")
    print("| uncalibrated roofline | " + " | ".join(
        f"{min(roof[m][0]):.0f}-{max(roof[m][0]):.0f}% / "
        f"{min(roof[m][1]):+.0f}..{max(roof[m][1]):+.0f}%" for m in MODELS) + " | 0/8 |")
    n = len(runs)
    print(f"\n{medians + e2es} of {8 * n} cells met: medians {medians} of {4 * n}, end to end "
          f"{e2es} of {4 * n} ({negative} of the {4 * n} end-to-end errors negative)")
    print("by model: " + ", ".join(f"{m} {by_model[m]} of {2 * n}" for m in MODELS))
    print("measured passes: " + ", ".join(
        f"{m} {min(passes[m]):.1f}-{max(passes[m]):.1f} ms" for m in MODELS))
    for i, what in enumerate(("predicted passes", "predicted layer sums")):
        print(f"{what}: " + ", ".join(
            f"{m} {min(predicted[m][i]):.1f}-{max(predicted[m][i]):.1f} ms" for m in MODELS))


if __name__ == "__main__":
    main(sys.argv[1:])
