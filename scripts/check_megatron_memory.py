#!/usr/bin/env python3
"""Checks perfmodel's training memory per GPU against Korthikanti et al. 2022 ("Reducing
Activation Recomputation in Large Transformer Models", arXiv:2205.05198) for the four models of
its Table 3 under their splits, five ways each: tensor parallel alone without recompute (the
paper's baseline), + sequence parallel, selective recompute, sequence parallel + selective
recompute (the paper's "present work"), and full recompute.

The reference figures are in test/data/megatron/korthikanti2022_memory.csv: the paper's
section 4 formulas (Table 2 per layer; section 4.3 for the first pipeline stage, the
interleaved schedule and the embedding and output layer) evaluated at Table 3's configurations,
with parameters + optimizer state at 18 bytes per parameter (Megatron-LM's own count, the
authors' megatron/training/theoretical_memory_usage.py: 2-byte weights, 4-byte main gradients,
12 bytes of fp32 weights and Adam moments). `--write` recomputes that file from these formulas;
without it the script runs perfmodel on every row, prints a table and exits 1 when a total
differs from the reference by more than 5%.

usage: scripts/check_megatron_memory.py BUILD/perfmodel [--write]
"""
import csv
import json
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = os.path.join(root, "test", "data", "megatron")
table = os.path.join(data, "korthikanti2022_memory.csv")
TOLERANCE = 0.05

# Table 3 of the paper (the splits of its Table 5 runs; test/data/megatron/*.json hold the sizes)
MODELS = [  # name, heads, hidden, layers, tp, pp, global batch, microbatch, interleave
    ("megatron-22b", 64, 6144, 48, 8, 1, 4, 4, 1),
    ("gpt3-175b", 96, 12288, 96, 8, 8, 64, 1, 3),
    ("mt-nlg-530b", 128, 20480, 105, 8, 35, 280, 1, 3),
    ("megatron-1t", 160, 25600, 128, 8, 64, 512, 1, 1),
]
MODES = [  # name, recompute, sequence parallel
    ("baseline", "none", False),
    ("sequence-parallel", "none", True),
    ("selective", "selective", False),
    ("selective+sp", "selective", True),
    ("full", "full", False),
]
SEQ, VOCAB = 2048, 51200


def reference(heads, h, layers, t, p, batch, b, v, recompute, sp):
    """The paper's formulas (bytes): parameters + optimizer state and activations of the first
    pipeline stage, the one that keeps the most activations."""
    s, a, L, V = SEQ, heads, layers, VOCAB
    sbh = s * b * h
    if recompute == "none":  # Table 2
        per_layer = sbh / t * (34 + 5 * a * s / h) if sp else sbh * (10 + 24 / t + 5 * a * s / (h * t))
    elif recompute == "selective":
        per_layer = sbh * 34 / t if sp else sbh * (10 + 24 / t)
    else:  # full: the input of every layer (section 5)
        per_layer = 2 * sbh / t if sp else 2 * sbh
    m = batch // b
    in_flight = L // p * min(p, m)  # p microbatches of L / p layers (section 4.3)
    if v > 1:
        in_flight *= 1 + (p - 1) / (p * v)
    extra = sbh * p / t + (4 * sbh / t * (1 + V / h) if p == 1 else 0)  # dropout; output layer
    # parameters of the first stage per GPU: L / p layers of 12h^2 + 13h, the word embedding
    params = (L // p * (12 * h * h + 13 * h) + V * h) / t
    return 18 * params, per_layer * in_flight + extra


def write():
    with open(table, "w") as f:
        f.write("# Korthikanti et al. 2022 (arXiv:2205.05198), memory per GPU of the first pipeline stage\n"
                "# for Table 3's configurations (s = 2048, v = 51200, fp16): Table 2's activations per\n"
                "# layer, section 4.3's p in-flight microbatches, interleave factor 1 + (p-1)/(pm),\n"
                "# embedding dropout sbhp/t and (p = 1) output layer 4sbh/t (1 + v/h); parameters +\n"
                "# optimizer state at 18 bytes per parameter (Megatron-LM theoretical_memory_usage.py).\n"
                "# Figure 1 draws these as bars; its bar heights are not printed in the paper, so the\n"
                "# figures here are the formulas it plots. Written by scripts/check_megatron_memory.py --write.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["model", "mode", "recompute", "sequence_parallel", "tp", "pp", "global_batch",
                    "microbatch", "interleave", "params_optimizer_gb", "activations_gb", "total_gb"])
        for name, heads, h, L, t, p, batch, b, v in MODELS:
            for mode, rc, sp in MODES:
                po, act = reference(heads, h, L, t, p, batch, b, v, rc, sp)
                w.writerow([name, mode, rc, "true" if sp else "false", t, p, batch, b, v,
                            f"{po / 1e9:.2f}", f"{act / 1e9:.2f}", f"{(po + act) / 1e9:.2f}"])


def check(binary):
    rows = list(csv.DictReader(l for l in open(table) if not l.startswith("#")))
    print("| model | mode | params + optimizer GB (paper / perfmodel) | activations GB (paper / perfmodel) "
          "| total GB (paper / perfmodel) | error |")
    print("|---|---|---|---|---|---|")
    models = {m[0]: m for m in MODELS}
    worst = 0.0
    for r in rows:
        _, heads, h, L, t, p, batch, b, v = models[r["model"]]
        po, act = reference(heads, h, L, t, p, batch, b, v, r["recompute"], r["sequence_parallel"] == "true")
        if f"{(po + act) / 1e9:.2f}" != r["total_gb"]:  # the table is the formulas' (--write)
            sys.exit(f"{table}: {r['model']} {r['mode']}: total_gb {r['total_gb']} is not the formulas' "
                     f"{(po + act) / 1e9:.2f}; rerun with --write")
        gpus = int(r["tp"]) * int(r["pp"])
        cmd = [binary, "llm", "--pass", "train", "--model", os.path.join(data, r["model"] + ".json"),
               "--hw", os.path.join(data, "a100-80gb.yaml"), "--gpus", str(gpus), "--tp", r["tp"],
               "--pp", r["pp"], "--dp", "1", "--global-batch", r["global_batch"], "--microbatch",
               r["microbatch"], "--seq", str(SEQ), "--recompute", r["recompute"], "--interleave",
               r["interleave"], "--attention", "eager", "--dtype", "fp16", "--format", "json"]
        if r["sequence_parallel"] == "true":
            cmd.append("--sequence-parallel")
        mem = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)[
            "memory_per_device"]
        po = (mem["weights_bytes"] + mem["gradients_bytes"] + mem["optimizer_bytes"]) / 1e9
        act, total = mem["activations_bytes"] / 1e9, mem["total_bytes"] / 1e9
        ref = float(r["total_gb"])
        err = (total - ref) / ref
        worst = max(worst, abs(err))
        print(f"| {r['model']} | {r['mode']} | {float(r['params_optimizer_gb']):.1f} / {po:.1f} "
              f"| {float(r['activations_gb']):.1f} / {act:.1f} | {ref:.1f} / {total:.1f} | {100 * err:+.2f}% |")
    print(f"\nlargest |error| {100 * worst:.2f}% over {len(rows)} rows (tolerance {100 * TOLERANCE:.0f}%)")
    return 0 if worst <= TOLERANCE else 1


def main():
    if "--write" in sys.argv[1:]:
        write()
        return 0
    return check(sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())
