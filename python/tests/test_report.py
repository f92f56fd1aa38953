"""perfmodel.report: the same page as `perfmodel report`, written atomically where asked."""
import os
import subprocess

import pytest

import perfmodel

from conftest import ROOT


def _cli():
    binary = os.environ.get("PERFMODEL_CLI") or os.path.join(ROOT, "build", "perfmodel")
    if not os.path.exists(binary):
        pytest.skip(f"no CLI binary at {binary} to compare with (set PERFMODEL_CLI)")
    return binary


def test_report_equals_cli_page(tmp_path):
    measured = os.path.join(ROOT, "test/golden/roofline_measured/measured.json")
    cli_out = tmp_path / "cli.html"
    subprocess.run([_cli(), "report", "--model", "nin", "--hw", "v100", "--batch", "2",
                    "--measured", measured, "-o", str(cli_out)], cwd=ROOT, check=True,
                   capture_output=True)
    py_out = tmp_path / "py.html"
    with pytest.warns(UserWarning, match="match no layer"):
        html = perfmodel.report("nin", "v100", py_out, batch=2, measured=measured)
    assert html == cli_out.read_text()
    assert py_out.read_text() == html
    assert html.lstrip().lower().startswith("<!doctype html")


def test_report_bad_input_names_the_file(tmp_path):
    bad = tmp_path / "m.json"
    bad.write_text("{not json")
    with pytest.raises(perfmodel.InputError, match="m.json"):
        perfmodel.report("nin", "v100", measured=bad)
    with pytest.raises(perfmodel.InputError, match="top"):
        perfmodel.report("nin", "v100", top=-1)
