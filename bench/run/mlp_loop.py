#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""PyTorch training loops for run_overhead.py: STEPS steps of a small MLP's forward and backward (many small
kernels: launch-bound), or with --resnet18 of torchvision's resnet18 on batches of 32 images of 224 x 224
(convolutions of a real model).

    python3 mlp_loop.py [STEPS] [--resnet18] [--profiler]     prints loop_ns=<ns> (warm-up excluded)

--profiler: the loop inside torch.profiler (CPU and CUDA activities), the usual in-program alternative.
"""
import sys
import time

import torch


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 1000
    profile = "--profiler" in sys.argv
    torch.manual_seed(0)
    if "--resnet18" in sys.argv:
        import torchvision

        model = torchvision.models.resnet18(num_classes=1000).cuda()
        x = torch.randn(32, 3, 224, 224, device="cuda")
        y = torch.randint(0, 1000, (32,), device="cuda")
    else:
        model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                    torch.nn.Linear(512, 10)).cuda()
        x = torch.randn(64, 256, device="cuda")
        y = torch.randint(0, 10, (64,), device="cuda")
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

    for _ in range(5 if "--resnet18" in sys.argv else 20):
        step()
    torch.cuda.synchronize()
    if profile:
        from torch.profiler import ProfilerActivity, profile as prof
        with prof(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]):
            t0 = time.perf_counter_ns()
            for _ in range(steps):
                step()
            torch.cuda.synchronize()
            ns = time.perf_counter_ns() - t0
    else:
        t0 = time.perf_counter_ns()
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
        ns = time.perf_counter_ns() - t0
    print(f"loop_ns={ns}")


if __name__ == "__main__":
    main()
