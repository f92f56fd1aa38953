"""Shared fixtures: the source tree, and the built CLI binary to compare with (PERFMODEL_CLI, set
by ctest; else build/perfmodel)."""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def cli_json():
    """Runs the CLI with `args` (from the source root) and returns its JSON output parsed."""
    binary = os.environ.get("PERFMODEL_CLI") or os.path.join(ROOT, "build", "perfmodel")
    if not os.path.exists(binary):
        pytest.skip(f"no CLI binary at {binary} to compare with (set PERFMODEL_CLI)")

    def run(*args):
        out = subprocess.run([binary, *args, "--format", "json"], cwd=ROOT, check=True,
                             capture_output=True, text=True)
        return json.loads(out.stdout)
    return run
