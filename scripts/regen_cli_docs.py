#!/usr/bin/env python3
"""Replaces the option block (the first ``` block) of each docs/cli/<command>.md with the
options part of `perfmodel <command> --help`, so that the pages say what the binary accepts.

    python3 scripts/regen_cli_docs.py build/perfmodel
"""
import os
import subprocess
import sys

COMMANDS = ["predict", "llm", "list", "info", "convert", "trace", "sweep", "roofline",
            "calibrate", "kernels", "measure", "report", "plan"]


def main():
    binary = sys.argv[1]
    for cmd in COMMANDS:
        page = f"docs/cli/{cmd}.md"
        if not os.path.exists(page):
            continue
        text = open(page).read()
        lines = subprocess.run([binary, cmd, "--help"], capture_output=True,
                               text=True).stdout.split("\n")
        start = next(i for i, l in enumerate(lines) if l in ("Positionals:", "Options:"))
        opts = lines.index("Options:")
        end = next(i for i in range(opts, len(lines)) if lines[i] == "")
        a = text.index("```\n") + 4
        b = text.index("```", a)
        new = text[:a] + "\n".join(lines[start:end]) + "\n" + text[b:]
        if new != text:
            open(page, "w").write(new)
            print("updated", page)


if __name__ == "__main__":
    main()
