# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono for Python: CUDA work timed at the physical floor (CUPTI's own kernel records), with the same loop,
verdicts and reports as the C++ library it binds.

    import gpuchrono
    s = gpuchrono.measure(lambda: torch.mm(a, b), name="mm")      # a Series: median, CI, samples, findings
    print(s.median_ns, s.ci_ns, s.method)
    with gpuchrono.kernel_timer() as t:                            # every kernel in the block, from CUPTI
        my_triton_kernel[grid](x, y)
    print(t.duration_ns, [k["name"] for k in t.kernels])
"""
from __future__ import annotations

import inspect
import os
import sys
import warnings
from typing import Any, Callable, Iterable, Optional

from . import _gpuchrono
from ._gpuchrono import Series, __version__, device_count, no_device_reason
from ._streams import launcher, stream_handle, stream_context
from ._cupti import hold_cupti, sync_other_users as _sync_cupti_users, warn_unavailable as _warn_cupti_unavailable
from ._verdict import Verdict

__all__ = [
    "measure", "compare", "Comparison", "SequentialComparison", "kernel_timer", "event_timer", "host_timer", "write_report", "sweep",
    "Series", "TimingWarning", "NoDeviceError", "device_count", "no_device_reason", "kernel_method_available",
    "hold_cupti",
    "Verdict",
]


def kernel_method_available() -> tuple[bool, str]:
    """(True, "") if the kernel method (CUPTI's records) can be used now, else (False, why): no libcupti, or
    another tool (torch.profiler recording, Nsight) holds CUPTI. Asking sets CUPTI up and gives it back."""
    _sync_cupti_users()
    try:
        return _gpuchrono.kernel_method_available()
    finally:
        _gpuchrono._release_cupti()


class TimingWarning(UserWarning):
    """A timing pitfall the library detected in a measurement (the message says what was seen and the fix)."""


class NoDeviceError(RuntimeError):
    """No usable CUDA device (no GPU, or a driver too old for the CUDA runtime gpuchrono was built with)."""


def _require_device() -> None:
    why = no_device_reason()
    if why is not None:
        raise NoDeviceError(f"gpuchrono: no usable CUDA device: {why}")


def _warn(findings: Iterable[dict], stacklevel: int) -> None:
    # One TimingWarning per finding; Python's warning filters then show each code once per call site.
    for f in findings:
        if f["severity"] in ("warning", "error"):
            warnings.warn(TimingWarning(f"[{f['code']}] {f['message']}. Fix: {f['fix']}"), stacklevel=stacklevel + 1)


def _takes_stream(fn: Callable) -> bool:
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    except (TypeError, ValueError):  # builtins without a signature: call them without the stream
        return False
    return len(params) >= 1


def _series_properties() -> None:
    def median_ns(self: Series) -> float:
        samples = self.samples_ns
        return float(_median(samples)) if len(samples) else float("nan")

    def ci_ns(self: Series) -> Optional[tuple]:
        r = self.record
        return (r["ci_low_ns"], r["ci_high_ns"]) if r else None

    def method(self: Series) -> Optional[str]:
        r = self.record
        return r["method"] if r else None

    def throughput(self: Series) -> Optional[float]:
        r = self.record
        return r["bytes_per_second"] if r and r["bytes_per_second"] == r["bytes_per_second"] else None

    Series.median_ns = property(median_ns, doc="median of the samples, ns")
    Series.ci_ns = property(ci_ns, doc="the confidence interval of the median measure() stopped on, ns")
    Series.method = property(method, doc="the method measure() used: kernel, graph, event or host")
    Series.throughput = property(throughput, doc="declared bytes per second at the median, if bytes were declared")


def _median(values) -> float:
    ordered = sorted(float(v) for v in values)
    n = len(ordered)
    return ordered[n // 2] if n % 2 else 0.5 * (ordered[n // 2 - 1] + ordered[n // 2])


_series_properties()


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _caller_where() -> str:
    """The user's line that called into the package, "script.py:12": the first frame outside this package, which
    findings name as their place (a C++ source location cannot hold a Python line)."""
    frame = sys._getframe(1)
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return ""
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"


def measure(fn: Callable, name: str = "measure", stream: Any = None, method: str = "auto", cache: str = "warm",
            target_width: float = 0.01, max_time: float = 2.0, bytes_read: int = 0, bytes_written: int = 0) -> Series:
    """Times `fn` until the 95% confidence interval of its median is narrower than `target_width` (or `max_time`
    seconds of sampling pass). `fn` launches GPU work on the stream it is given (a callable of one argument gets the
    stream's handle, an int) or on the current stream; torch's current stream is set to `stream` around each call.
    method: "auto" (CUPTI kernel records where available, else a CUDA graph of calls), "kernel", "graph", "event",
    "host". cache: "warm", or "cold" (the L2 is flushed before each call, outside the timed interval).
    Returns a Series: samples_ns (NumPy), median_ns, ci_ns, method, findings; findings are also issued as
    TimingWarning. An exception raised by `fn` propagates with its traceback."""
    if not callable(fn):
        raise TypeError(f"gpuchrono.measure: fn must be callable, not {type(fn).__name__}")
    if not isinstance(name, str) or not name:
        raise ValueError("gpuchrono.measure: name must be a non-empty string")
    _gpuchrono._check_options(method, cache, float(target_width), float(max_time))
    if int(bytes_read) < 0 or int(bytes_written) < 0:
        raise ValueError("gpuchrono.measure: bytes_read and bytes_written must be >= 0")
    handle = stream_handle(stream)
    _require_device()
    pass_stream = _takes_stream(fn)
    where = _caller_where()

    call = launcher(fn, pass_stream)
    _sync_cupti_users()
    with stream_context(stream):
        series = _gpuchrono._measure(call, name, handle, method, cache, float(target_width),
                                     float(max_time), int(bytes_read), int(bytes_written), where)
    _gpuchrono._release_cupti()  # given back now, not after the library's linger: a profiler may start next
    _warn(series._summary_findings(where), stacklevel=2)  # the measurements' findings, one per code, and the series'
    _note_kernel_fallback(series, method)
    return series


def _note_kernel_fallback(series: Series, method: str) -> None:
    # "auto" fell back from the kernel method (CUPTI held by another tool, or missing): said once per process.
    record = series.record
    note = record.get("method_note", "") if record else ""
    if method == "auto" and "no kernel method (" in note:
        _warn_cupti_unavailable(note, stacklevel=3)


class Comparison:
    """compare()'s verdict (a Verdict: "faster", "slower", "no_difference" or "inconclusive"), the relative change
    of b against a (Hodges-Lehmann) with its confidence interval, the rank test's p value, and the reason in words."""

    def __init__(self, d: dict):
        self.verdict: Verdict = Verdict._from_library(d["verdict"])
        self.change: float = d["change"]
        self.ci: tuple = (d["change_low"], d["change_high"])
        self.p_value: float = d["p_value"]
        self.median_a_ns: float = d["median_a_ns"]
        self.median_b_ns: float = d["median_b_ns"]
        self.reason: str = d["reason"]

    def __repr__(self) -> str:
        return f"<gpuchrono.Comparison {self.verdict}: {self.reason}>"


class SequentialComparison:
    """compare(fn_a, fn_b)'s verdict (a Verdict: "faster", "slower", "no_difference" or "inconclusive"), the
    relative change of b against a with its anytime-valid interval (ci, which decided the verdict), the plain
    interval of the samples taken (plain_change, plain_ci: what the effect is, at the end only), the looks and
    samples it took, each side's drift across the comparison, the wall time, and the reason in words."""

    def __init__(self, d: dict):
        self.verdict: Verdict = Verdict._from_library(d["verdict"])
        self.change: float = d["change"]
        self.ci: tuple = (d["change_low"], d["change_high"])
        self.plain_change: float = d["plain_change"]
        self.plain_ci: tuple = (d["plain_low"], d["plain_high"])
        self.looks: int = d["looks"]
        self.samples: tuple = (d["samples_a"], d["samples_b"])
        self.median_a_ns: float = d["median_a_ns"]
        self.median_b_ns: float = d["median_b_ns"]
        self.drift: tuple = (d["drift_a"], d["drift_b"])
        self.wall_time: float = d["wall_time_s"]
        self.method: str = d["method"]
        self.reason: str = d["reason"]
        self.notes: list = d["notes"]
        self.text: str = d["text"]

    def __repr__(self) -> str:
        return f"<gpuchrono.SequentialComparison {self.verdict}: {self.reason}>"


def _compare_fns(fn_a: Callable, fn_b: Callable, threshold: float, max_time: float, stream: Any, method: str,
                 cache: str, confidence: float) -> SequentialComparison:
    _require_device()
    handle = stream_handle(stream)
    call_a = launcher(fn_a, _takes_stream(fn_a))
    call_b = launcher(fn_b, _takes_stream(fn_b))
    where = _caller_where()
    _sync_cupti_users()
    with stream_context(stream):
        d = _gpuchrono._compare_fns(call_a, call_b, handle, method, cache, float(threshold), float(confidence),
                                    float(max_time), where)
    _gpuchrono._release_cupti()
    return SequentialComparison(d)


def compare(a, b, threshold: float = 0.01, max_time: float = 2.0, stream: Any = None, method: str = "auto",
            cache: str = "warm", confidence: float = 0.99):
    """Is b faster than a?
    Two Series (measured apart): the verdict of a rank test and a Hodges-Lehmann shift with its CI (1% threshold;
    the other arguments do not apply). Returns a Comparison.
    Two callables: they run interleaved in random ABBA/BAAB blocks on one stream until an anytime-valid confidence
    sequence for the change lies inside +-threshold, above 0 or below 0, or max_time seconds of sampling pass
    (then "inconclusive"); A/A says faster or slower at most 1 - confidence of the time. Returns a
    SequentialComparison. A callable that launches nothing or on another stream raises ValueError; an exception it
    raises propagates with its traceback."""
    if callable(a) and callable(b) and not isinstance(a, Series) and not isinstance(b, Series):
        return _compare_fns(a, b, threshold, max_time, stream, method, cache, confidence)
    for label, s in (("a", a), ("b", b)):
        if not isinstance(s, Series):
            raise TypeError(f"gpuchrono.compare: {label} must be a gpuchrono.Series, not {type(s).__name__}")
    return Comparison(_gpuchrono._compare(a, b))


def sweep(fn: Callable, values: Iterable, name: str = "sweep", **measure_args) -> list:
    """measure() once per value: fn(value) (or fn(value, stream)) launches the work for that value; the series are
    named "<name>/<value>". Returns the list of Series, in order."""
    out = []
    for v in values:
        takes_two = False
        try:
            takes_two = len(inspect.signature(fn).parameters) >= 2
        except (TypeError, ValueError):
            pass
        call = (lambda s, v=v: fn(v, s)) if takes_two else (lambda v=v: fn(v))
        out.append(measure(call, name=f"{name}/{v}", **measure_args))
    return out


def write_report(series, folder: str) -> list:
    """Writes the same report files as the C++ library (report.txt, report.json, CSV tables, SVGs, a Chrome trace,
    index.html) for one Series or several into `folder`; returns the paths written."""
    items = [series] if isinstance(series, Series) else list(series)
    for s in items:
        if not isinstance(s, Series):
            raise TypeError(f"gpuchrono.write_report: expected Series, got {type(s).__name__}")
    names = [s.name for s in items]
    if len(set(names)) != len(names):
        raise ValueError(f"gpuchrono.write_report: two series share a name: {names}")
    return _gpuchrono._write_report(items, str(folder))


class _Timer:
    _impl_type = None

    def __init__(self, stream: Any = None):
        self._stream = stream
        if type(self)._impl_type is _gpuchrono._KernelTimer:
            _sync_cupti_users()  # the kernel timer takes its hold of CUPTI when made
        self._impl = type(self)._impl_type(stream_handle(stream))
        self._context = None

    def __enter__(self):
        _require_device()
        self._context = stream_context(self._stream)
        self._context.__enter__()
        self._impl._enter(_caller_where())
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            self._impl._exit()
        finally:
            self._context.__exit__(exc_type, exc, tb)
            if isinstance(self, kernel_timer):
                _gpuchrono._release_cupti()
        if exc_type is None:
            _warn(self.findings, stacklevel=2)
        return False

    duration_ns = property(lambda self: self._impl.duration_ns, doc="the measured time, ns (NaN if it failed)")
    error = property(lambda self: self._impl.error, doc="why the measurement failed, or ''")
    findings = property(lambda self: self._impl.findings, doc="the timing pitfalls detected (dicts)")


class kernel_timer(_Timer):
    """`with gpuchrono.kernel_timer(stream) as t:` times the kernels (and copies, sets) launched on the stream
    inside the block from CUPTI's records: t.duration_ns (GPU busy time), t.span_ns, t.kernels (name, start_ns,
    end_ns, duration_ns of each), t.findings."""
    _impl_type = _gpuchrono._KernelTimer
    span_ns = property(lambda self: self._impl.span_ns)
    kernels = property(lambda self: self._impl.kernels)


class event_timer(_Timer):
    """A CUDA event pair on the stream around the block."""
    _impl_type = _gpuchrono._EventTimer


class host_timer(_Timer):
    """The host clock around the block, the stream synchronised at both ends."""
    _impl_type = _gpuchrono._HostTimer


from . import testing  # noqa: E402  (gpuchrono.testing needs the names above)
