#!/usr/bin/env python3
"""Compares `perfmodel llm` with a measured llm_reference.json (scripts/torch_llm_reference.py):
each prefill (batch, prompt) against the TTFT of `--prompt T --generate 1`, each decode step at
KV length L against the one decode step of `--prompt L --generate 2` (which runs at KV length
L). Prints one row per phase with the error (predicted / measured - 1) and the median absolute
error per phase. A report, not a test.

    python3 scripts/llm_reference_compare.py build/perfmodel \\
        reference/gpu/h200/llm/llama-3-8b/llm_reference.json --model llama-3-8b --hw h200
"""
import argparse
import json
import statistics
import subprocess
import sys


def predict(binary, model, hw, batch, prompt, generate, extra):
    cmd = [binary, "llm", "--model", model, "--hw", hw, "--dtype", "fp16", "--batch", str(batch),
           "--prompt", str(prompt), "--generate", str(generate), "--format", "json"] + extra
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode == 2:  # an input perfmodel refuses (a KV length beyond the model's positions)
        return None, run.stderr.strip()
    run.check_returncode()
    return json.loads(run.stdout), ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("reference")
    ap.add_argument("--model", required=True)
    ap.add_argument("--hw", required=True)
    ap.add_argument("--calibration", help="passed to perfmodel llm")
    a = ap.parse_args()
    extra = ["--calibration", a.calibration] if a.calibration else []
    ref = json.load(open(a.reference))
    errors = {"prefill": [], "decode": []}
    print(f"{'phase':8} {'batch':>5} {'tokens':>6} {'measured':>10} {'predicted':>10} {'error':>7}")
    for p in ref["phases"]:
        prefill = p["phase"] == "prefill"
        tokens = p["prompt"] if prefill else p["kv_len"]
        j, why = predict(a.binary, a.model, a.hw, p["batch"], tokens, 1 if prefill else 2, extra)
        if j is None:
            print(f"{p['phase']:8} {p['batch']:>5} {tokens:>6} skipped: {why}")
            continue
        pred = j["ttft_seconds"] if prefill else j["decode"]["tpot_first_seconds"]
        err = pred / p["seconds"] - 1
        errors[p["phase"]].append(abs(err))
        print(f"{p['phase']:8} {p['batch']:>5} {tokens:>6} {p['seconds'] * 1e3:>8.2f}ms "
              f"{pred * 1e3:>8.2f}ms {err * 100:>+6.1f}%")
    for phase, e in errors.items():
        if e:
            print(f"median |error| {phase}: {statistics.median(e) * 100:.1f}% over {len(e)} cases")


if __name__ == "__main__":
    sys.exit(main())
