"""perfmodel: an analytic performance model of neural networks, from Python.

The functions call the library the ``perfmodel`` command line uses and return its answer for
the same arguments: ``result.to_dict()`` equals ``perfmodel <command> ... --format json``, the
JSON's fields are attributes, ``result.to_pandas()`` gives the result's table. ``model`` takes a
path (.yaml or .onnx), a shipped name (``"resnet50"``), or ONNX bytes; ``hw`` a path, a shipped
name (``"a100"``) or a dict of the hardware YAML's fields (docs/formats.md). Bad input raises
``InputError`` (a ``ValueError``) with the command line's one-line message and its location;
failures raise ``RuntimeFailure`` (a ``RuntimeError``). See docs/python.md.

    >>> import perfmodel
    >>> p = perfmodel.predict("resnet50", "a100", batch=8, dtype="fp16")
    >>> p.totals.predicted_seconds, p.to_pandas()[["name", "bound"]].head()
"""
import json as _json
import os as _os
import warnings as _warnings

from . import _paths
from ._perfmodel import HwArg as _HwArg
from ._perfmodel import InputError, RuntimeFailure
from ._perfmodel import version as __version__
from . import _perfmodel as _native
from ._results import (Hardware, Kernels, Listing, Llm, Prediction, Record, Result, Sweep,
                       Trace)

__all__ = [
    "predict", "report", "sweep", "llm", "trace", "kernels", "hardware", "list_hw", "list_models",
    "from_torch", "InputError", "RuntimeFailure", "ExtrapolationWarning", "Result",
    "Prediction", "Sweep", "Trace", "Kernels", "Llm", "Hardware", "Listing", "Record",
]

InputError.__module__ = RuntimeFailure.__module__ = "perfmodel"

if _paths.SHARE_DIR:  # an installed package: the specs and models of its prefix
    _native.set_share_root(_paths.SHARE_DIR)


class ExtrapolationWarning(UserWarning):
    """A calibration prices layers far outside the sizes it was fitted on (the CLI's
    ``warning: calibration extrapolates`` lines)."""


def _warn(command, lines):
    for line in lines:
        _warnings.warn(f"{command}: calibration extrapolates: {line}", ExtrapolationWarning,
                       stacklevel=3)


def _hw(hw, argument="hw"):
    """A hardware argument for the native part: a path or name, or a dict of YAML fields."""
    if isinstance(hw, dict):
        # JSON is YAML: the library's YAML reader checks the fields, and its messages point
        # into this text, named after the argument.
        return _HwArg(f"<{argument} dict>", _json.dumps(hw, indent=2))
    if isinstance(hw, (str, _os.PathLike)):
        return _HwArg(_os.fspath(hw))
    raise TypeError(f"{argument}: expected a path, a shipped name or a dict of the hardware "
                    f"YAML's fields, got {type(hw).__name__}")


