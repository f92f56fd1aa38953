"""Bad input raises InputError (a ValueError) with the CLI's one line naming the file; the
library runs outside the GIL and two threads predict at once."""
import os
import sys
import threading
import time

import pytest

import perfmodel


def test_error_classes():
    assert issubclass(perfmodel.InputError, ValueError)
    assert issubclass(perfmodel.RuntimeFailure, RuntimeError)


def test_bad_model_file_names_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nname: bad\ninputs:\n  - {name: x, shape: [1, 3]}\n"
                   "layers:\n  - {name: l, op: no_such_op, inputs: [x], outputs: [y]}\n")
    with pytest.raises(perfmodel.InputError) as e:
        perfmodel.predict(str(bad), "a100")
    message = str(e.value)
    assert message.startswith(str(bad) + ":"), message
    assert "error:" in message and "\n" not in message


def test_truncated_onnx_names_the_file(root):
    path = os.path.join(root, "test/data/onnx/truncated.onnx")
    with pytest.raises(ValueError, match="^" + path + ": error: "):
        perfmodel.predict(path, "a100")


def test_cli_message_for_a_typo():
    with pytest.raises(perfmodel.InputError, match="did you mean 'a100'"):
        perfmodel.predict("resnet50", "a10O")
    with pytest.raises(perfmodel.InputError, match="unknown data type 'fp17'"):
        perfmodel.predict("resnet50", "a100", dtype="fp17")


def test_bad_hw_dict_points_into_it():
    with pytest.raises(perfmodel.InputError, match=r"^<hw dict>:\d+:\d+: error: "):
        perfmodel.predict("nin", {"version": 1, "name": "x", "kind": "gpu", "tdp": "-3 W"})


def test_trace_option_combination(root):
    with pytest.raises(perfmodel.InputError, match="needs --hw"):
        perfmodel.trace(os.path.join(root, "test/data/trace/concrete.json"), view="attainment")


def test_from_torch_without_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    with pytest.raises(ImportError, match="from_torch needs PyTorch"):
        perfmodel.from_torch(object(), (), "a100")


def test_two_threads_predict_at_once():
    want = {m: perfmodel.predict(m, "a100", batch=4).to_dict() for m in ("resnet50", "vgg16")}
    got, errors = {}, []

    def run(model):
        try:
            for _ in range(3):
                got.setdefault(model, []).append(perfmodel.predict(model, "a100", batch=4))
        except Exception as e:  # reported below
            errors.append(e)
    threads = [threading.Thread(target=run, args=(m,)) for m in want]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for model, results in got.items():
        assert [r.to_dict() for r in results] == [want[model]] * 3


def test_the_gil_is_released_while_computing():
    # A sweep long enough to see: while it runs in one thread, this thread keeps running. With
    # the GIL held it could not run at all until the sweep returned.
    done = threading.Event()
    started = time.perf_counter()

    def work():
        perfmodel.sweep("vgg16", ["t4", "v100", "a100", "h100"], batch=range(1, 65),
                        dtype=["fp32", "fp16"], pass_=["fwd", "train"])
        done.set()
    t = threading.Thread(target=work)
    t.start()
    ticks, last, longest = 0, time.perf_counter(), 0.0
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
        ticks += 1
        time.sleep(0.001)
    t.join()
    took = time.perf_counter() - started
    if took < 0.05:
        pytest.skip(f"the sweep took {took * 1e3:.1f} ms: too short to tell")
    assert longest < 0.5 * took, (longest, took, ticks)


def test_extrapolating_calibration_warns_as_the_cli(root):
    cal = os.path.join(root, "test/golden/predict_calibration_extrapolates/v100-trace.yaml")
    with open(os.path.join(root, "test/golden/predict_calibration_extrapolates/expected.err")) as f:
        cli_line = f.read().strip()
    with pytest.warns(perfmodel.ExtrapolationWarning) as caught:
        p = perfmodel.predict("resnet50", "v100", pass_="train", calibration=cal)
    assert p.calibrated
    # the CLI's stderr line, its "warning: " being the warning's category here
    assert cli_line.replace("predict: warning: ", "predict: ", 1) in [str(w.message)
                                                                     for w in caught]


def test_error_messages_escape_control_bytes():
    with pytest.raises(perfmodel.InputError) as e:
        perfmodel.predict("no\x1b[31mmodel\r.yaml", "v100")
    message = str(e.value)
    assert "\x1b" not in message and "\r" not in message
    assert "\\x1b" in message
