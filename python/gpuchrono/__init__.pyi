# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The public API's types, checked against the package by mypy's stubtest in CI (scripts/python-check).
import contextlib
from types import TracebackType
from typing import Any, Callable, Iterable, Optional, Union, overload

from . import testing as testing
from ._gpuchrono import (
    Series as Series,
    __version__ as __version__,
    device_count as device_count,
    no_device_reason as no_device_reason,
)
from ._verdict import Verdict as Verdict

def kernel_method_available() -> tuple[bool, str]: ...

__all__ = [
    "measure", "compare", "Comparison", "SequentialComparison", "kernel_timer", "event_timer", "host_timer",
    "write_report", "sweep", "Series", "Verdict", "TimingWarning", "NoDeviceError", "device_count",
    "no_device_reason", "kernel_method_available", "hold_cupti",
]

# A stream: a torch.cuda.Stream, a CuPy stream, an object with __cuda_stream__, an int handle, or None.
Stream = Any
# Work to time: fn() launches on the current stream, fn(handle) on the stream whose handle (an int) it is given.
Work = Union[Callable[[], object], Callable[[int], object]]

class TimingWarning(UserWarning): ...
class NoDeviceError(RuntimeError): ...

def measure(fn: Work, name: str = "measure", stream: Stream = None, method: str = "auto", cache: str = "warm",
            target_width: float = 0.01, max_time: float = 2.0, bytes_read: int = 0,
            bytes_written: int = 0) -> Series: ...

class Comparison:
    verdict: Verdict
    change: float
    ci: tuple[float, float]
    p_value: float
    median_a_ns: float
    median_b_ns: float
    reason: str
    def __init__(self, d: dict[str, Any]) -> None: ...

class SequentialComparison:
    verdict: Verdict
    change: float
    ci: tuple[float, float]
    plain_change: float
    plain_ci: tuple[float, float]
    looks: int
    samples: tuple[int, int]
    median_a_ns: float
    median_b_ns: float
    drift: tuple[float, float]
    wall_time: float
    method: str
    reason: str
    notes: list[str]
    text: str
    def __init__(self, d: dict[str, Any]) -> None: ...

# Two Series: the two-Series comparison; two callables: the interleaved one.
@overload
def compare(a: Series, b: Series, threshold: float = 0.01, max_time: float = 2.0, stream: Stream = None,
            method: str = "auto", cache: str = "warm", confidence: float = 0.99) -> Comparison: ...
@overload
def compare(a: Work, b: Work, threshold: float = 0.01, max_time: float = 2.0, stream: Stream = None,
            method: str = "auto", cache: str = "warm", confidence: float = 0.99) -> SequentialComparison: ...
def sweep(fn: Callable[..., object], values: Iterable[Any], name: str = "sweep",
          **measure_args: Any) -> list[Series]: ...
def write_report(series: Union[Series, Iterable[Series]], folder: str) -> list[str]: ...

class _Timer:
    def __init__(self, stream: Stream = None) -> None: ...
    def __enter__(self) -> "_Timer": ...
    def __exit__(self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> bool: ...
    @property
    def duration_ns(self) -> float: ...
    @property
    def error(self) -> str: ...
    @property
    def findings(self) -> list[dict[str, str]]: ...

class kernel_timer(_Timer):
    def __enter__(self) -> "kernel_timer": ...
    @property
    def span_ns(self) -> Optional[float]: ...
    @property
    def kernels(self) -> list[dict[str, Any]]: ...

class event_timer(_Timer):
    def __enter__(self) -> "event_timer": ...

class host_timer(_Timer):
    def __enter__(self) -> "host_timer": ...

class hold_cupti:
    """Keeps gpuchrono's hold of CUPTI for a `with` block, so a loop of timers sets CUPTI up once; given back at
    the end. `held` False and `why_not` set when another tool holds CUPTI (a TimingWarning once per process)."""

    def __init__(self) -> None: ...
    def __enter__(self) -> "hold_cupti": ...
    def __exit__(self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None: ...
    @property
    def held(self) -> bool: ...
    @property
    def why_not(self) -> str: ...
