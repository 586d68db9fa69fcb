#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono run on a GPU: run_target (test/run/run_target.cu) recorded without any change to it.

Checks: every launch counted; the spin's median equals its CUPTI record (D plus the record's floor: within
D .. D + 3 us); with a bench's GPUCHRONO_RUN_BENCH_LEAVE_OUT (every part beyond the kernel records off) every
launch still counted and the report saying what it misses; graph kernels each as themselves; NVTX attribution to the innermost range per thread; the
program's exit status passed on; SIGTERM writes a report; a crash leaves the last periodic flush, marked
incomplete; diff of two like runs calls nothing slower; where PyTorch is installed, a torch program's kernels
(and no launch callback for an MLP that pushes no range of its own: NVIDIA libraries' own ranges left out);
where mpirun is, a job of 2 ranks writing a report each that gpuchrono merge combines; with --scoped-target
(run_scoped_target.cpp), a program timing its own spins with KernelPolicy (stream and thread mode) and
measure(Method::kernel) under gpuchrono run: its hold shares run's CUPTI subscription, every reading is the spin's
CUPTI record (D .. D + 3 us) and equals the run report's median, no finding says CUPTI was unavailable or records
were missing, and the report counts every spin the program launched once and none of gpuchrono's stream marks.
Exit 77 (skipped) without a CUDA device.
"""
import statistics
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time


def load(folder):
    with open(os.path.join(folder, "report.json"), encoding="utf-8") as f:
        return json.load(f)


def table(report, experiment="kernels"):
    """name -> {calls, median_ns} from the report's series and metrics."""
    rows = {}
    for e in report["experiments"]:
        if e["id"] != experiment:
            continue
        metrics = {m["name"]: m["value"] for m in e.get("metrics", [])}
        for s in e["series"]:
            rows[s["name"]] = {"calls": metrics.get(s["name"] + " | calls"), "median_ns": s["stats"]["median_ns"]}
    return rows


def find(rows, part):
    hits = [v for k, v in rows.items() if part in k]
    return hits[0] if len(hits) == 1 else None


failures = []


def run_bounded(command, timeout=180):
    """A recorded program that hangs is a failure, not a hung test."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return subprocess.CompletedProcess(command, proc.returncode, out, err)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # gpuchrono run and the program under it
        out, err = proc.communicate()
        return subprocess.CompletedProcess(command, -9, out, err + f"\n(killed after {timeout} s)")


def expect(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gpuchrono", required=True)
    p.add_argument("--target", required=True)
    p.add_argument("--scoped-target", help="run_scoped_target: gpuchrono's own scopes inside a run process")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    probe = subprocess.run([a.target, "spin", "1", "1"], capture_output=True, text=True)
    if probe.returncode == 77:
        print("no CUDA device: skipped")
        return 77

    def run(name, *args, options=()):
        folder = os.path.join(a.out, name)
        r = subprocess.run([a.gpuchrono, "run", "-o", folder, *options, "--", a.target, *args], capture_output=True, text=True)
        print(r.stderr)
        return folder, r

    folder, r = run("spin", "spin", "2000", "10")
    expect(r.returncode == 0, "spin: exit status 0")
    rows = table(load(folder))
    spin, empty = find(rows, "spin_kernel"), find(rows, "empty_kernel")
    expect(spin is not None and spin["calls"] == 2000, f"spin: 2000 spin calls counted ({spin})")
    expect(empty is not None and empty["calls"] == 4000, f"spin: 4000 empty calls counted ({empty})")
    expect(spin is not None and 10000 <= spin["median_ns"] <= 13000, "spin: median of a 10 us spin within 10 .. 13 us")
    expect("spin_kernel" in r.stderr, "spin: the top table on stderr names the kernel")

    # A bench's GPUCHRONO_RUN_BENCH_LEAVE_OUT on real CUPTI: with every part beyond the kernel records off, the
    # kernels are counted as before and the report says what it misses.
    folder = os.path.join(a.out, "leave-out")
    r = subprocess.run([a.gpuchrono, "run", "-o", folder, "--", a.target, "spin", "2000", "10"], capture_output=True, text=True,
                       env=dict(os.environ, GPUCHRONO_RUN_BENCH_LEAVE_OUT="device,memcpy,memset,overhead,periodic,nvtx"))
    rep = load(folder)
    rows = table(rep)
    spin, empty = find(rows, "spin_kernel"), find(rows, "empty_kernel")
    expect(r.returncode == 0 and spin is not None and spin["calls"] == 2000 and empty is not None and empty["calls"] == 4000,
           f"leave out every part but the kernel records: every kernel counted ({spin}, {empty})")
    expect(spin is not None and 10000 <= spin["median_ns"] <= 13000, "leave out: median of a 10 us spin within 10 .. 13 us")
    expect(any(n.startswith("recorded without device,memcpy,memset,overhead,periodic,nvtx") for n in rep["notes"]),
           f"leave out: the report says what it misses ({rep['notes']})")

    folder, r = run("graph", "graph")
    rep = load(folder)
    spin = find(table(rep), "spin_kernel")
    expect(spin is not None and spin["calls"] == 30, f"graph: 3 nodes x 10 launches = 30 kernel records ({spin})")
    graph = table(rep, "nvtx").get("graph")
    expect(graph is not None and graph["calls"] == 30, f"graph: every node's record in the range around cudaGraphLaunch ({graph})")

    folder, r = run("nvtx", "nvtx")
    ranges = table(load(folder), "nvtx")
    for t in ("thread-0", "thread-1"):
        got = ranges.get(t)
        expect(got is not None and got["calls"] == 10, f"nvtx: 10 spins in innermost range {t} ({got})")
    expect(ranges.get("step", {}).get("calls") == 10, f"nvtx: 2 x 5 empty kernels in range step ({ranges.get('step')})")

    folder, r = run("nvtx-filter", "nvtx", options=("--nvtx", "thread-1"))
    rows = table(load(folder))
    spin = find(rows, "spin_kernel")
    expect(spin is not None and spin["calls"] == 10 and find(rows, "empty_kernel") is None,
           f"--nvtx thread-1: only its 10 spins recorded ({rows})")

    folder, r = run("exit", "exit", "5")
    expect(r.returncode == 5, f"exit(5): status passed on ({r.returncode})")
    expect(any(n == "run status: complete" for n in load(folder)["notes"]), "exit(5): report complete")

    folder = os.path.join(a.out, "sigterm")
    proc = subprocess.Popen([a.gpuchrono, "run", "-o", folder, "--", a.target, "sigterm"], stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    rep = load(folder)
    spin = find(table(rep), "spin_kernel")
    expect(proc.returncode == 128 + signal.SIGTERM, f"SIGTERM: status 143 ({proc.returncode})")
    expect(spin is not None and spin["calls"] > 0, "SIGTERM: the report holds the spins")
    expect(any("SIGTERM" in n for n in rep["notes"]), "SIGTERM: the report says how it ended")

    folder, r = run("crash", "crash")
    rep = load(folder)
    spin = find(table(rep), "spin_kernel")
    expect(r.returncode == 128 + signal.SIGABRT, f"crash: status 134 ({r.returncode})")
    expect(spin is not None and spin["calls"] == 100, f"crash: the 100 spins flushed before it ({spin})")
    expect(any(n.startswith("run status: incomplete") for n in rep["notes"]), "crash: marked incomplete")

    a1, _ = run("aa-1", "spin", "2000", "10")
    a2, _ = run("aa-2", "spin", "2000", "10")
    d = subprocess.run([a.gpuchrono, "diff", a1, a2], capture_output=True, text=True)
    print(d.stdout)
    expect(d.returncode == 0, f"diff of two like runs: nothing slower (exit {d.returncode})")

    try:
        import torch  # noqa: F401
        has_torch = True
    except ImportError:
        has_torch = False
    if has_torch:
        mlp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "run", "mlp_loop.py")
        folder = os.path.join(a.out, "torch")
        r = run_bounded([a.gpuchrono, "run", "-o", folder, "--", sys.executable, mlp, "50"])
        print(r.stderr[-3000:])
        rows = table(load(folder)) if r.returncode == 0 else {}
        calls = sum(v["calls"] or 0 for v in rows.values())
        expect(r.returncode == 0 and len(rows) >= 5 and calls >= 50 * 5, f"torch: an MLP loop's kernels recorded ({len(rows)} names, {calls} calls)")
        # The MLP pushes no NVTX range of its own: whatever ranges cuBLAS or cuDNN push in their own domains are left
        # out, so no range turns the launch callbacks on (a CUPTI callback on every launch, the MLP's cost beyond the
        # records alone). The notes say what was pushed, for the bench's reading.
        notes = load(folder)["notes"] if r.returncode == 0 else []
        print("torch MLP notes:", [n for n in notes if "NVTX" in n])
        expect(r.returncode == 0 and not any("turned the launch callbacks on" in n for n in notes),
               f"torch: the MLP's launches pass through no launch callback (no range of its own) ({notes})")
        # torch.profiler started inside the recorded program: it finds CUPTI taken; the program and the report go on.
        inside = os.path.join(os.path.dirname(os.path.abspath(__file__)), "profiler_inside_target.py")
        folder = os.path.join(a.out, "profiler-inside")
        r = run_bounded([a.gpuchrono, "run", "-o", folder, "--", sys.executable, inside, "200", "40", "200"])
        print(r.stderr[-2000:])
        adds = sum(v["calls"] or 0 for k, v in (table(load(folder)) if r.returncode == 0 else {}).items() if "add" in k.lower())
        expect(r.returncode == 0 and "traced=" in r.stdout, f"torch.profiler inside run: the program runs to its end ({r.returncode})")
        expect(adds == 440, f"torch.profiler inside run: the report counts all 440 adds ({adds})")
        notes = load(folder)["notes"] if r.returncode == 0 else []
        expect("asked for CUPTI's subscriber slot" in r.stderr and any(n.startswith("another CUPTI user") for n in notes),
               f"torch.profiler inside run: run names the refused profiler on stderr and in the report ({notes})")
    else:
        print("skipped: torch program (PyTorch is not installed)")
    mpirun = shutil.which("mpirun")
    if mpirun:
        folder = os.path.join(a.out, "mpi")
        r = subprocess.run([mpirun, "--allow-run-as-root", "--oversubscribe", "-n", "2", a.gpuchrono, "run", "-o", folder, "--",
                            a.target, "spin", "100", "10"], capture_output=True, text=True)
        print(r.stderr[-2000:])
        ranks = [os.path.join(folder, f"report-rank{i}.json") for i in (0, 1)]
        expect(r.returncode == 0 and all(os.path.exists(f) for f in ranks), "mpirun -n 2: report-rank0.json and report-rank1.json")
        m = subprocess.run([a.gpuchrono, "merge", *ranks, "-o", os.path.join(folder, "job.json"), "--quiet"], capture_output=True, text=True)
        expect(m.returncode == 0, f"mpirun -n 2: gpuchrono merge ({m.stderr.strip()[-300:]})")
    else:
        print("skipped: mpirun job (no mpirun)")

    if a.scoped_target:
        scoped(a)
    else:
        print("skipped: gpuchrono scopes inside a run process (no --scoped-target)")

    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


def scoped(a):
    """run_scoped_target under gpuchrono run: 200 + 200 KernelPolicy scopes and measure() of a 20 us spin."""
    folder = os.path.join(a.out, "scoped")
    r = subprocess.run([a.gpuchrono, "run", "-o", folder, "--", a.scoped_target, "200", "20"], capture_output=True, text=True)
    print(r.stderr[-4000:])
    lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
    expect(r.returncode == 0 and len(lines) == 1, f"scoped: exit status 0 and its summary ({r.returncode}: {r.stdout[-300:]})")
    if not lines:
        return
    got = json.loads(lines[0])
    print(json.dumps({k: v for k, v in got.items() if not k.endswith("_ns")}))
    expect(got["held"] and got["shared"], f"scoped: the program's CuptiHold shares run's subscription ({got['why_not']})")
    for mode in ("stream", "thread"):
        readings = got[mode + "_ns"]
        ok = len(readings) == 200 and all(20000 <= v <= 23000 for v in readings)
        expect(ok, f"scoped: 200 KernelPolicy ({mode} mode) readings of a 20 us spin within 20 .. 23 us "
                   f"(min {min(readings, default=0):.0f}, median {statistics.median(readings) if readings else 0:.0f}, "
                   f"max {max(readings, default=0):.0f} ns)")
    expect(got["measure_method"] == "kernel" and 20000 <= got["measure_median_ns"] <= 23000,
           f"scoped: measure(Method::kernel) ran the kernel method, median {got['measure_median_ns']:.0f} ns ({got['measure_note']})")
    bad = [c for c in got["warnings"] if c in ("cupti-unavailable", "kernel-no-activity", "kernel-records-late",
                                               "kernel-records-dropped")]
    expect(not bad, f"scoped: no finding of CUPTI unavailable or records missing ({got['warnings']})")
    expect("cupti-unavailable" not in r.stderr and "another CUPTI user" not in r.stderr,
           "scoped: neither gpuchrono nor run says CUPTI was held by another user")
    rep = load(folder)
    rows = table(rep)
    spin = find(rows, "spin_kernel")
    expect(spin is not None and spin["calls"] == got["spins_launched"],
           f"scoped: the report counts each of the {got['spins_launched']} spins once ({spin})")
    expect(not any("gpuchrono_stream_marker" in k for k in rows), "scoped: no stream-mark row in the report")
    library = [k for k in rows if k.startswith(("gpuchrono::detail::", "gpuchrono::(anonymous namespace)::",
                                                 "gpuchrono::calibration_kernels::"))]
    expect(not library, f"scoped: none of gpuchrono's own kernels is a row of the program's ({library})")
    expect(any("launches of gpuchrono's own kernels" in n for n in rep["notes"]),
           f"scoped: the report counts gpuchrono's own kernels in a note ({rep['notes']})")
    expect(any("gpuchrono_stream_marker kernels" in n for n in rep["notes"]) and
           any("shared this recording's CUPTI subscription" in n for n in rep["notes"]),
           f"scoped: the report says the marks were left out and the subscription shared ({rep['notes']})")
    if spin is not None:
        median = statistics.median(got["stream_ns"] + got["thread_ns"])
        expect(abs(spin["median_ns"] - median) <= 500,
               f"scoped: the scopes' median ({median:.0f} ns) is the report's ({spin['median_ns']:.0f} ns), within 0.5 us")


if __name__ == "__main__":
    sys.exit(main())
