#!/usr/bin/env python3
"""Prints perfmodel's training-step predictions against the published Megatron-LM iteration
times of Korthikanti et al. 2022, Table 5 (test/data/megatron/korthikanti2022_table5.csv), one
row each with the error, and the mean absolute error. The published rows are never fitted on.

usage: scripts/check_megatron.py BUILD/perfmodel [HW] [extra perfmodel options...]
HW defaults to test/data/megatron/a100-80gb.yaml (the paper's A100 80GB).
"""
import csv
import json
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = os.path.join(root, "test", "data", "megatron")


def main():
    binary = sys.argv[1]
    hw = sys.argv[2] if len(sys.argv) > 2 else os.path.join(data, "a100-80gb.yaml")
    extra = sys.argv[3:]
    lines = [l for l in open(os.path.join(data, "korthikanti2022_table5.csv")) if not l.startswith("#")]
    print("| model | recompute | split | published s | predicted s | error | MFU | memory/GPU | fits |")
    print("|---|---|---|---|---|---|---|---|---|")
    errors = []
    for r in csv.DictReader(lines):
        cmd = [binary, "llm", "--pass", "train", "--model", os.path.join(data, r["model"] + ".json"),
               "--hw", hw, "--gpus", r["gpus"], "--tp", r["tp"], "--pp", r["pp"], "--dp", "1",
               "--global-batch", r["global_batch"], "--microbatch", r["microbatch"], "--seq", "2048",
               "--recompute", r["recompute"], "--interleave", r["interleave"], "--attention", "eager",
               "--dtype", "fp16", "--format", "json"] + extra
        if r["sequence_parallel"] == "true":
            cmd.append("--sequence-parallel")
        out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        t = out["train"]
        pred, pub = t["step_seconds"], float(r["iteration_seconds"])
        err = (pred - pub) / pub
        errors.append(abs(err))
        mem = out["memory_per_device"]
        print(f"| {r['model']} | {r['recompute']}{' + SP' if r['sequence_parallel'] == 'true' else ''} "
              f"| tp {r['tp']} pp {r['pp']} v {r['interleave']} | {pub:.2f} | {pred:.2f} | {100 * err:+.1f}% "
              f"| {100 * t['mfu']:.1f}% | {mem['total_bytes'] / 1e9:.1f} GB | {'yes' if mem['fits'] else 'no'} |")
    print(f"\nmean absolute error: {100 * sum(errors) / len(errors):.1f}% over {len(errors)} rows")


if __name__ == "__main__":
    main()
