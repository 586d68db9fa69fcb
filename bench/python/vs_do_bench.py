# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono.measure against triton.testing.do_bench, do_bench_cudagraph and torch.utils.benchmark, side by side in
one run on one GPU, for a 10 us spin (ground truth: it spins until %globaltimer advanced by 10 us), a torch matmul
and a Triton vector add. For each: the median each method reports, its bias against the CUPTI record of the same
kernel (gpuchrono.kernel_timer, the floor any whole-kernel method can reach), and the wall time each method took.
    python3 bench/python/vs_do_bench.py       (needs torch, triton and a CUDA device)"""
import statistics
import subprocess
import time

import torch
import triton
import triton.language as tl
import triton.testing
import torch.utils.benchmark as tbench

import gpuchrono
from gpuchrono._gpuchrono import _testing


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)


def cupti_record_ns(fn, stream, repeats=50):
    """The median of CUPTI's own records of fn's kernels (their busy time), one kernel_timer scope per call."""
    values = []
    for _ in range(repeats):
        with gpuchrono.kernel_timer(stream) as t:
            fn()
        values.append(t.duration_ns)
    return statistics.median(values)


def measured(fn, name, stream):
    s = gpuchrono.measure(fn, name=name, stream=stream)
    print(f"    (gpuchrono.measure used the {s.method} method: {s.record['method_note']})")
    return s.median_ns


def timed(label, run):
    start = time.perf_counter()
    median_ns = run()
    return label, median_ns, time.perf_counter() - start


def main():
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip()
    print(f"device: {smi}; torch {torch.__version__}, triton {triton.__version__}, gpuchrono {gpuchrono.__version__}")
    stream = torch.cuda.Stream()
    a = torch.randn(4096, 4096, device="cuda")
    b = torch.randn_like(a)
    x = torch.randn(1 << 24, device="cuda")
    y = torch.randn_like(x)
    out = torch.empty_like(x)
    grid = (triton.cdiv(x.numel(), 1024),)
    cases = {
        # On torch's current stream at each call, so that do_bench_cudagraph's capture stream records it too.
        "spin 10 us": lambda: _testing.spin(10_000, torch.cuda.current_stream().cuda_stream),
        "torch mm 4096": lambda: torch.mm(a, b),
        "triton add 16M": lambda: add_kernel[grid](x, y, out, x.numel(), BLOCK=1024),
    }
    # Warm every case once (compilation, module loading, clocks) outside any timing.
    with torch.cuda.stream(stream):
        for fn in cases.values():
            for _ in range(20):
                fn()
    torch.cuda.synchronize()

    print(f"\n{'kernel':<16} {'method':<34} {'median':>12} {'bias vs CUPTI':>14} {'wall':>9}")
    for name, fn in cases.items():
        with torch.cuda.stream(stream):
            floor = cupti_record_ns(fn, stream)
            rows = [
                timed("gpuchrono.measure (auto, 1% CI)", lambda: measured(fn, name, stream)),
                timed("triton do_bench (median)",
                      lambda: triton.testing.do_bench(fn, return_mode="median") * 1e6),
                timed("triton do_bench_cudagraph (median)",
                      lambda: triton.testing.do_bench_cudagraph(fn, return_mode="median") * 1e6),
                timed("torch blocked_autorange (median)",
                      lambda: tbench.Timer(stmt="fn(); torch.cuda.synchronize()", globals={"fn": fn, "torch": torch})
                      .blocked_autorange(min_run_time=0.2).median * 1e9),
            ]
        print(f"{name:<16} {'CUPTI record (kernel_timer)':<34} {floor:>10.0f}ns {'':>14} {'':>9}")
        for label, median_ns, wall in rows:
            print(f"{'':<16} {label:<34} {median_ns:>10.0f}ns {median_ns - floor:>+12.0f}ns {wall:>8.3f}s")


if __name__ == "__main__":
    main()
