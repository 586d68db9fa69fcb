#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""libgpuchrono_inject.so's own code without a GPU: stand_in_program drives it over a stand-in CUPTI
(test/run/stand_in/), with the options in GPUCHRONO_RUN_* variables as a launcher passes them.

Checks: every record counted; attribution to the innermost NVTX range per thread (runtime and driver callbacks
both seen); a range named by a registered string tabled under its text; an NVIDIA library's own ranges left
out, its kernels in the program's range around the call, and the notes on them and on what turned the launch
callbacks on; memcpy by kind; exit(3) passed on with a complete report; dropped records named; SIGTERM writes the
report and ends the program as SIGTERM does; a program's own SIGINT handler still runs; a crash leaves the last
periodic flush marked incomplete; another CUPTI user: a clear message, the program runs untouched; a forked
child leaves the parent's report alone; the program's own gpuchrono hold shares the injection's subscription
(records and launch callbacks reach the library, the report counts each kernel once and leaves the library's
stream marks out), also while holds come and go as records flow; a gpuchrono that loaded another CUPTI is refused;
every buffer handed to CUPTI is zeroed, as the injection promises it (the stand-in ends the program otherwise);
a bench's GPUCHRONO_RUN_BENCH_LEAVE_OUT leaves out what it names and the report says so.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys

failures = []


