#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What `gpuchrono run` costs a program, side by side in one run: no tool, gpuchrono run, CUPTI's kernel
records alone in a minimal injection library (the floor, raw_cupti_inject.cpp), and on the PyTorch loops
gpuchrono run --no-nvtx and torch.profiler too. Each configuration runs REPEATS times, interleaved (the order
rotates from one repeat to the next); the table gives medians, each row's ratio to the floor and to no tool,
with the device named. On the PyTorch rows, `nvtx:` lines give what gpuchrono run's report says about NVTX ranges:
which range turned its launch callbacks on (--no-nvtx leaves them off), and how many ranges of NVIDIA libraries'
own domains (cuBLAS, cuDNN) were left out.

    python3 bench/run/run_overhead.py --build gpu-build/bin [--repeats 5] [--quick] [--no-torch] [--diff-pairs 20]
                                      [--rows spin,empty,memory,startup,mlp,resnet18,diff]

Rows and the targets they are read against (docs/run.md):
  spin      100,000 x 5 us spin (GPU-bound): gpuchrono run <= 1.03x no tool
  empty     100,000 empty kernels (launch-bound): gpuchrono run <= 1.05x raw CUPTI
  mlp       1,000 steps of a small MLP forward + backward: gpuchrono run <= 1.05x raw CUPTI (the floor on this
            loop), beside no tool, gpuchrono run --no-nvtx and torch.profiler; the floor's own ratio to no tool
            is printed
  resnet18  30 training steps of torchvision's resnet18, batch 32: as mlp (skipped without torchvision)
  memory    10,000,000 empty kernels: peak resident growth under gpuchrono run <= 64 MB
  startup   a program that only starts CUDA: the whole process, gpuchrono run minus no tool <= 100 ms
  exact     the spin's median per kernel in gpuchrono's report against the raw CUPTI records' median
  diff      200 kernels, one 3% slower: found in >= 19 of 20 pairs; 20 A/A pairs: no verdict in >= 19
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def device_name():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=20).stdout.strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "unknown device"


class Runner:
    def __init__(self, build):
        def find(name):
            """In scripts/gpu-build's flat bin/ folder or where CMake builds it."""
            for sub in ("", "bin", os.path.join("bench", "run"), os.path.join("modules", "tools"), "modules"):
                path = os.path.abspath(os.path.join(build, sub, name))
                if os.path.exists(path):
                    return path
            raise SystemExit(f"run_overhead: {name} is not in {build} (build it, or pass --build)")
        self.workload = find("run_overhead_workload")
        self.raw = find("libbench_raw_cupti_inject.so")
        self.gpuchrono = find("gpuchrono")
        self.tmp = tempfile.mkdtemp(prefix="gpuchrono-run-bench-")
        self.mlp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mlp_loop.py")

    def out_of(self, tool):
        """Where a configuration's report goes when the caller names no folder (the latest run's stays there)."""
        return os.path.join(self.tmp, {"gpuchrono": "g", "gpuchrono-no-nvtx": "g-no-nvtx"}.get(tool, tool))

    def command(self, tool, program, out=None):
        if tool == "gpuchrono":
            return [self.gpuchrono, "run", "--top", "0", "-o", out or self.out_of(tool), "--"] + program
        if tool == "gpuchrono-no-nvtx":
            return [self.gpuchrono, "run", "--no-nvtx", "--top", "0", "-o", out or self.out_of(tool), "--"] + program
        return program

    def report_notes(self, tool):
        """The notes of the configuration's latest report, [] without one."""
        try:
            with open(os.path.join(self.out_of(tool), "report.json"), encoding="utf-8") as f:
                return json.load(f).get("notes", [])
        except (OSError, ValueError):
            return []

    def once(self, tool, program, out=None):
        """(loop ns, whole-process ns, peak RSS KiB of the program) of one run."""
        env = dict(os.environ)
        if tool == "raw":
            env["CUDA_INJECTION64_PATH"] = self.raw
            env["GPUCHRONO_BENCH_RAW_OUT"] = os.path.join(self.tmp, "raw.txt")
        # Output to files, not pipes: a child that fills a pipe while nobody reads it would block.
        with tempfile.TemporaryFile("w+") as out_file, tempfile.TemporaryFile("w+") as err_file:
            t0 = time.perf_counter_ns()
            p = subprocess.Popen(self.command(tool, program, out), stdout=out_file, stderr=err_file, env=env, text=True)
            _, status, usage = os.wait4(p.pid, 0)
            whole = time.perf_counter_ns() - t0
            out_file.seek(0)
            err_file.seek(0)
            stdout, stderr = out_file.read(), err_file.read()
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(self.command(tool, program, out))} failed ({p.returncode}):\n{stderr}")
        loop = next((int(l.split("=")[1]) for l in stdout.splitlines() if l.startswith("loop_ns=")), 0)
        return loop, whole, usage.ru_maxrss

    def series(self, tools, program, repeats):
        """Each tool REPEATS times, interleaved; the order rotates each repeat, so no tool always runs first (the
        first process after another pays for the page cache and the GPU's clocks)."""
        got = {t: [] for t in tools}
        for i in range(repeats):
            k = i % len(tools)
            for t in tools[k:] + tools[:k]:
                got[t].append(self.once(t, program(t)))
        return got


