#!/usr/bin/env python3
"""Prints perfmodel's training-step predictions against published Megatron-LM runs on A100s,
one row each with the error, and the mean absolute error per table:

- Korthikanti et al. 2022, Table 5: iteration times
  (test/data/megatron/korthikanti2022_table5.csv);
- Narayanan et al. 2021, Table 1: achieved teraFLOP/s per GPU, counted as the paper counts them
  (test/data/megatron/narayanan2021_table1.csv).

The published rows are never fitted on.

usage: scripts/check_megatron.py BUILD/perfmodel [HW] [extra perfmodel options...]
HW defaults to test/data/megatron/a100-80gb.yaml (the papers' A100 80GB).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = os.path.join(root, "test", "data", "megatron")
SEQ, VOCAB = 2048, 51200


def rows(name):
    return list(csv.DictReader(l for l in open(os.path.join(data, name)) if not l.startswith("#")))


def train(binary, hw, extra, model, gpus, tp, pp, batch, micro, recompute, interleave, sp):
    cmd = [binary, "llm", "--pass", "train", "--model", model, "--hw", hw, "--gpus", str(gpus),
           "--tp", str(tp), "--pp", str(pp), "--dp", str(gpus // (tp * pp)), "--global-batch",
           str(batch), "--microbatch", str(micro), "--seq", str(SEQ), "--recompute", recompute,
           "--interleave", str(interleave), "--attention", "eager", "--dtype", "fp16",
           "--format", "json"] + extra
    if sp:
        cmd.append("--sequence-parallel")
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def korthikanti(binary, hw, extra):
    print("Korthikanti et al. 2022, Table 5 (iteration time)\n")
    print("| model | recompute | split | published s | predicted s | error | MFU | memory/GPU | fits |")
    print("|---|---|---|---|---|---|---|---|---|")
    errors = []
    for r in rows("korthikanti2022_table5.csv"):
        sp = r["sequence_parallel"] == "true"
        out = train(binary, hw, extra, os.path.join(data, r["model"] + ".json"), int(r["gpus"]),
                    int(r["tp"]), int(r["pp"]), r["global_batch"], r["microbatch"], r["recompute"],
                    r["interleave"], sp)
        t = out["train"]
        pred, pub = t["step_seconds"], float(r["iteration_seconds"])
        err = (pred - pub) / pub
        errors.append(abs(err))
        mem = out["memory_per_device"]
        print(f"| {r['model']} | {r['recompute']}{' + SP' if sp else ''} "
              f"| tp {r['tp']} pp {r['pp']} v {r['interleave']} | {pub:.2f} | {pred:.2f} | {100 * err:+.1f}% "
              f"| {100 * t['mfu']:.1f}% | {mem['total_bytes'] / 1e9:.1f} GB | {'yes' if mem['fits'] else 'no'} |")
    print(f"\nmean absolute error: {100 * sum(errors) / len(errors):.1f}% over {len(errors)} rows\n")


def narayanan(binary, hw, extra):
    print("Narayanan et al. 2021, Table 1 (achieved teraFLOP/s per GPU, full recompute, microbatch 1)\n")
    print("| parameters | split (tp, pp, dp) | GPUs | batch | published TFLOP/s | predicted TFLOP/s | error "
          "| predicted step s | memory/GPU | fits |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows("narayanan2021_table1.csv"):
            h, a, l = int(r["hidden"]), int(r["heads"]), int(r["layers"])
            model = os.path.join(tmp, f"gpt-{r['params_b']}b.json")
            with open(model, "w") as f:  # Megatron-LM's GPT: GPT-2's layer, learned positions, tied
                json.dump({"model_type": "gpt2", "n_embd": h, "n_head": a, "n_layer": l,
                           "n_positions": SEQ, "vocab_size": VOCAB, "activation_function": "gelu_new",
                           "tie_word_embeddings": True}, f)
            gpus, tp, pp, batch = int(r["gpus"]), int(r["tp"]), int(r["pp"]), int(r["global_batch"])
            out = train(binary, hw, extra, model, gpus, tp, pp, batch, 1, "full", 1, False)
            step = out["train"]["step_seconds"]
            flops = 96 * batch * SEQ * l * h * h * (1 + SEQ / (6 * h) + VOCAB / (16 * l * h))
            pred, pub = flops / (step * gpus) / 1e12, float(r["tflops_per_gpu"])
            err = (pred - pub) / pub
            errors.append(abs(err))
            mem = out["memory_per_device"]
            print(f"| {r['params_b']}B | {tp}, {pp}, {gpus // (tp * pp)} | {gpus} | {batch} | {pub:.0f} "
                  f"| {pred:.0f} | {100 * err:+.1f}% | {step:.2f} | {mem['total_bytes'] / 1e9:.1f} GB "
                  f"| {'yes' if mem['fits'] else 'no'} |")
    print(f"\nmean absolute error: {100 * sum(errors) / len(errors):.1f}% over {len(errors)} rows")


def main():
    binary = sys.argv[1]
    hw = sys.argv[2] if len(sys.argv) > 2 else os.path.join(data, "a100-80gb.yaml")
    extra = sys.argv[3:]
    korthikanti(binary, hw, extra)
    narayanan(binary, hw, extra)


if __name__ == "__main__":
    main()