def expect(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def rows(report, experiment):
    out = {}
    for e in report["experiments"]:
        if e["id"] == experiment:
            metrics = {m["name"]: m["value"] for m in e.get("metrics", [])}
            for s in e["series"]:
                out[s["name"]] = metrics.get(s["name"] + " | calls")
    return out


def metric(report, experiment, name):
    for e in report["experiments"]:
        if e["id"] == experiment:
            for m in e.get("metrics", []):
                if m["name"] == name:
                    return m["value"]
    return None


def codes(report):
    found = set()
    for e in report["experiments"]:
        found.update(f["code"] for f in e.get("findings", []))
        for s in e["series"]:
            found.update(f["code"] for f in s.get("findings", []))
    return found


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--program", required=True)
    p.add_argument("--fake", required=True)
    p.add_argument("--inject", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--gpuchrono", required=True)
    p.add_argument("--watch", required=True, help="libgpuchrono_run_watch.so, which gpuchrono run preloads")
    p.add_argument("--other-cupti", help="a second stand-in CUPTI, for a gpuchrono that loads another CUPTI")
    p.add_argument("--library", required=True, help="libcublas_stand_in.so, a stand-in NVIDIA library with NVTX ranges")
    a = p.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)

    def run(mode, folder_name=None, file_name="report.json", extra=(), **env):
        folder = os.path.join(a.out, folder_name or mode)
        e = dict(os.environ, GPUCHRONO_RUN_OUTPUT=folder, GPUCHRONO_RUN_FLUSH_MS="100")
        for k in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "SLURM_PROCID",
                  "SLURM_NTASKS", "PMI_RANK", "PMI_SIZE"):
            e.pop(k, None)
        e.update(env)
        r = subprocess.run([a.program, a.fake, a.inject, mode, *extra], capture_output=True, text=True, env=e, timeout=60)
        report = None
        path = os.path.join(folder, file_name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                report = json.load(f)
        return r, report

    r, rep = run("exit")
    expect(r.returncode == 3, f"exit(3) passed on ({r.returncode}): {r.stderr[-300:]}")
    expect(rep is not None and "run status: complete" in rep["notes"], "exit(): the report is complete")
    if rep:
        k = rows(rep, "kernels")
        expect(k.get("k_step()") == 200 and k.get("spin(unsigned long)") == 400 and k.get("outside") == 200,
               f"every kernel counted, names demangled ({k})")
        n = rows(rep, "nvtx")
        expect(n.get("step") == 200 and n.get("thread-0") == 200 and n.get("thread-1") == 200 and len(n) == 3,
               f"innermost NVTX range per thread ({n})")
        expect(metric(rep, "transfers", "memcpy HtoD | bytes") == 1 << 20, "memcpy HtoD bytes")
        expect("spin(unsigned long)" in r.stderr, "the top table on stderr")

    if rep:
        expect(any(n.startswith("NVTX ranges (400 pushed) turned the launch callbacks on at the first, 'step'")
                   for n in rep["notes"]), f"the report says which range turned the launch callbacks on ({rep['notes']})")

    r, rep = run("library-ranges", extra=(a.library,))
    expect(r.returncode == 0 and rep is not None, f"library-ranges ran ({r.returncode}): {r.stderr[-300:]}")
    if rep:
        expect(rows(rep, "nvtx") == {"gemm": 10, "forward": 15},
               f"a range named by a registered string is tabled under its text; an NVIDIA library's own ranges are not, "
               f"its kernels count in the program's range around the call ({rows(rep, 'nvtx')})")
        expect(rows(rep, "kernels").get("lib_gemm") == 20, f"the library's kernels are all counted ({rows(rep, 'kernels')})")
        expect(any("turned the launch callbacks on at the first, 'gemm' of NVTX domain 'stand-in program domain'" in n
                   for n in rep["notes"]),
               f"the note names the range and domain that turned the launch callbacks on, not a library's ({rep['notes']})")
        expect(any(n.startswith("25 NVTX ranges of NVIDIA libraries' own domains ('CCCL' (CUB/Thrust), "
                                "'cuBLAS stand-in' (libcublas_stand_in.so)) left out") for n in rep["notes"]),
               f"the library's ranges are counted and named in a note ({rep['notes']})")

    r, rep = run("timed")
    expect(rep is not None and not any("turned the launch callbacks on" in n for n in rep["notes"]),
           f"without NVTX ranges the launch callbacks stay off, and no note says otherwise ({rep and rep['notes']})")

    r, rep = run("dropped", GPUCHRONO_RUN_FORMAT="json,csv")
    expect(rep is not None and "kernel-records-dropped" in codes(rep), "dropped records: an error finding")
    expect("kernel-records-dropped" in r.stderr, "dropped records: named on stderr")
    expect(os.path.exists(os.path.join(a.out, "dropped", "report-kernels.csv")), "--format csv: report-kernels.csv")

    r, rep = run("sigterm")
    expect(r.returncode == -signal.SIGTERM, f"SIGTERM ends the program as before ({r.returncode})")
    expect(rep is not None and any("SIGTERM" in n for n in rep["notes"]) and rows(rep, "kernels").get("outside") == 200,
           "SIGTERM: the report holds every record and says how it ended")

    r, rep = run("sigint-handled")
    expect(r.returncode == 0 and "its own SIGINT handler ran" in r.stdout, f"the program's SIGINT handler still runs ({r.stdout})")
    expect(rep is not None and "run status: complete" in rep["notes"], "SIGINT handled, then exit: complete report")

    r, rep = run("crash")
    expect(r.returncode == -signal.SIGABRT, f"crash: killed by SIGABRT ({r.returncode})")
    expect(rep is not None and any(n.startswith("run status: incomplete") for n in rep["notes"]), "crash: marked incomplete")
    expect(rep is not None and rows(rep, "kernels").get("outside") == 200, "crash: the records flushed before it")

    # A profiler started inside the program asks CUPTI for its subscriber: refused, named by the preloaded watch.
    r, rep = run("profiler-inside", LD_PRELOAD=a.watch,
                 ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
    expect(r.returncode == 0 and "answered 39" in r.stdout, f"profiler inside: its cuptiSubscribe refused, the program goes on ({r.stdout.strip()})")
    expect("asked for CUPTI's subscriber slot" in r.stderr, f"profiler inside: named on stderr ({r.stderr.strip()[-300:]})")
    expect(rep is not None and any(n.startswith("another CUPTI user in the program") for n in rep["notes"]),
           "profiler inside: the report names it")
    expect(rep is not None and rows(rep, "kernels").get("before") == 10 and rows(rep, "kernels").get("after") == 10,
           "profiler inside: every kernel before and after it recorded")

    r, rep = run("held")
    expect(r.returncode == 0 and "ran to its end" in r.stdout, "another CUPTI user: the program runs untouched")
    expect("another CUPTI user" in r.stderr, f"another CUPTI user: said on stderr ({r.stderr.strip()})")
    expect(rep is not None and any("another CUPTI user" in n for n in rep["notes"]), "another CUPTI user: the report says so")

    r, rep = run("fork")
    expect(r.returncode == 0 and rep is not None and rows(rep, "kernels").get("outside") == 200,
           "a forked child leaves the parent's report alone")

    r, rep = run("shared")
    print(r.stdout, end="")
    expect(r.returncode == 0 and "FAIL" not in r.stdout and "it shares the injection's CUPTI subscription" in r.stdout,
           "shared: the program's gpuchrono hold shares the subscription" +
           ("" if r.returncode == 0 else f" (exit {r.returncode}: {r.stderr.strip()[-300:]})"))
    k = rows(rep, "kernels") if rep else {}
    expect(k == {"spin(unsigned long)": 20, "after": 10}, f"shared: the report counts each kernel once, no marks ({k})")
    notes = rep["notes"] if rep else []
    expect(any(n.startswith("2 gpuchrono_stream_marker kernels") for n in notes), f"shared: the marks left out, said ({notes})")
    expect(any(n.startswith("4 launches of gpuchrono's own kernels") for n in notes),
           f"shared: the library's warm-ups and lead spin left out, counted ({notes})")
    expect(any("shared this recording's CUPTI subscription (attached 2 times)" in n for n in notes), "shared: the sharing said")

    r, rep = run("shared-churn")
    print(r.stdout, end="")
    k = rows(rep, "kernels") if rep else {}
    expect(r.returncode == 0 and "FAIL" not in r.stdout and k == {"churn": 2000},
           f"shared-churn: holds attach and detach while records flow, every kernel counted once ({k})" +
           ("" if r.returncode == 0 else f" (exit {r.returncode}: {r.stderr.strip()[-300:]})"))

    if a.other_cupti:
        r, rep = run("shared-other-cupti", GPUCHRONO_CUPTI=a.other_cupti)
        print(r.stdout, end="")
        k = rows(rep, "kernels") if rep else {}
        expect(r.returncode == 0 and "FAIL" not in r.stdout and k == {"late": 5},
               f"shared-other-cupti: a gpuchrono on another CUPTI is refused with a reason; the run records on ({k})")

    r, rep = run("exit", GPUCHRONO_RUN_KERNELS="^spin", GPUCHRONO_RUN_NVTX="thread-1")
    k = rows(rep, "kernels") if rep else {}
    expect(k == {"spin(unsigned long)": 200}, f"--kernels and --nvtx through the environment ({k})")

    # A bench's GPUCHRONO_RUN_BENCH_LEAVE_OUT: each part it names is off, the rest of the report as before, and the
    # report says what it misses.
    r, rep = run("exit", "leave-out-kinds", GPUCHRONO_RUN_BENCH_LEAVE_OUT="memcpy,nvtx")
    expect(r.returncode == 3 and rep is not None, f"leave out memcpy,nvtx: the program ran ({r.returncode}): {r.stderr[-300:]}")
    if rep:
        expect(metric(rep, "transfers", "memcpy HtoD | bytes") is None, "leave out memcpy: no copy recorded")
        expect(rows(rep, "kernels").get("spin(unsigned long)") == 400, f"leave out memcpy,nvtx: kernels counted ({rows(rep, 'kernels')})")
        expect(not rows(rep, "nvtx") and not any("turned the launch callbacks on" in n for n in rep["notes"]),
               f"leave out nvtx: no range tabled, the launch callbacks stay off ({rows(rep, 'nvtx')})")
        expect(any(n.startswith("recorded without memcpy,nvtx (GPUCHRONO_RUN_BENCH_LEAVE_OUT") for n in rep["notes"]),
               f"leave out: the report says what it misses ({rep['notes']})")
    expect("recording without memcpy,nvtx" in r.stderr, f"leave out: said on stderr ({r.stderr[-300:]})")
    r, rep = run("exit", "leave-out-tables", GPUCHRONO_RUN_BENCH_LEAVE_OUT="tables")
    expect(r.returncode == 3 and rep is not None and not rows(rep, "kernels") and "run status: complete" in rep["notes"],
           f"leave out tables: records handed back unread, the report complete and empty ({rep and rows(rep, 'kernels')})")
    r, rep = run("crash", "leave-out-periodic", GPUCHRONO_RUN_BENCH_LEAVE_OUT="periodic")
    expect(r.returncode == -signal.SIGABRT and rep is None,
           f"leave out periodic: no periodic report before the crash ({r.returncode}, {rep and rep['notes']})")
    r, rep = run("exit", "leave-out-recycle", GPUCHRONO_RUN_BENCH_LEAVE_OUT="recycle")
    k = rows(rep, "kernels") if rep else {}
    expect(r.returncode == 3 and k.get("spin(unsigned long)") == 400 and k.get("outside") == 200,
           f"leave out recycle: fresh buffers each time, every kernel counted ({k})")
    expect(rep is not None and "recorded without recycle (GPUCHRONO_RUN_BENCH_LEAVE_OUT, a bench's setting to see what "
           "each part costs)" in rep["notes"], f"leave out recycle: said, and nothing said missing ({rep and rep['notes']})")
    r, rep = run("exit", "leave-out-bad", GPUCHRONO_RUN_BENCH_LEAVE_OUT="kernels")
    expect(r.returncode == 3 and "GPUCHRONO_RUN_BENCH_LEAVE_OUT" in r.stderr and "'kernels'" in r.stderr,
           f"leave out an unknown part: named, the program runs ({r.stderr.strip()[-300:]})")

    r, rep = run("exit", GPUCHRONO_RUN_TOP="many")
    expect("GPUCHRONO_RUN_TOP" in r.stderr and r.returncode == 3, "a bad variable: named, the program runs")

    r, rep = run("window", GPUCHRONO_RUN_SIGNALS="1")
    k = rows(rep, "kernels") if rep else {}
    expect(k == {"inside": 10}, f"--signals: only what ran between SIGUSR1 and SIGUSR2 ({k})")
    r, rep = run("timed", "delay", GPUCHRONO_RUN_DELAY="0.2")
    k = rows(rep, "kernels") if rep else {}
    expect(k == {"late": 10}, f"--delay 0.2: only the later kernels ({k})")
    r, rep = run("timed", "duration", GPUCHRONO_RUN_DURATION="0.2")
    k = rows(rep, "kernels") if rep else {}
    expect(k == {"early": 10}, f"--duration 0.2: only the earlier kernels ({k})")

    # Two ranks of a torchrun-style job: a report each, named by rank, merged into one job.
    for rank in (0, 1):
        r, rep = run("exit", "ranks", f"report-rank{rank}.json", RANK=str(rank), WORLD_SIZE="2", LOCAL_RANK=str(rank),
                     GPUCHRONO_JOB_ID="stand-in-job")
        expect(rep is not None and rep["distributed"]["rank"] == rank, f"rank {rank}: report-rank{rank}.json")
    ranks = os.path.join(a.out, "ranks")
    m = subprocess.run([a.gpuchrono, "merge", os.path.join(ranks, "report-rank0.json"), os.path.join(ranks, "report-rank1.json"),
                        "-o", os.path.join(ranks, "job.json"), "--quiet"], capture_output=True, text=True)
    expect(m.returncode == 0 and os.path.exists(os.path.join(ranks, "job.json")), f"gpuchrono merge of the ranks ({m.stderr.strip()})")

    # gpuchrono diff of two like runs: nothing changed, every name compared.
    d = subprocess.run([a.gpuchrono, "diff", os.path.join(a.out, "sigint-handled"), os.path.join(a.out, "fork")],
                       capture_output=True, text=True)
    expect(d.returncode == 0 and "0 slower, 0 faster, 0 added, 0 removed" in d.stdout, f"diff of like runs ({d.stdout[-200:]})")

    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