def _model(model):
    """(spec, bytes): a path or name, or ONNX bytes named '<onnx bytes>' in messages."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        return "<onnx bytes>", bytes(model)
    if isinstance(model, (str, _os.PathLike)):
        return _os.fspath(model), None
    raise TypeError(f"model: expected a path, a shipped name or ONNX bytes, got "
                    f"{type(model).__name__}")


def _opt(value):
    return "" if value is None else _os.fspath(value)


def predict(model, hw, batch=None, dtype=None, pass_="fwd", calibration=None, *,
            fusion="none", power=None, runtime=None, dims=None,
            calibration_for_other_hardware=False, layout="nchw"):
    """Per-layer FLOPs, bytes, time, bound and energy of ``model`` on ``hw``
    (``perfmodel predict``).

    batch: dim 0 of every input (None: the model's own). dtype: "fp32", "fp16", "bf16", "tf32",
    "fp8", "int8", "fp64" or an alias, any case (None: the model's own). pass_: "fwd" or
    "train". calibration: a path or name in calibration/ (None: the roofline). fusion: "none"
    or "inference". power (W) and runtime (s): as --power and --runtime. dims: symbolic ONNX
    dims, {"seq": 128}. layout: "nchw" or "nhwc" ("channels-last"), as --layout: the layout
    conversions a GPU calibration charges (CPU calibrations ignore it).
    """
    spec, data = _model(model)
    text, warns = _native.predict(spec, data, _hw(hw), batch, _opt(dtype), pass_, fusion,
                                  _opt(calibration), calibration_for_other_hardware, power,
                                  runtime, dict(dims or {}), layout)
    _warn("predict", warns)
    return Prediction(text)


def report(model, hw, output=None, *, batch=None, dtype=None, pass_="fwd", calibration=None,
           fusion="none", power=None, measured=None, trace=None, top=15, trace_top=10,
           calibration_for_other_hardware=False):
    """The self-contained HTML page of ``perfmodel report`` (summary, profile, roofline, layer
    table; measured times from ``measure --format json`` output and a profiler trace where
    given). Returns the page as a str and, with ``output``, also writes it there atomically.
    """
    spec, data = _model(model)
    html, warns, unmatched = _native.report(
        spec, data, _hw(hw), batch, _opt(dtype), pass_, fusion, _opt(calibration),
        calibration_for_other_hardware, power, _opt(measured), _opt(trace), top, trace_top,
        _opt(output))
    _warn("report", warns)
    if unmatched:
        _warnings.warn(f"{len(unmatched)} measured layer(s) of {measured} match no layer "
                       f"(first: {unmatched[0]})", stacklevel=2)
    return html


def _axis(values):
    if values is None:
        return []
    if isinstance(values, (str, bytes, dict, _os.PathLike)) or not hasattr(values, "__iter__"):
        return [values]
    return list(values)


def sweep(model, hw, batch=(1,), dtype=None, pass_="fwd", calibration=None, *,
          fusion="none", sort=None, dims=None, calibration_for_other_hardware=False,
          prompt=None, generate=None, tp=None, pp=None, gpus=None, kv_dtype=None,
          attention="flash", comm_calibration=None):
    """Every combination of hardware, data type, batch and pass (``perfmodel sweep``).

    hw, batch, dtype and pass_ each take one value or a list; dtype None: the model's own.
    sort: a sweep sort key (latency, throughput, energy_per_sample, ...), best first.

    With ``prompt`` (a language model: a config.json or a name in models/llm/) every
    combination of hardware, dtype (default fp16), split (tp x pp, or gpus), prompt, generate
    and batch served, as ``perfmodel sweep --prompt``: schema perfmodel.llm_sweep/1; sort:
    ttft, tpot, e2e, throughput, throughput_request, throughput_per_gpu, memory, max_batch, ...
    """
    if prompt is not None or generate is not None:
        if prompt is None or generate is None:
            raise InputError("the sweep of a language model needs prompt and generate")
        if pass_ not in ("fwd", None) or fusion != "none" or dims:
            raise InputError("pass_, fusion and dims: not for the sweep of a language model")
        return Sweep(_native.llm_sweep(
            _os.fspath(model), [_hw(h) for h in _axis(hw)], [int(b) for b in _axis(batch)],
            [int(p) for p in _axis(prompt)], [int(g) for g in _axis(generate)],
            [int(t) for t in _axis(tp)], [int(p) for p in _axis(pp)],
            [int(g) for g in _axis(gpus)], _axis(dtype), _opt(kv_dtype), attention,
            _opt(calibration), calibration_for_other_hardware, _opt(comm_calibration),
            _opt(sort)))
    spec, data = _model(model)
    text, warns = _native.sweep(spec, data, [_hw(h) for h in _axis(hw)],
                                [int(b) for b in _axis(batch)], _axis(dtype), _axis(pass_),
                                fusion, _opt(calibration), calibration_for_other_hardware,
                                _opt(sort), dict(dims or {}))
    _warn("sweep", warns)
    return Sweep(text)


def llm(model, hw, prompt, generate, batch=1, dtype="fp16", *, kv_dtype=None,
        attention="flash", calibration=None, per_layer=False,
        calibration_for_other_hardware=False):
    """A decoder-only LLM (a HuggingFace config.json or a name in models/llm/) served on
    ``hw`` (``perfmodel llm``): memory, max batch, TTFT, TPOT, tokens/s."""
    return Llm(_native.llm(_os.fspath(model), _hw(hw), batch, prompt, generate, dtype,
                           _opt(kv_dtype), attention, _opt(calibration),
                           calibration_for_other_hardware, per_layer))


def trace(path, hw=None, *, calibration=None, predict_on=None, target_calibration=None,
          view="all", sort=None, top=10, calibration_for_other_hardware=False):
    """A torch.profiler trace (.json or .json.gz) read as ``perfmodel trace`` reads it: step
    overview, operator and kernel tables, and with ``hw`` each operator's roofline attainment.
    top: rows per table (0 = all)."""
    return Trace(_native.trace(_os.fspath(path), None if hw is None else _hw(hw),
                               _opt(calibration),
                               None if predict_on is None else _hw(predict_on, "predict_on"),
                               _opt(target_calibration), calibration_for_other_hardware, view,
                               _opt(sort), top))


def kernels(input, hw, calibration=None, *, calibration_for_other_hardware=False):
    """Every kernel run of a measurement CSV predicted on ``hw`` and compared with its measured
    time (``perfmodel kernels``)."""
    return Kernels(_native.kernels(_os.fspath(input), _hw(hw), _opt(calibration),
                                   calibration_for_other_hardware))


def hardware(hw):
    """A hardware spec's compute ceilings, memory levels and ridge points
    (``perfmodel info --hw``)."""
    return Hardware(_native.hardware(_hw(hw)))


def list_hw():
    """The shipped hardware specs (``perfmodel list hw``); iterating gives the names."""
    return Listing(_native.list("hw"))


def list_models():
    """The shipped models (``perfmodel list models``); iterating gives the names."""
    return Listing(_native.list("models"))


def from_torch(module, example_inputs, hw, **predict_args):
    """Predicts a ``torch.nn.Module`` on ``hw``: exports it with torch.onnx.export into memory
    and predicts the ONNX bytes (no file is written). ``example_inputs``: a tensor or a tuple of
    the forward's arguments; ``predict_args``: as predict() (batch defaults to the example's).
    The module itself is left as it was. Needs PyTorch."""
    from ._torch import export_onnx_bytes
    data, batch = export_onnx_bytes(module, example_inputs)
    predict_args.setdefault("batch", batch)
    spec = f"<torch {type(module).__name__}>"
    text, warns = _native.predict(
        spec, data, _hw(hw), predict_args.pop("batch"), _opt(predict_args.pop("dtype", None)),
        predict_args.pop("pass_", "fwd"), predict_args.pop("fusion", "none"),
        _opt(predict_args.pop("calibration", None)),
        predict_args.pop("calibration_for_other_hardware", False),
        predict_args.pop("power", None), predict_args.pop("runtime", None),
        dict(predict_args.pop("dims", None) or {}), predict_args.pop("layout", "nchw"))
    if predict_args:
        raise TypeError(f"from_torch: unexpected arguments {', '.join(predict_args)}")
    _warn("predict", warns)
    return Prediction(text)
