#!/usr/bin/env python3
"""Per measurement of accuracy runs: how many passes ran between quiet convolution probes, their
median against the spell passes', the probes' range, and the first pass after each probe
against the rest of its interval (the probe's own cache traffic). Reads the JSON of
`measure --passes quiet` (passes.quiet) that scripts/calibration_accuracy.sh writes.

    scripts/lab/quiet_passes.py out/z1 out/z2 ...
"""
import glob
import json
import statistics as st
import sys


def main():
    for d in sys.argv[1:]:
        for f in sorted(glob.glob(d + "/*-calibrated.json")):
            j = json.load(open(f))
            q = j["passes"].get("quiet")
            if not q:
                print(f"{f}: no quiet block (measured with --passes {j['passes']['filter']})")
                continue
            probes = [p["conv_flops_per_second"] / 1e9 for p in q["probes"]]
            ps, at = q["pass_seconds"], [p["before_pass"] for p in q["probes"]]
            after = [seg[0] / st.median(seg[1:]) - 1
                     for seg in (ps[a:b] for a, b in zip(at, at[1:])) if len(seg) >= 2]
            s = j["summary"]
            print(f"{f}: kept {q['kept']}/{j['passes']['timed']}, quiet {q['quiet_passes']} "
                  f"(median {1e3 * q['quiet_median_pass_seconds']:.2f} ms), spell "
                  f"{q['spell_passes']} ({1e3 * q['spell_median_pass_seconds']:.2f} ms); "
                  f"{len(probes)} probes {min(probes):.0f}-{max(probes):.0f} GFLOP/s "
                  f"(median {st.median(probes):.0f}); measured {1e3 * s['measured_total_seconds']:.2f}"
                  f" ms, predicted {1e3 * s['predicted_total_seconds']:.2f}, end to end "
                  f"{100 * s['end_to_end_error']:+.1f}%; first pass after a probe "
                  + (f"{100 * st.median(after):+.1f}%" if after else "-")
                  + f"; in spell {j['host_state'].get('passes_in_spell')}")


if __name__ == "__main__":
    main()
