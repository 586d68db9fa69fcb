#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What `gpuchrono run` costs a program, side by side in one run: no tool, gpuchrono run, CUPTI's kernel
records alone in a minimal injection library (the floor, raw_cupti_inject.cpp), and on the PyTorch loops
torch.profiler too. Each configuration runs REPEATS times, interleaved in mirrored order (ABC CBA BCA ACB ...: each
configuration as often early as late, so a drift of the machine cancels); every process is one sample. A ratio is
the median of the per-repeat ratios (each configuration against the floor, or no tool, of the same repeat) with a
95% bootstrap interval of that median: a target is met when the whole interval is at or under it, missed when the
whole interval is over it, and "unresolved" otherwise (more repeats, --torch-repeats, narrow the interval).

On the PyTorch rows, --leave-out adds gpuchrono run with each part of its recording that the floor does not have
switched off (GPUCHRONO_RUN_BENCH_LEAVE_OUT, bench/README.md): the DEVICE, MEMCPY, MEMSET and OVERHEAD activity
kinds, the periodic forced flush with its report update, the NVTX callbacks, reading the records into the tables,
the zeroed recycled buffers (a saving: without it CUPTI zeroes each new buffer inside a launch, as for the floor),
and all of them at once; --torch-tools adds gpuchrono run --no-nvtx (CUPTI's NVTX support not loaded). `nvtx:`
lines give what gpuchrono run's report says about NVTX ranges: which range turned its launch callbacks on, and how
many ranges of NVIDIA libraries' own domains (cuBLAS, cuDNN) were left out.

    python3 bench/run/run_overhead.py --build gpu-build/bin [--repeats 5] [--quick] [--no-torch] [--diff-pairs 20]
                                      [--rows spin,empty,memory,startup,mlp,resnet18,diff]
                                      [--torch-repeats 6] [--mlp-steps 500] [--resnet-steps 15]
                                      [--torch-tools none,raw,gpuchrono,profiler,gpuchrono-no-nvtx]
                                      [--leave-out all|device,memcpy,memset,overhead,periodic,nvtx,tables,recycle,everything]

Rows and the targets they are read against (docs/run.md):
  spin      100,000 x 5 us spin (GPU-bound): gpuchrono run <= 1.03x no tool
  empty     100,000 empty kernels (launch-bound): gpuchrono run <= 1.05x raw CUPTI
  mlp       500 steps of a small MLP forward + backward (launch-bound, about 0.6 s on an H100): gpuchrono run
            <= 1.05x raw CUPTI (the floor on this loop), beside no tool and torch.profiler; the floor's own ratio
            to no tool is printed
  resnet18  15 training steps of torchvision's resnet18, batch 32: as mlp (skipped without torchvision)
  memory    10,000,000 empty kernels: peak resident growth under gpuchrono run <= 64 MB
  startup   a program that only starts CUDA: the whole process, gpuchrono run minus no tool <= 100 ms
  exact     the spin's median per kernel in gpuchrono's report against the raw CUPTI records' median
  diff      200 kernels, one 3% slower: found in >= 19 of 20 pairs; 20 A/A pairs: no verdict in >= 19
"""
import argparse
import json
import os
import random
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
        if tool == "gpuchrono" or tool.startswith(LEAVE_OUT_PREFIX):
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
        env.pop("GPUCHRONO_RUN_BENCH_LEAVE_OUT", None)
        if tool == "raw":
            env["CUDA_INJECTION64_PATH"] = self.raw
            env["GPUCHRONO_BENCH_RAW_OUT"] = os.path.join(self.tmp, "raw.txt")
        if tool.startswith(LEAVE_OUT_PREFIX):
            part = tool[len(LEAVE_OUT_PREFIX):]
            env["GPUCHRONO_RUN_BENCH_LEAVE_OUT"] = ",".join(LEAVE_OUT_PARTS) if part == "everything" else part
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
        """Each tool REPEATS times, interleaved in mirrored pairs of repeats (ABC CBA, then BCA ACB, ...): no tool
        always runs first (the first process after another pays for the page cache and the GPU's clocks), and a
        drift of the machine over a pair reaches every tool equally."""
        got = {t: [] for t in tools}
        for i in range(repeats):
            k = (i // 2) % len(tools)
            order = tools[k:] + tools[:k]
            for t in (order if i % 2 == 0 else order[::-1]):
                got[t].append(self.once(t, program(t)))
        return got


def median(values):
    return statistics.median(values) if values else float("nan")


def paired_ratio(got, tool, ref, index=0, resamples=4000):
    """(median, low, high): the median over repeats of TOOL's value over REF's in the same repeat, with a 95%
    percentile-bootstrap interval of that median (repeats drawn with replacement; seeded, so a table reads the same
    when rerun on the same samples)."""
    ratios = [a[index] / b[index] for a, b in zip(got[tool], got[ref]) if b[index] > 0]
    if not ratios:
        return float("nan"), float("nan"), float("nan")
    if len(ratios) < 3:
        return median(ratios), min(ratios), max(ratios)
    rng = random.Random(46)
    boot = sorted(median(rng.choices(ratios, k=len(ratios))) for _ in range(resamples))
    return median(ratios), boot[int(0.025 * resamples)], boot[int(0.975 * resamples) - 1]


def ratio_text(r):
    return f"{r[0]:.3f}x [{r[1]:.3f}, {r[2]:.3f}]"


def verdict(r, target):
    """Met when the whole interval is at or under TARGET, missed when it is all over it."""
    return "yes" if r[2] <= target else "NO" if r[1] > target else "unresolved"


# gpuchrono run with parts of its recording left out (GPUCHRONO_RUN_BENCH_LEAVE_OUT): "gpuchrono-without-memcpy";
# "everything" leaves every part out at once.
LEAVE_OUT_PREFIX = "gpuchrono-without-"
LEAVE_OUT_PARTS = ("device", "memcpy", "memset", "overhead", "periodic", "nvtx", "tables", "recycle")


ROWS = ("spin", "empty", "memory", "startup", "mlp", "resnet18", "diff")


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--build", default="gpu-build")
    a.add_argument("--repeats", type=int, default=5)
    a.add_argument("--quick", action="store_true", help="10x fewer launches, for a smoke run")
    a.add_argument("--no-torch", action="store_true")
    a.add_argument("--diff-pairs", type=int, default=20)
    a.add_argument("--rows", default=",".join(ROWS), help="the rows to measure, comma-separated (default: all)")
    a.add_argument("--torch-repeats", type=int, default=6, help="processes per configuration on the PyTorch rows")
    a.add_argument("--mlp-steps", type=int, default=500)
    a.add_argument("--resnet-steps", type=int, default=15)
    a.add_argument("--torch-tools", default="none,raw,gpuchrono,profiler",
                   help="configurations on the PyTorch rows: none, raw, gpuchrono, profiler, gpuchrono-no-nvtx")
    a.add_argument("--leave-out", default="",
                   help="also gpuchrono run with each of these parts left out, on the PyTorch rows: "
                        f"{', '.join(LEAVE_OUT_PARTS)}, everything (all at once), or all (each, then everything)")
    args = a.parse_args()
    wanted = set(args.rows.split(","))
    if not wanted or not wanted <= set(ROWS):
        a.error(f"--rows takes a comma-separated list of {', '.join(ROWS)}; got {args.rows!r}")
    torch_tools = [t for t in args.torch_tools.split(",") if t]
    known_tools = ("none", "raw", "gpuchrono", "profiler", "gpuchrono-no-nvtx")
    if not set(torch_tools) <= set(known_tools) or "raw" not in torch_tools or "none" not in torch_tools:
        a.error(f"--torch-tools takes a comma-separated list of {', '.join(known_tools)} with none and raw in it; "
                f"got {args.torch_tools!r}")
    parts = list(LEAVE_OUT_PARTS) + ["everything"] if args.leave_out == "all" else [p for p in args.leave_out.split(",") if p]
    if not set(parts) <= set(LEAVE_OUT_PARTS) | {"everything"}:
        a.error(f"--leave-out takes all or a comma-separated list of {', '.join(LEAVE_OUT_PARTS)}, everything; "
                f"got {args.leave_out!r}")
    torch_tools += [LEAVE_OUT_PREFIX + p for p in parts]
    if args.torch_repeats < 2:
        a.error("--torch-repeats needs at least 2 (mirrored pairs)")
    started = time.monotonic()
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
        for t in ("none", "raw", "gpuchrono"):
            m = median([x[0] for x in empty[t]])
            to_floor = paired_ratio(empty, t, "raw")
            row(f"empty {n}", t, f"{m / 1e6:.1f}", "ms", f"{ratio_text(paired_ratio(empty, t, 'none'))} no tool, "
                f"{ratio_text(to_floor)} raw CUPTI", "<= 1.05x raw" if t == "gpuchrono" else "",
                verdict(to_floor, 1.05) if t == "gpuchrono" else "")

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
        row_started = time.monotonic()
        got = r.series(torch_tools, lambda t: [sys.executable, r.mlp] + extra + (["--profiler"] if t == "profiler" else []),
                       args.torch_repeats)
        names = {"profiler": "torch.profiler", "raw": "raw CUPTI", "gpuchrono-no-nvtx": "gpuchrono --no-nvtx"}
        for t in torch_tools:
            m = median([x[0] for x in got[t]])
            to_floor = paired_ratio(got, t, "raw")
            to_none = paired_ratio(got, t, "none")
            name = names.get(t, t.replace(LEAVE_OUT_PREFIX, "gpuchrono without ") if t.startswith(LEAVE_OUT_PREFIX) else t)
            targeted = t == "gpuchrono" or t == "gpuchrono-no-nvtx"
            ratios = f"{ratio_text(to_none)} no tool, {ratio_text(to_floor)} raw CUPTI"
            if t.startswith(LEAVE_OUT_PREFIX) and "gpuchrono" in got:
                # What the part costs: gpuchrono run with it over gpuchrono run without it.
                ratios += f", part's cost {ratio_text(paired_ratio(got, 'gpuchrono', t))}"
            row(label, name, f"{m / 1e6:.1f}", "ms", ratios, "<= 1.05x raw" if targeted else "",
                verdict(to_floor, 1.05) if targeted else "")
        spread = {t: statistics.pstdev([x[0] for x in got[t]]) / median([x[0] for x in got[t]]) for t in torch_tools}
        print(f"spread: {label}: per-process loop time, standard deviation over median: " +
              ", ".join(f"{names.get(t, t)} {100 * v:.1f}%" for t, v in spread.items()), flush=True)
        print(f"time: {label}: {len(torch_tools)} configurations x {args.torch_repeats} processes in "
              f"{time.monotonic() - row_started:.0f} s", flush=True)
        # What the report says about NVTX: which range, in which domain, turned the launch callbacks on.
        nvtx = [n for n in r.report_notes("gpuchrono") if "NVTX ranges" in n]
        for note in nvtx or ["no NVTX range was pushed: the launch callbacks stayed off"]:
            print(f"nvtx: {label}: {note}", flush=True)

    if "mlp" in wanted and not args.no_torch:
        steps = str(max(10, args.mlp_steps // scale))
        torch_row(f"mlp {steps} steps", [steps])
    if "resnet18" in wanted and not args.no_torch:
        steps = str(max(3, args.resnet_steps // scale))
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

    print(f"gpuchrono run overhead on {device_name()}, medians of {args.repeats} interleaved runs "
          f"({args.torch_repeats} on the PyTorch rows; [95% bootstrap interval] of each ratio's median), "
          f"{time.monotonic() - started:.0f} s in all")
    widths = [max(len(str(x[i])) for x in rows + [("workload", "tool", "value", "unit", "ratio", "target", "met")]) for i in range(7)]
    for x in [("workload", "tool", "value", "unit", "ratio", "target", "met")] + rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(x, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
