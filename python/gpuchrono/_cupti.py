# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono's hold of CUPTI from Python. CUPTI allows one subscriber per process: gpuchrono takes it only while a
kernel_timer block, a measure()/compare() by the kernel method or a hold_cupti() block runs, and gives it back when
the last ends, so torch.profiler started afterwards records every kernel. When another tool holds it (torch.profiler
running, Nsight Systems or Compute), gpuchrono falls back to another method and warns once per process."""
from __future__ import annotations

import sys
import warnings
from types import TracebackType
from typing import Optional

from . import _gpuchrono

_warned = False


def warn_unavailable(reason: str, stacklevel: int) -> None:
    """One TimingWarning per process: CUPTI could not be held, and why (the fallback itself is in the result)."""
    global _warned
    if _warned:
        return
    _warned = True
    from . import TimingWarning  # defined in the package, which imports this module

    warnings.warn(TimingWarning(f"[cupti-unavailable] gpuchrono cannot hold CUPTI: {reason}. Fix: time under "
                                "another tool with method='event' or 'graph', or end that tool's session first "
                                "(docs/python.md, \"Sharing CUPTI with torch.profiler\")"),
                  stacklevel=stacklevel + 1)


def sync_other_users() -> None:
    """Tells the library whether torch.profiler is recording: it takes CUPTI's activity buffers without taking the
    subscriber slot, so gpuchrono could set CUPTI up beside it and take its records. While it records, gpuchrono's
    kernel method is refused as when another tool holds CUPTI (automatic methods fall back and say why)."""
    torch = sys.modules.get("torch")
    recording = False
    if torch is not None:
        try:
            recording = bool(torch.autograd.profiler._is_profiler_enabled)
        except AttributeError:
            try:
                recording = bool(torch._C._autograd._profiler_enabled())
            except (AttributeError, RuntimeError):
                recording = False
    _gpuchrono._set_cupti_taken("torch.profiler is recording; it took CUPTI's activity buffers" if recording else "")


class hold_cupti:
    """`with gpuchrono.hold_cupti():` keeps gpuchrono's hold of CUPTI for the block, so that a loop of kernel_timer
    blocks or measure() calls sets CUPTI up once instead of once each; CUPTI is given back when the block ends.
    If CUPTI cannot be held, `held` is False, `why_not` says why, and a TimingWarning is issued (once per
    process); the block still runs."""

    def __init__(self) -> None:
        self._hold: Optional[_gpuchrono._CuptiHold] = None
        self._held = False
        self._why_not = ""

    def __enter__(self) -> "hold_cupti":
        sync_other_users()
        hold = _gpuchrono._CuptiHold()
        self._hold, self._held, self._why_not = hold, hold.held, hold.why_not
        if not self._held:
            warn_unavailable(self._why_not, stacklevel=2)
        return self

    def __exit__(self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        if self._hold is not None:
            self._hold.release()
            _gpuchrono._release_cupti()  # given back now, not after the library's linger

    @property
    def held(self) -> bool:
        """Whether the block took CUPTI."""
        return self._held

    @property
    def why_not(self) -> str:
        """Why CUPTI could not be held, or ''."""
        return self._why_not
