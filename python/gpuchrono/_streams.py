# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Which stream a user means: torch.cuda.Stream, CuPy streams, anything with the CUDA Python __cuda_stream__
protocol, or a raw int handle (None: the current torch stream when torch is loaded, else the legacy default
stream, 0)."""
from __future__ import annotations

import contextlib
import sys
from typing import Any

ACCEPTED = ("a torch.cuda.Stream, a CuPy stream, an object with __cuda_stream__ (the CUDA Python stream "
            "protocol), an int stream handle, or None")


def stream_handle(stream: Any) -> int:
    if stream is None:
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
            return int(torch.cuda.current_stream().cuda_stream)
        return 0
    if isinstance(stream, bool):
        raise TypeError(f"gpuchrono: a stream must be {ACCEPTED}; got a bool")
    if isinstance(stream, int):
        if stream < 0:
            raise ValueError(f"gpuchrono: a stream handle must be >= 0, got {stream}")
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        value = protocol() if callable(protocol) else protocol
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], int):
            return value[1]
        raise TypeError(f"gpuchrono: {type(stream).__name__}.__cuda_stream__ returned {value!r}, not (version, handle)")
    for attribute in ("cuda_stream", "ptr"):  # torch.cuda.Stream, cupy.cuda.Stream
        value = getattr(stream, attribute, None)
        if isinstance(value, int):
            return value
    raise TypeError(f"gpuchrono: a stream must be {ACCEPTED}; got {type(stream).__module__}.{type(stream).__name__}")


def stream_context(stream: Any):
    """torch's current stream set to `stream` (a torch.cuda.Stream) while the library calls the user's function,
    so torch ops launch where they are timed; a no-op for other streams."""
    torch = sys.modules.get("torch")
    if torch is not None and stream is not None and isinstance(stream, torch.cuda.Stream):
        return torch.cuda.stream(stream)
    return contextlib.nullcontext()


def launcher(fn, pass_stream: bool):
    """fn as the library calls it, with the handle of the stream the work must go to: measure()'s graph method
    captures on a stream of its own. A callable that takes no stream launches on torch's or CuPy's current
    stream, so that stream is made current around the call (an ExternalStream over the handle, made once each)."""
    externals = {}

    def current_streams(handle: int):
        stack = contextlib.ExitStack()
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
            if ("torch", handle) not in externals:
                externals[("torch", handle)] = (torch.cuda.ExternalStream(handle) if handle
                                                else torch.cuda.default_stream())
            stack.enter_context(torch.cuda.stream(externals[("torch", handle)]))
        cupy = sys.modules.get("cupy")
        if cupy is not None and handle:
            if ("cupy", handle) not in externals:
                externals[("cupy", handle)] = cupy.cuda.ExternalStream(handle)
            stack.enter_context(externals[("cupy", handle)])
        return stack

    def call(handle: int):
        with current_streams(handle):
            return fn(handle) if pass_stream else fn()

    return call
