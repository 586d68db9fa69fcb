# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono.measure against triton.testing.do_bench, do_bench_cudagraph and torch.utils.benchmark (blocked_autorange
and adaptive_autorange), side by side in one run on one GPU, on kernels from 1 us to a few ms: spins of 1, 10 and
100 us and 2.5 ms (ground truth: each spins until %globaltimer advanced that long), a Triton vector add (~70 us on
an H100) and torch.mm 4096x4096 fp32 (~2.7 ms). For each method: the median it reports, its bias against CUPTI's
record of the same kernel (gpuchrono.kernel_timer, the floor any whole-kernel method can reach) and the wall time
the call took to its answer. Two targets are checked and printed:
  - kernels up to 100 us: measure() takes at least 10x less wall time than do_bench;
  - longer kernels: what measure() adds beyond the kernel time it sampled (its warm-up and set-up) is at most 10 ms.
measure()'s own cost is split per kernel: warm-up time and calls, sampling time and samples, and the host cost per
sample (sampling time minus the GPU time of the sampled calls, per sample), beside the host cost of a bare launch of
the 1 us spin measured in the same run, with and without CUPTI's kernel records (target: within 20 us of the latter).
    python3 bench/python/vs_do_bench.py [--markdown]     (needs torch, triton and a CUDA device)"""
import statistics
import subprocess
import sys
import time

import torch
import triton
import triton.language as tl
import triton.testing
import torch.utils.benchmark as tbench

import gpuchrono
from gpuchrono._gpuchrono import _testing

SHORT_KERNEL_NS = 110_000     # up to this median (the 100 us spin reads a little above 100 us): the 10x target
WALL_RATIO_TARGET = 10.0
ADDED_TARGET_S = 0.010        # above it: measure()'s wall time beyond the kernel time it sampled


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)


def cupti_record_ns(fn, stream, repeats=30):
    """The median of CUPTI's own records of fn's kernels (their busy time), one kernel_timer scope per call."""
    values = []
    for _ in range(repeats):
        with gpuchrono.kernel_timer(stream) as t:
            fn()
        values.append(t.duration_ns)
    return statistics.median(values)


def bare_launch_ns(fn, calls=2000):
    """Host time per call of fn, `calls` back to back with no wait (the spin's GPU time stays under the host's)."""
    torch.cuda.synchronize()
    start = time.perf_counter_ns()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter_ns() - start
    torch.cuda.synchronize()
    return elapsed / calls


def timed(run):
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def torch_timer(fn):
    return tbench.Timer(stmt="fn(); torch.cuda.synchronize()", globals={"fn": fn, "torch": torch})


def fmt_ns(ns):
    return f"{ns / 1e3:.3f} us" if ns < 1e6 else f"{ns / 1e6:.4f} ms"


def device_line():
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.max.sm",
                          "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
    return (f"{torch.cuda.get_device_name()} ({smi}); torch {torch.__version__}, triton {triton.__version__}, "
            f"gpuchrono {gpuchrono.__version__}")


def main():
    markdown = "--markdown" in sys.argv[1:]
    print(f"device: {device_line()}")
    stream = torch.cuda.Stream()
    a = torch.randn(4096, 4096, device="cuda")
    b = torch.randn_like(a)
    x = torch.randn(1 << 24, device="cuda")
    y = torch.randn_like(x)
    out = torch.empty_like(x)
    grid = (triton.cdiv(x.numel(), 1024),)

    def spin(ns):
        # On torch's current stream at each call, so that do_bench_cudagraph's capture stream records it too.
        return lambda: _testing.spin(ns, torch.cuda.current_stream().cuda_stream)

    cases = {
        "spin 1 us": spin(1_000),
        "spin 10 us": spin(10_000),
        "triton add 16M": lambda: add_kernel[grid](x, y, out, x.numel(), BLOCK=1024),
        "spin 100 us": spin(100_000),
        "torch.mm 4096 fp32": lambda: torch.mm(a, b),
        "spin 2.5 ms": spin(2_500_000),
    }
    # Compile and load every case once, outside any timing (measure() still runs its own warm-up).
    with torch.cuda.stream(stream):
        for fn in cases.values():
            for _ in range(3):
                fn()
    torch.cuda.synchronize()

    # The host cost of a bare launch of the 1 us spin, as the callable measure() is handed makes it (a Python call
    # included), without and with CUPTI's kernel records on.
    with torch.cuda.stream(stream):
        bare_ns = statistics.median(bare_launch_ns(cases["spin 1 us"]) for _ in range(5))
        with gpuchrono.hold_cupti():
            bare_cupti_ns = statistics.median(bare_launch_ns(cases["spin 1 us"]) for _ in range(5))

    rows = []     # (kernel, method, median ns, bias ns, wall s)
    verdicts = []
    for name, fn in cases.items():
        with torch.cuda.stream(stream):
            floor = cupti_record_ns(fn, stream)
            series, wall_measure = timed(lambda: gpuchrono.measure(fn, name=name, stream=stream))
            r = series.record
            done = {
                "triton do_bench": timed(lambda: triton.testing.do_bench(fn, return_mode="median") * 1e6),
                "triton do_bench_cudagraph":
                    timed(lambda: triton.testing.do_bench_cudagraph(fn, return_mode="median") * 1e6),
                "torch blocked_autorange":
                    timed(lambda: torch_timer(fn).blocked_autorange(min_run_time=0.2).median * 1e9),
                "torch adaptive_autorange":
                    timed(lambda: torch_timer(fn).adaptive_autorange(threshold=0.01, max_run_time=2.0).median * 1e9),
            }
        rows.append((name, "CUPTI record (kernel_timer)", floor, None, None))
        rows.append((name, f"gpuchrono.measure ({series.method}, 1% CI)", series.median_ns,
                     series.median_ns - floor, wall_measure))
        for label, (median_ns, wall) in done.items():
            rows.append((name, label, median_ns, median_ns - floor, wall))
        # The kernel time measure() sampled: every call its samples averaged, at the median.
        sampled_s = r["samples"] * r["calls_per_sample"] * series.median_ns * 1e-9
        added_s = wall_measure - sampled_s
        # What sampling cost beyond the GPU time of the sampled calls, per sample.
        host_per_sample_ns = (r["sampling_time_s"] - sampled_s) / max(1, r["samples"]) * 1e9
        if floor <= SHORT_KERNEL_NS:
            ratio = done["triton do_bench"][1] / wall_measure
            verdicts.append((name, f"do_bench wall / measure wall = {ratio:.1f}x (target >= {WALL_RATIO_TARGET:.0f}x)",
                             ratio >= WALL_RATIO_TARGET, r, sampled_s, added_s, host_per_sample_ns))
        else:
            verdicts.append((name, f"measure adds {added_s * 1e3:.1f} ms beyond {sampled_s * 1e3:.1f} ms of sampled "
                                   f"kernel time (target <= {ADDED_TARGET_S * 1e3:.0f} ms)",
                             added_s <= ADDED_TARGET_S, r, sampled_s, added_s, host_per_sample_ns))

    if markdown:
        print("\n| kernel | method | median | bias vs CUPTI | wall |\n|---|---|---|---|---|")
        last = None
        for kernel, method, median_ns, bias, wall in rows:
            shown = kernel if kernel != last else ""
            last = kernel
            print(f"| {shown} | {method} | {fmt_ns(median_ns)} | {'' if bias is None else f'{bias:+.0f} ns'} | "
                  f"{'' if wall is None else f'{wall:.3f} s'} |")
    else:
        print(f"\n{'kernel':<20} {'method':<36} {'median':>14} {'bias vs CUPTI':>14} {'wall':>9}")
        last = None
        for kernel, method, median_ns, bias, wall in rows:
            shown = kernel if kernel != last else ""
            last = kernel
            print(f"{shown:<20} {method:<36} {fmt_ns(median_ns):>14} "
                  f"{'' if bias is None else f'{bias:+.0f} ns':>14} {'' if wall is None else f'{wall:.3f} s':>9}")

    print(f"\nmeasure()'s wall time: warm-up (calls), sampling (samples x calls each), and the host cost per sample "
          f"(sampling time beyond the sampled calls' GPU time, per sample); a bare launch of the 1 us spin costs the host "
          f"{bare_ns / 1e3:.2f} us, {bare_cupti_ns / 1e3:.2f} us with CUPTI's kernel records (host cost per sample "
          f"target: within 20 us of that)")
    # How the samples were taken (a batch per round, or a scope per call where a batch cannot be used).
    notes = sorted({v[3].get("method_note", "") for v in verdicts} - {""})
    print("measure()'s samples: " + ("; ".join(notes) if notes else "(no method note)"))
    failed = 0
    header = ("kernel", "warm-up", "warm-up calls", "sampling", "samples", "host cost per sample", "beyond a launch",
              "target", "met")
    if markdown:
        print("\n| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    for name, text, met, r, sampled_s, added_s, host_ns in verdicts:
        failed += not met
        cells = (name, f"{r['warmup_time_s'] * 1e3:.1f} ms", f"{r['warmup_calls']}", f"{r['sampling_time_s'] * 1e3:.1f} ms",
                 f"{r['samples']} x {r['calls_per_sample']}", f"{host_ns / 1e3:.1f} us",
                 f"{(host_ns - bare_cupti_ns) / 1e3:+.1f} us", text, "met" if met else "NOT MET")
        if markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print(f"  {cells[0]:<20} warm-up {cells[1]:>8} ({cells[2]} calls), sampling {cells[3]:>8} ({cells[4]}), "
                  f"host cost per sample {cells[5]:>8} ({cells[6]} beyond a launch with CUPTI); {cells[7]}: {cells[8]}")
    print(f"\ntargets: {len(verdicts) - failed} met, {failed} not met")


if __name__ == "__main__":
    main()
