# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""On a GPU: exact kernel times against the ground-truth spin, the loop's behaviour with Python callables, and
torch / Triton / CuPy where they are installed. Skipped (visibly) without a CUDA device."""
import inspect
import threading
import time
import warnings

import pytest

import gpuchrono
from gpuchrono._gpuchrono import _testing

pytestmark = pytest.mark.gpu
SPIN_NS = 10_000


def test_kernel_timer_reads_the_spin_within_its_launch_floor():
    _testing.spin(1_000, 0)  # load the kernel outside the timed block
    with gpuchrono.kernel_timer() as t:
        _testing.spin(SPIN_NS, 0)
    assert len(t.kernels) == 1 and "spin_kernel" in t.kernels[0]["name"]
    # The kernel runs at least its spin; CUPTI's record adds the kernel's own start-up, about 1 us on an H100.
    assert SPIN_NS <= t.duration_ns <= SPIN_NS + 3_000, t.duration_ns
    assert t.duration_ns == pytest.approx(t.kernels[0]["duration_ns"])


def test_measure_kernel_method_reaches_the_cupti_record():
    ok, why = gpuchrono.kernel_method_available()
    if not ok:
        pytest.skip(f"CUPTI unavailable: {why}")
    s = gpuchrono.measure(lambda stream: _testing.spin(SPIN_NS, stream), name="spin", method="kernel")
    assert s.method == "kernel" and len(s.samples_ns) >= 10
    with gpuchrono.kernel_timer() as t:
        _testing.spin(SPIN_NS, 0)
    assert abs(s.median_ns - t.duration_ns) <= 200, (s.median_ns, t.duration_ns)
    low, high = s.ci_ns
    assert low <= s.median_ns <= high


def test_an_exception_in_fn_propagates_and_leaves_the_loop_clean():
    calls = []

    def failing():
        calls.append(1)
        if len(calls) == 3:
            raise ValueError("raised by the user's function")
        _testing.spin(1_000, 0)

    for method in ("kernel", "graph", "event"):
        calls.clear()
        with pytest.raises(ValueError, match="raised by the user's function") as info:
            gpuchrono.measure(failing, name=f"fails {method}", method=method)
        assert "failing" in "".join(str(f.name) for f in info.traceback)
    s = gpuchrono.measure(lambda: _testing.spin(1_000, 0), name="after", method="event")  # the loop still works
    assert len(s.samples_ns) > 0


def test_other_python_threads_run_while_the_loop_waits():
    # A target no loop reaches keeps measure() sampling 2 ms spins until it gives up: the GIL must be free meanwhile.
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    start = time.perf_counter()
    try:
        gpuchrono.measure(lambda: _testing.spin(2_000_000, 0), name="long", method="event", target_width=1e-6,
                          max_time=0.5)
    finally:
        elapsed = time.perf_counter() - start
        stop.set()
        thread.join()
    # The ticker sleeps 1 ms a turn: with the GIL held through the loop's waits it would hardly run at all.
    print(f"ticker: {len(ticks)} turns in {elapsed:.3f} s of measure()")
    assert elapsed > 0.05
    assert len(ticks) >= 0.2 * elapsed / 0.001, (len(ticks), elapsed)


def test_findings_become_timing_warnings():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with gpuchrono.event_timer() as t:
            _testing.spin(2_000, 0)  # under 10x the event floor: interval-below-event-floor
    line = inspect.currentframe().f_lineno - 2  # the with-statement's
    assert any(issubclass(w.category, gpuchrono.TimingWarning) for w in caught), [str(w.message) for w in caught]
    assert t.findings and all(f["where"] == f"test_gpu.py:{line}" for f in t.findings), t.findings


def test_torch_matmul_and_stream_objects():
    torch = pytest.importorskip("torch")
    a = torch.randn(1024, 1024, device="cuda")
    b = torch.randn_like(a)
    stream = torch.cuda.Stream()
    s = gpuchrono.measure(lambda: torch.mm(a, b), name="mm", stream=stream)
    assert s.median_ns > 0 and len(s.samples_ns) >= 10
    with gpuchrono.kernel_timer(stream) as t:
        with torch.cuda.stream(stream):
            torch.mm(a, b)
    assert t.kernels and t.duration_ns > 0


def test_triton_vector_add():
    torch = pytest.importorskip("torch")
    triton = pytest.importorskip("triton")
    import triton.language as tl

    @triton.jit
    def add(x, y, out, n, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)

    x = torch.randn(1 << 20, device="cuda")
    y = torch.randn_like(x)
    out = torch.empty_like(x)
    grid = (triton.cdiv(x.numel(), 1024),)
    s = gpuchrono.measure(lambda: add[grid](x, y, out, x.numel(), BLOCK=1024), name="triton add",
                          bytes_read=8 * x.numel(), bytes_written=4 * x.numel())
    assert torch.allclose(out, x + y)
    assert s.throughput and s.throughput > 1e9


def test_cupy_stream():
    cupy = pytest.importorskip("cupy")
    x = cupy.random.rand(1 << 20, dtype=cupy.float32)
    stream = cupy.cuda.Stream(non_blocking=True)

    def work():
        with stream:
            cupy.sqrt(x)

    s = gpuchrono.measure(work, name="cupy sqrt", stream=stream, method="kernel")
    assert s.median_ns > 0


def test_a_callable_that_cannot_be_captured_is_refused_by_the_graph_method():
    torch = pytest.importorskip("torch")
    x = torch.ones(16, device="cuda")

    def synchronises():
        x.add_(1)
        torch.cuda.synchronize()  # not allowed inside a stream capture

    with pytest.raises(RuntimeError, match="captur"):
        gpuchrono.measure(synchronises, name="sync inside", method="graph")
    s = gpuchrono.measure(lambda: x.add_(1), name="after the refusal", method="graph")  # the loop is left clean
    assert len(s.samples_ns) > 0


def test_another_cupti_subscriber_makes_auto_fall_back_and_says_why():
    pytest.importorskip("torch")
    import subprocess
    import sys

    # A process of its own: CUPTI's one subscriber is taken by torch.profiler before gpuchrono asks for it.
    program = (
        "import torch, gpuchrono\n"
        "from gpuchrono._gpuchrono import _testing\n"
        "torch.zeros(1, device='cuda')\n"
        "with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]):\n"
        "    s = gpuchrono.measure(lambda stream: _testing.spin(10_000, stream), name='spin')\n"
        "    print('METHOD', s.method)\n"
        "    print('NOTE', s.record['method_note'])\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "METHOD graph" in out.stdout, out.stdout
    assert "CUPTI is taken by another tool" in out.stdout, out.stdout
