#!/usr/bin/env python3
"""Makes a large PyTorch profiler trace for the reader's scale test (docs/trace.md, "Scale").

Repeats the profiled steps of a shared trace (all its timed events) until the output reaches
--size bytes: each repetition is shifted in time past the previous one, and gets fresh
correlation ids, flow ids, external ids and ProfilerStep numbers, so that the result is a
consistent trace of many steps, not the same events many times. The process/thread metadata
and the whole-trace "PyTorch Profiler" span are written once (the span widened to cover every
step). The events are streamed to the output; memory stays that of one input trace.

  /usr/bin/python3 scripts/make_big_trace.py /work/shared/traces/resnet50_v100_num_workers_0.pt.trace.json.gz \
      /tmp/big.pt.trace.json --size 1e9
"""
import argparse
import gzip
import json
import re


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", help="a Chrome trace JSON (.json or .json.gz)")
    ap.add_argument("output", help="the trace to write (uncompressed JSON)")
    ap.add_argument("--size", type=float, default=1e9, help="bytes to reach (default 1e9)")
    a = ap.parse_args()

    events = load(a.source)["traceEvents"]
    once = [e for e in events if e.get("ph") == "M" or e.get("cat") == "Trace" or "ts" not in e
            or e.get("ph") == "i"]
    timed = [e for e in events if e not in once]
    start = min(e["ts"] for e in timed)
    end = max(e["ts"] + e.get("dur", 0) for e in timed)
    period = end - start + 1000  # 1 ms between repetitions
    ids = [e.get("id", 0) for e in timed if isinstance(e.get("id"), int)]
    for e in timed:
        args = e.get("args", {})
        for k in ("correlation", "External id", "external id"):
            if isinstance(args.get(k), int):
                ids.append(args[k])
    id_step = max(ids) + 1
    step_re = re.compile(r"^ProfilerStep#(\d+)$")
    steps = [int(m.group(1)) for e in timed if (m := step_re.match(e.get("name", "")))]
    step_count = max(steps) - min(steps) + 1 if steps else 0

    written = 0
    reps = 0
    with open(a.output, "w") as out:
        out.write('{"schemaVersion": 1, "traceEvents": [\n')
        # Each event as JSON text once, with markers where the per-repetition values go: the
        # repetitions then only format numbers (json.dumps per event would take an hour).
        marks = {}

        def mark(value, kind):
            key = "\u0001%d\u0001" % len(marks)
            marks[key] = (value, kind)
            return key

        templates = []
        for e in timed:
            e2 = dict(e)
            e2["ts"] = mark(e["ts"], "ts")
            if isinstance(e.get("id"), int):
                e2["id"] = mark(e["id"], "id")
            if "args" in e:
                args = dict(e["args"])
                for k in ("correlation", "External id", "external id"):
                    if isinstance(args.get(k), int) and args[k] > 0:
                        args[k] = mark(args[k], "id")
                if isinstance(args.get("external ts"), (int, float)):
                    args["external ts"] = mark(args["external ts"], "ts")
                e2["args"] = args
            m = step_re.match(e.get("name", ""))
            if m:
                e2["name"] = mark(int(m.group(1)), "step")
            text = json.dumps(e2, separators=(",", ":"))
            pieces = re.split(r'"?(\\u0001\d+\\u0001)"?', text)
            parts = []
            for i, piece in enumerate(pieces):
                if i % 2:
                    value, kind = marks[piece.replace("\\u0001", "\u0001")]
                    parts.append((value, kind))
                else:
                    parts.append(piece)
            templates.append(parts)

        while written < a.size:
            shift, bump, steps_before = reps * period, reps * id_step, reps * step_count
            chunk = []
            for parts in templates:
                for p in parts:
                    if isinstance(p, str):
                        chunk.append(p)
                    else:
                        value, kind = p
                        if kind == "ts":
                            chunk.append(repr(value + shift) if isinstance(value, float) else str(value + shift))
                        elif kind == "id":
                            chunk.append(str(value + bump))
                        else:
                            chunk.append('"ProfilerStep#%d"' % (value + steps_before))
                chunk.append(",\n")
            text = "".join(chunk)
            out.write(text)
            written += len(text)
            reps += 1
        tail = []
        for e in once:  # after the repetitions: the last event has no comma after it
            e2 = dict(e)
            if e.get("cat") == "Trace":
                e2["dur"] = reps * period
            tail.append(json.dumps(e2, separators=(",", ":")))
        out.write(",\n".join(tail) if tail else "{}")
        out.write("\n]}\n")
    print("%s: %d bytes, %d repetitions of %d events, %d steps" %
          (a.output, written, reps, len(timed), reps * step_count))


if __name__ == "__main__":
    main()
