# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The pytest plugin's gpu_benchmark fixture against gpuchrono.measure() called directly, on the same kernels in one
run on one GPU: a 10 us spin (ground truth: it spins until %globaltimer advanced 10 us), torch.mm 4096x4096 fp32
and a Triton vector add of 16M floats. Both run in one pytest session (a subprocess, as a user's suite runs), after
the same warm-up of the process (the kernels compiled and run, one untimed measure() of each), in alternating
order over repeats (ABBA: fixture then measure(), measure() then fixture, ...), so neither pays the process's first
warm-ups or a drift in the GPU's state alone. Per kernel: both medians and their ratio (target: within 1%), the
wall time of the measurement each took as the median over repeats and their ratio (target: within 10%): the whole
fixture call timed from its test, as a user's suite sees it, with what the fixture does around measure(), and
measure() timed the same way. Per side, the range of walls, samples and warm-up calls over the repeats: measure()
stops at a narrow enough interval, so its wall varies from call to call.
    python3 bench/python/pytest_plugin_bench.py [--repeats N]   (needs pytest, torch, triton and a CUDA device)"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import triton

import gpuchrono

KERNELS = ("spin_10us", "torch_mm", "triton_add")

SUITE_HEAD = '''
import json
import os
import time

import pytest
import torch
import triton
import triton.language as tl

import gpuchrono
from gpuchrono._gpuchrono import _testing


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)


A = torch.randn(4096, 4096, device="cuda")
B = torch.randn_like(A)
X = torch.randn(1 << 24, device="cuda")
Y = torch.randn_like(X)
OUT = torch.empty_like(X)
GRID = (triton.cdiv(X.numel(), 1024),)
KERNELS = {
    "spin_10us": lambda stream: _testing.spin(10_000, stream),
    "torch_mm": lambda: torch.mm(A, B),
    "triton_add": lambda: add_kernel[GRID](X, Y, OUT, X.numel(), BLOCK=1024),
}
# The process's warm-up, before either side is timed: every kernel compiled and run, and measured once untimed.
for _fn in KERNELS.values():
    gpuchrono.measure(_fn, name="warm-up")
torch.cuda.synchronize()


def note(side, tag, kernel, s, wall):
    r = s.record
    with open(os.environ["GPUCHRONO_BENCH_LINES"], "a") as f:
        f.write(json.dumps({"side": side, "test": tag, "kernel": kernel, "median_ns": s.median_ns, "wall_s": wall,
                            "method": s.method, "samples": r["samples"], "warmup_calls": r["warmup_calls"],
                            "warmup_s": r["warmup_time_s"], "sampling_s": r["sampling_time_s"]}) + "\\n")


def fixture(gpu_benchmark, kernel, tag):
    # The whole fixture call, timed from the test as a user's suite would see it: measure() and what the fixture
    # does around it (its result, findings and JSON entry).
    start = time.perf_counter()
    s = gpu_benchmark(KERNELS[kernel])
    note("fixture", tag, kernel, s, time.perf_counter() - start)


def direct(kernel, tag):
    start = time.perf_counter()
    s = gpuchrono.measure(KERNELS[kernel], name=kernel)
    note("direct", tag, kernel, s, time.perf_counter() - start)
'''


def suite(repeats):
    """The test module: per repeat and kernel, a fixture test and a direct test, their order alternating (ABBA)."""
    tests = []
    for r in range(repeats):
        for kernel in KERNELS:
            pair = [f"def test_r{r}_{kernel}_fixture(gpu_benchmark):\n"
                    f"    fixture(gpu_benchmark, {kernel!r}, 'test_r{r}_{kernel}')\n",
                    f"def test_r{r}_{kernel}_direct():\n    direct({kernel!r}, 'test_r{r}_{kernel}')\n"]
            tests += pair if r % 2 == 0 else pair[::-1]
    return SUITE_HEAD + "\n\n" + "\n\n".join(tests)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=24, help="fixture/measure() pairs per kernel, in ABBA order")
    args = parser.parse_args()
    if args.repeats < 2:
        sys.exit("pytest_plugin_bench: --repeats must be at least 2 (one AB and one BA pair)")
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.max.sm",
                          "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
    print(f"device: {torch.cuda.get_device_name()} ({smi}); torch {torch.__version__}, triton {triton.__version__}, "
          f"gpuchrono {gpuchrono.__version__}; {args.repeats} repeats per kernel, fixture and measure() alternating")

    with tempfile.TemporaryDirectory() as folder:
        pathlib.Path(folder, "test_kernels.py").write_text(suite(args.repeats))
        out_json = pathlib.Path(folder, "bench.json")
        lines = pathlib.Path(folder, "walls.jsonl")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                               folder, f"--gpuchrono-json={out_json}"], capture_output=True, text=True,
                              env={**os.environ, "GPUCHRONO_BENCH_LINES": str(lines)})
        session_s = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"pytest_plugin_bench: the pytest run failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
        fixture, direct = {}, {}
        for line in lines.read_text().splitlines():
            d = json.loads(line)
            (fixture if d["side"] == "fixture" else direct)[d["test"]] = d
        # The fixture's median as its pytest-benchmark JSON gives it: what `pytest-benchmark compare` reads.
        for b in json.loads(out_json.read_text())["benchmarks"]:
            tag = b["name"].removesuffix("_fixture")
            if tag in fixture:
                fixture[tag]["median_ns"] = b["stats"]["median"] * 1e9
    missing = sorted(set(fixture) ^ set(direct))
    if missing:
        sys.exit(f"pytest_plugin_bench: these repeats ran on one side only: {', '.join(missing)}")

    print(f"{'kernel':<12} {'measure() median':>17} {'fixture median':>15} {'ratio':>8} {'measure() wall':>15} "
          f"{'fixture wall':>13} {'ratio':>7}  method")
    worst_median = worst_wall = 0.0
    detail = []
    for kernel in KERNELS:
        tags = [f"test_r{r}_{kernel}" for r in range(args.repeats)]
        d_median = statistics.median(direct[t]["median_ns"] for t in tags)
        f_median = statistics.median(fixture[t]["median_ns"] for t in tags)
        d_wall = statistics.median(direct[t]["wall_s"] for t in tags)
        f_wall = statistics.median(fixture[t]["wall_s"] for t in tags)
        worst_median = max(worst_median, abs(f_median / d_median - 1))
        worst_wall = max(worst_wall, abs(f_wall / d_wall - 1))
        print(f"{kernel:<12} {d_median / 1e3:14.3f} us {f_median / 1e3:12.3f} us {f_median / d_median:8.4f} "
              f"{d_wall * 1e3:12.1f} ms {f_wall * 1e3:10.1f} ms {f_wall / d_wall:7.3f}  "
              f"{direct[tags[0]]['method']}/{fixture[tags[0]]['method']}")
        # Why a wall varies: measure() stops when its interval is narrow enough, so its samples (and its warm-up's
        # calls, until the clock reads ready) differ from call to call, on either side.
        for side, rows in (("measure()", direct), ("fixture", fixture)):
            walls = sorted(rows[t]["wall_s"] for t in tags)
            samples = sorted(rows[t]["samples"] for t in tags)
            calls = sorted(rows[t]["warmup_calls"] for t in tags)
            detail.append(f"  {kernel:<12} {side:<10} wall {walls[0] * 1e3:.1f}-{walls[-1] * 1e3:.1f} ms "
                          f"(mean {statistics.fmean(walls) * 1e3:.1f}), samples {samples[0]}-{samples[-1]} "
                          f"(median {statistics.median(samples):g}), warm-up calls {calls[0]}-{calls[-1]}")
    print("per call, over the repeats:")
    print("\n".join(detail))
    print(f"pytest session ({2 * args.repeats * len(KERNELS)} tests, warm-up, start-up and JSON included): {session_s:.2f} s")
    print(f"target medians within 1%: {'met' if worst_median <= 0.01 else 'MISSED'} (worst {100 * worst_median:.2f}%); "
          f"target wall within 10%: {'met' if worst_wall <= 0.10 else 'MISSED'} (worst {100 * worst_wall:.1f}%)")


if __name__ == "__main__":
    main()
