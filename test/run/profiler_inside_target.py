#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A PyTorch program that runs torch.profiler part way through, for gpuchrono run's test (run_gpu_test.py):
BEFORE adds, then PROFILED adds inside torch.profiler, then AFTER adds. Prints the kernels the profiler's trace
holds and the adds launched in each part, one `key=value` a line.

    python3 profiler_inside_target.py [BEFORE PROFILED AFTER]
"""
import sys

import torch
from torch.profiler import ProfilerActivity, profile


def main():
    before, profiled, after = (int(x) for x in sys.argv[1:4]) if len(sys.argv) >= 4 else (200, 40, 200)
    x = torch.ones(1 << 16, device="cuda")
    torch.cuda.synchronize()
    for _ in range(before):
        x = x + 1
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(profiled):
            x = x + 1
        torch.cuda.synchronize()
    traced = sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA and "add" in e.name.lower())
    for _ in range(after):
        x = x + 1
    torch.cuda.synchronize()
    print(f"before={before}\nprofiled={profiled}\nafter={after}\ntraced={traced}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
