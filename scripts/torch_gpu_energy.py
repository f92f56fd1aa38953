#!/usr/bin/env python3
"""Measure the GPU energy of training steps and inference passes with NVML, as reference
figures for perfmodel's energy prediction (J per step, J per sample, average power).

A reference measurement made with a framework users already trust, not part of the product.
The cases and models are those of scripts/torch_gpu_traces.py (same code builds them). For each
case: 3 warm-up steps, then whole steps until at least --seconds of GPU time have passed; the
energy is the difference of NVML's total-energy counter (nvmlDeviceGetTotalEnergyConsumption,
mJ, updated every few to 100 ms, hence the long runs) over the timed steps, the time that of
CUDA events around them. The board's idle power (the mean of --idle seconds of
nvmlDeviceGetPowerUsage before the first case) is written too, so that dynamic energy can be
separated from static.

    python3 scripts/torch_gpu_energy.py -o out/gpu/energy.csv
"""
import argparse
import csv
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_gpu_traces import CASES, build, step_fn  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--seconds", type=float, default=2.0, help="timed GPU time per case")
    ap.add_argument("--idle", type=float, default=2.0, help="seconds of idle power reading")
    ap.add_argument("--cases", default="", help="comma-separated case names; default all")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_gpu_energy: no CUDA device")
    import pynvml
    pynvml.nvmlInit()
    # NVML numbers devices by PCI bus, CUDA by speed: on a one-GPU machine both say 0.
    if pynvml.nvmlDeviceGetCount() != 1 or torch.cuda.device_count() != 1:
        sys.exit("torch_gpu_energy: needs a machine with exactly one GPU")
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    watts = []
    t_end = time.time() + a.idle
    while time.time() < t_end:
        watts.append(pynvml.nvmlDeviceGetPowerUsage(handle) / 1e3)
        time.sleep(0.05)
    idle = sum(watts) / len(watts)
    print(f"torch_gpu_energy: {torch.cuda.get_device_name(0)}, idle {idle:.1f} W",
          file=sys.stderr)
    cases = CASES
    if a.cases:
        want = set(a.cases.split(","))
        cases = [c for c in cases if f"{c[0]}_{c[1]}_b{c[2]}_{c[3]}" in want]
    with open(a.output + ".tmp", "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=["case", "model", "pass", "batch", "precision",
                                           "steps", "seconds", "joules", "watts",
                                           "joules_per_step", "joules_per_sample",
                                           "idle_watts"])
        wr.writeheader()
        for model, pass_, batch, prec in cases:
            torch.manual_seed(0)
            net, x, y = build(model, batch, "cuda", False)
            if prec == "amp" and model != "bert_base":
                net = net.to(memory_format=torch.channels_last)
                x = x.contiguous(memory_format=torch.channels_last)
            fn = step_fn(net, x, y, pass_, prec, "cuda")
            for _ in range(3):
                fn()
            torch.cuda.synchronize()
            t = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            steps = max(3, int(a.seconds / max(time.perf_counter() - t, 1e-4)))
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(
                enable_timing=True)
            e0 = pynvml.nvmlDeviceGetTotalEnergyConsumption(handle)
            start.record()
            for _ in range(steps):
                fn()
            stop.record()
            stop.synchronize()
            e1 = pynvml.nvmlDeviceGetTotalEnergyConsumption(handle)
            secs = start.elapsed_time(stop) * 1e-3
            joules = (e1 - e0) * 1e-3
            name = f"{model}_{pass_}_b{batch}_{prec}"
            wr.writerow({"case": name, "model": model, "pass": pass_, "batch": batch,
                         "precision": prec, "steps": steps, "seconds": f"{secs:.6e}",
                         "joules": f"{joules:.6e}", "watts": f"{joules / secs:.2f}",
                         "joules_per_step": f"{joules / steps:.6e}",
                         "joules_per_sample": f"{joules / steps / batch:.6e}",
                         "idle_watts": f"{idle:.2f}"})
            f.flush()
            print(f"torch_gpu_energy: {name}: {steps} steps, {secs:.2f} s, {joules:.1f} J, "
                  f"{joules / secs:.0f} W, {joules / steps:.3f} J/step", file=sys.stderr)
            del net, x, y, fn
            torch.cuda.empty_cache()
    os.replace(a.output + ".tmp", a.output)


if __name__ == "__main__":
    main()
