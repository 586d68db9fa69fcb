# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The pytest plugin's gpu_benchmark fixture against gpuchrono.measure() called directly, on the same kernels in one
run on one GPU: a 10 us spin (ground truth: it spins until %globaltimer advanced 10 us), torch.mm 4096x4096 fp32
and a Triton vector add of 16M floats. The fixture runs in a pytest of its own (a subprocess, as a user's suite
runs), writing pytest-benchmark JSON; measure() runs in this process. Per kernel: both medians and their ratio
(target: within 1%), the wall time of the measurement each took (the fixture's is the time inside its measure()
call, from the JSON's extra_info) and their ratio (target: within 10%), and the pytest session's own wall time.
    python3 bench/python/pytest_plugin_bench.py     (needs pytest, torch, triton and a CUDA device)"""
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import triton
import triton.language as tl

import gpuchrono
from gpuchrono._gpuchrono import _testing

SUITE = '''
import pytest
import torch
import triton
import triton.language as tl
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
add_kernel[GRID](X, Y, OUT, X.numel(), BLOCK=1024)  # compiled before anything is timed
torch.mm(A, B)
torch.cuda.synchronize()


def test_spin_10us(gpu_benchmark):
    gpu_benchmark(lambda stream: _testing.spin(10_000, stream))


def test_torch_mm(gpu_benchmark):
    gpu_benchmark(torch.mm, A, B)


def test_triton_add(gpu_benchmark):
    gpu_benchmark(lambda: add_kernel[GRID](X, Y, OUT, X.numel(), BLOCK=1024))
'''


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)


def main():
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.max.sm",
                          "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
    print(f"device: {torch.cuda.get_device_name()} ({smi}); torch {torch.__version__}, triton {triton.__version__}, "
          f"gpuchrono {gpuchrono.__version__}")
    a = torch.randn(4096, 4096, device="cuda")
    b = torch.randn_like(a)
    x = torch.randn(1 << 24, device="cuda")
    y = torch.randn_like(x)
    out = torch.empty_like(x)
    grid = (triton.cdiv(x.numel(), 1024),)
    add_kernel[grid](x, y, out, x.numel(), BLOCK=1024)
    torch.mm(a, b)
    torch.cuda.synchronize()
    kernels = {
        "test_spin_10us": lambda stream: _testing.spin(10_000, stream),
        "test_torch_mm": lambda: torch.mm(a, b),
        "test_triton_add": lambda: add_kernel[grid](x, y, out, x.numel(), BLOCK=1024),
    }
    direct = {}
    for name, fn in kernels.items():
        start = time.perf_counter()
        s = gpuchrono.measure(fn, name=name)
        direct[name] = (s.median_ns, time.perf_counter() - start, s.method)

    with tempfile.TemporaryDirectory() as folder:
        pathlib.Path(folder, "test_kernels.py").write_text(SUITE)
        out_json = pathlib.Path(folder, "bench.json")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", folder,
                               f"--gpuchrono-json={out_json}"], capture_output=True, text=True)
        session_s = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"pytest_plugin_bench: the pytest run failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
        fixture = {b["name"]: (b["stats"]["median"] * 1e9, b["extra_info"]["gpuchrono_wall_s"],
                               b["extra_info"]["gpuchrono_method"])
                   for b in json.loads(out_json.read_text())["benchmarks"]}

    print(f"{'kernel':<16} {'measure() median':>17} {'fixture median':>15} {'ratio':>8} {'measure() wall':>15} "
          f"{'fixture wall':>13} {'ratio':>7}  method")
    worst_median = worst_wall = 0.0
    for name, (median, wall, method) in direct.items():
        f_median, f_wall, f_method = fixture[name]
        worst_median = max(worst_median, abs(f_median / median - 1))
        worst_wall = max(worst_wall, abs(f_wall / wall - 1))
        print(f"{name:<16} {median / 1e3:14.3f} us {f_median / 1e3:12.3f} us {f_median / median:8.4f} "
              f"{wall * 1e3:12.1f} ms {f_wall * 1e3:10.1f} ms {f_wall / wall:7.3f}  {method}/{f_method}")
    print(f"pytest session (3 tests, start-up and JSON included): {session_s:.2f} s")
    print(f"target medians within 1%: {'met' if worst_median <= 0.01 else 'MISSED'} (worst {100 * worst_median:.2f}%); "
          f"target wall within 10%: {'met' if worst_wall <= 0.10 else 'MISSED'} (worst {100 * worst_wall:.1f}%)")


if __name__ == "__main__":
    main()
