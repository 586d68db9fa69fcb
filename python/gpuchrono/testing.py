# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""pytest helpers: each raises AssertionError with the message the C++ check prints (what was measured)."""
from __future__ import annotations

from . import _gpuchrono
from ._gpuchrono import Series


def _series(s, label):
    if not isinstance(s, Series):
        raise TypeError(f"{label} must be a gpuchrono.Series, not {type(s).__name__}")
    return s


def _sequential(base, candidate, options):
    from . import compare
    return compare(base, candidate, **options)


def assert_not_slower(base, candidate, **options) -> None:
    """Fails only when compare()'s verdict is "slower" (a significant change of at least 1%). base and candidate:
    two Series, or two callables compared interleaved (options as gpuchrono.compare takes them)."""
    if callable(base) and callable(candidate) and not isinstance(base, Series) and not isinstance(candidate, Series):
        c = _sequential(base, candidate, options)
        if c.verdict == "slower":
            raise AssertionError(f"candidate is slower than base: {c.text}")
        return
    ok, message = _gpuchrono._check("not_slower", _series(base, "base"), _series(candidate, "candidate"))
    if not ok:
        raise AssertionError(message)


def assert_faster(base, candidate, **options) -> None:
    """Fails unless compare()'s verdict is "faster". base and candidate: two Series, or two callables."""
    if callable(base) and callable(candidate) and not isinstance(base, Series) and not isinstance(candidate, Series):
        c = _sequential(base, candidate, options)
        if c.verdict != "faster":
            raise AssertionError(f"candidate is not shown faster than base: {c.text}")
        return
    ok, message = _gpuchrono._check("faster", _series(base, "base"), _series(candidate, "candidate"))
    if not ok:
        raise AssertionError(message)


def assert_no_findings(series: Series) -> None:
    """Fails when the series carries a warning-level timing pitfall."""
    ok, message = _gpuchrono._check("no_findings", _series(series, "series"))
    if not ok:
        raise AssertionError(message)
