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