def median(values):
    return statistics.median(values) if values else float("nan")


ROWS = ("spin", "empty", "memory", "startup", "mlp", "resnet18", "diff")


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--build", default="gpu-build")
    a.add_argument("--repeats", type=int, default=5)
    a.add_argument("--quick", action="store_true", help="10x fewer launches, for a smoke run")
    a.add_argument("--no-torch", action="store_true")
    a.add_argument("--diff-pairs", type=int, default=20)
    a.add_argument("--rows", default=",".join(ROWS), help="the rows to measure, comma-separated (default: all)")
    args = a.parse_args()
    wanted = set(args.rows.split(","))
    if not wanted or not wanted <= set(ROWS):
        a.error(f"--rows takes a comma-separated list of {', '.join(ROWS)}; got {args.rows!r}")
    r = Runner(args.build)
    scale = 10 if args.quick else 1
    n = 100000 // scale
    rows = []

    def row(name, config, value, unit, ratio="", target="", met=""):
        rows.append((name, config, value, unit, ratio, target, met))
        # Each row as soon as it is measured, so a run cut short still shows what it measured.
        print("row:", " | ".join(str(x) for x in rows[-1]), flush=True)

    # GPU-bound
    if "spin" in wanted:
        spin = r.series(["none", "gpuchrono", "raw"], lambda t: [r.workload, "spin", str(n), "5"], args.repeats)
        base = median([x[0] for x in spin["none"]])
        floor = median([x[0] for x in spin["raw"]])
        for t in ("none", "raw", "gpuchrono"):
            m = median([x[0] for x in spin[t]])
            row(f"spin {n} x 5 us", t, f"{m / 1e6:.1f}", "ms", f"{m / base:.3f}x no tool, {m / floor:.3f}x raw CUPTI",
                "<= 1.03x" if t == "gpuchrono" else "", ("yes" if m / base <= 1.03 else "NO") if t == "gpuchrono" else "")
        # exactness: gpuchrono's median for the spin against the raw records'
        out = os.path.join(r.tmp, "exact")
        r.once("gpuchrono", [r.workload, "spin", str(n), "5"], out)
        with open(os.path.join(out, "report.json")) as f:
            rep = json.load(f)
        gmed = next(s["stats"]["median_ns"] for e in rep["experiments"] if e["id"] == "kernels" for s in e["series"] if "bench_spin" in s["name"])
        r.once("raw", [r.workload, "spin", str(n), "5"])
        with open(os.path.join(r.tmp, "raw.txt")) as f:
            raw_median = float(f.read().split("median_ns=")[1])
        row("spin median per kernel", "gpuchrono vs raw CUPTI", f"{gmed:.0f} / {raw_median:.0f}", "ns",
            f"{gmed / raw_median:.4f}x", "= raw record", "yes" if abs(gmed / raw_median - 1) < 0.005 else "NO")

    # launch-bound
    if "empty" in wanted:
        empty = r.series(["none", "gpuchrono", "raw"], lambda t: [r.workload, "empty", str(n)], args.repeats)
        floor = median([x[0] for x in empty["raw"]])
        none = median([x[0] for x in empty["none"]])
        for t in ("none", "raw", "gpuchrono"):
            m = median([x[0] for x in empty[t]])
            row(f"empty {n}", t, f"{m / 1e6:.1f}", "ms", f"{m / none:.3f}x no tool, {m / floor:.3f}x raw CUPTI",
                "<= 1.05x raw" if t == "gpuchrono" else "", ("yes" if m / floor <= 1.05 else "NO") if t == "gpuchrono" else "")

    # memory
    if "memory" in wanted:
        big = 10000000 // scale
        mem = r.series(["none", "gpuchrono"], lambda t: [r.workload, "empty", str(big)], 1)
        growth = (mem["gpuchrono"][0][2] - mem["none"][0][2]) / 1024
        row(f"memory, {big} launches", "gpuchrono - none", f"{growth:.1f}", "MB peak RSS", "", "<= 64 MB", "yes" if growth <= 64 else "NO")

    # start-up
    if "startup" in wanted:
        st = r.series(["none", "gpuchrono"], lambda t: [r.workload, "startup"], args.repeats)
        added = (median([x[1] for x in st["gpuchrono"]]) - median([x[1] for x in st["none"]])) / 1e6
        row("start-up (whole process)", "gpuchrono - none", f"{added:.1f}", "ms", "", "<= 100 ms", "yes" if added <= 100 else "NO")

    # PyTorch: gpuchrono run against CUPTI's kernel records alone on the same loop (the floor), and no tool.
    def torch_row(label, extra):
        tools = ["none", "raw", "gpuchrono", "gpuchrono-no-nvtx", "profiler"]
        got = r.series(tools, lambda t: [sys.executable, r.mlp] + extra + (["--profiler"] if t == "profiler" else []), args.repeats)
        base = median([x[0] for x in got["none"]])
        floor = median([x[0] for x in got["raw"]])
        for t in ("none", "raw", "profiler", "gpuchrono-no-nvtx", "gpuchrono"):
            m = median([x[0] for x in got[t]])
            name = {"profiler": "torch.profiler", "raw": "raw CUPTI", "gpuchrono-no-nvtx": "gpuchrono --no-nvtx"}.get(t, t)
            targeted = t in ("gpuchrono", "gpuchrono-no-nvtx")
            row(label, name, f"{m / 1e6:.1f}", "ms", f"{m / base:.3f}x no tool, {m / floor:.3f}x raw CUPTI",
                "<= 1.05x raw" if targeted else "", ("yes" if m / floor <= 1.05 else "NO") if targeted else "")
        # What the report says about NVTX: which range, in which domain, turned the launch callbacks on.
        nvtx = [n for n in r.report_notes("gpuchrono") if "NVTX ranges" in n]
        for note in nvtx or ["no NVTX range was pushed: the launch callbacks stayed off"]:
            print(f"nvtx: {label}: {note}", flush=True)

    if "mlp" in wanted and not args.no_torch:
        steps = str(1000 // scale)
        torch_row(f"mlp {steps} steps", [steps])
    if "resnet18" in wanted and not args.no_torch:
        steps = str(max(3, 30 // scale))
        has_vision = subprocess.run([sys.executable, "-c", "import torchvision"], capture_output=True).returncode == 0
        if has_vision:
            torch_row(f"resnet18 {steps} steps, batch 32", [steps, "--resnet18"])
        else:
            row("resnet18", "skipped", "", "", "torchvision is not installed in this Python", "", "")

    # diff
    if "diff" in wanted:
        if args.diff_pairs > 0:
            found = quiet = 0
            for i in range(args.diff_pairs):
                outs = []
                for tag, slow in (("a", "1"), ("b", "1.03"), ("c", "1")):
                    out = os.path.join(r.tmp, f"diff-{i}-{tag}")
                    r.once("gpuchrono", [r.workload, "kernels200", "50", slow], out)
                    outs.append(out)
                d = subprocess.run([r.gpuchrono, "diff", outs[0], outs[1]], capture_output=True, text=True)
                found += d.returncode == 1 and "bench_kernel<17>" in next((l for l in d.stdout.splitlines() if l.startswith("slower")), "")
                d = subprocess.run([r.gpuchrono, "diff", outs[0], outs[2]], capture_output=True, text=True)
                quiet += " 0 slower, 0 faster" in d.stdout or d.stdout.splitlines()[-1].startswith("0 slower, 0 faster")
            row("diff, 200 kernels, one 3% slower", "gpuchrono diff", f"{found}/{args.diff_pairs}", "found", "", ">= 19/20",
                "yes" if found >= 0.95 * args.diff_pairs else "NO")
            row("diff, A/A", "gpuchrono diff", f"{quiet}/{args.diff_pairs}", "no verdict", "", ">= 19/20",
                "yes" if quiet >= 0.95 * args.diff_pairs else "NO")

    print(f"gpuchrono run overhead on {device_name()}, medians of {args.repeats} interleaved runs")
    widths = [max(len(str(x[i])) for x in rows + [("workload", "tool", "value", "unit", "ratio", "target", "met")]) for i in range(7)]
    for x in [("workload", "tool", "value", "unit", "ratio", "target", "met")] + rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(x, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
