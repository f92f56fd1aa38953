# Type stubs of the perfmodel package (docs/python.md).
import os
from typing import Any, Iterator, Mapping, Sequence, Union

import pandas

PathLike = Union[str, os.PathLike[str]]
ModelArg = Union[PathLike, bytes, bytearray, memoryview]
HwArg = Union[PathLike, Mapping[str, Any]]

__version__: str

class InputError(ValueError): ...
class RuntimeFailure(RuntimeError): ...
class ExtrapolationWarning(UserWarning): ...

class Record:
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, name: str) -> Any: ...
    def __contains__(self, name: object) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def keys(self) -> Any: ...
    def to_dict(self) -> dict[str, Any]: ...

class Result:
    schema: str
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, name: str) -> Any: ...
    def __contains__(self, name: object) -> bool: ...
    def keys(self) -> Any: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def to_pandas(self, table: str | None = ...) -> pandas.DataFrame: ...

class Prediction(Result):
    model: Record
    hardware: Record
    calibrated: bool
    power_watts: float
    execution: Record
    memory: Record
    op_types: list[Record]
    bounds: list[Record]
    layers: list[Record]
    totals: Record
    gemm_totals: Record
    profile: list[Record]

class Sweep(Result):
    model: str
    evaluated: int
    skipped: int
    points: list[Record]

class Trace(Result):
    file: str

class Kernels(Result):
    hardware: str
    calibration: str | None
    rows: list[Record]
    summary: Record

class Llm(Result):
    model: str
    model_type: str
    hardware: str
    batch: int
    prompt: int
    generate: int
    parameters: int
    memory: Record
    prefill: Record
    decode: Record
    ttft_seconds: float
    e2e_seconds: float

class Hardware(Result): ...

class Listing(Result):
    items: list[Record]
    @property
    def names(self) -> list[str]: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...

def predict(model: ModelArg, hw: HwArg, batch: int | None = ..., dtype: str | None = ...,
            pass_: str = ..., calibration: PathLike | None = ..., *, fusion: str = ...,
            power: float | None = ..., runtime: float | None = ...,
            dims: Mapping[str, int] | None = ...,
            calibration_for_other_hardware: bool = ..., layout: str = ...) -> Prediction: ...
def report(model: ModelArg, hw: HwArg, output: PathLike | None = ..., *,
           batch: int | None = ..., dtype: str | None = ..., pass_: str = ...,
           calibration: PathLike | None = ..., fusion: str = ..., power: float | None = ...,
           measured: PathLike | None = ..., trace: PathLike | None = ..., top: int = ...,
           trace_top: int = ..., calibration_for_other_hardware: bool = ...) -> str: ...
def sweep(model: ModelArg, hw: HwArg | Sequence[HwArg], batch: int | Sequence[int] = ...,
          dtype: str | Sequence[str] | None = ..., pass_: str | Sequence[str] = ...,
          calibration: PathLike | None = ..., *, fusion: str = ..., sort: str | None = ...,
          dims: Mapping[str, int] | None = ...,
          calibration_for_other_hardware: bool = ...,
          prompt: int | Sequence[int] | None = ..., generate: int | Sequence[int] | None = ...,
          tp: int | Sequence[int] | None = ..., pp: int | Sequence[int] | None = ...,
          gpus: int | Sequence[int] | None = ..., kv_dtype: str | None = ...,
          attention: str = ..., comm_calibration: PathLike | None = ...) -> Sweep: ...
def llm(model: PathLike, hw: HwArg, prompt: int, generate: int, batch: int = ...,
        dtype: str = ..., *, kv_dtype: str | None = ..., attention: str = ...,
        calibration: PathLike | None = ..., per_layer: bool = ...,
        calibration_for_other_hardware: bool = ...) -> Llm: ...
def trace(path: PathLike, hw: HwArg | None = ..., *, calibration: PathLike | None = ...,
          predict_on: HwArg | None = ..., target_calibration: PathLike | None = ...,
          view: str = ..., sort: str | None = ..., top: int = ...,
          calibration_for_other_hardware: bool = ...) -> Trace: ...
def kernels(input: PathLike, hw: HwArg, calibration: PathLike | None = ..., *,
            calibration_for_other_hardware: bool = ...) -> Kernels: ...
def hardware(hw: HwArg) -> Hardware: ...
def list_hw() -> Listing: ...
def list_models() -> Listing: ...
def from_torch(module: Any, example_inputs: Any, hw: HwArg, **predict_args: Any) -> Prediction: ...
