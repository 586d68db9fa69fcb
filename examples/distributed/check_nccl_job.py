#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks a merged NCCL step job against the delay it injected:
    check_nccl_job.py OUT_DIR SLOW_RANK DELAY_US STEP...
The merge names stragglers by when a scope ends: for scope "compute" (it ends when a rank is ready to reduce) on
each slow step the merge must name SLOW_RANK as the last, and each other rank's wait for it (the merge's
waited_ns, a sum over the others, / (n - 1)) must be DELAY_US within 5%. Also prints the "allreduce" scope's
excess durations (the others' all-reduce holds the wait). Prints every
figure and the collective table (NCCL kernels' wait vs transfer); exits 1 if a check fails."""
import json, sys

out, slow, delay_us = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
steps = [int(k) for k in sys.argv[4:]]
job = json.load(open(f"{out}/job.json"))
n = job["world_size"]
print(f"job {job['job_id']}: {n} ranks, clock {job['clock']}, alignment error bound {job['alignment_error_ns']} ns")
ok = n >= 2
if not ok:
    print("one rank: nobody waits; nothing to check")
cs = next(s for s in job["stragglers"] if s["name"] == "compute")
ar = next(s for s in job["stragglers"] if s["name"] == "allreduce")
print(f"compute: times last by rank {dict(zip(cs['ranks'], cs['times_last']))}")
for k in steps:
    print(f"step {k}: allreduce scope, duration minus the others' median by rank "
          f"{dict(zip(ar['ranks'], [round(e / 1e3, 1) for e in ar['steps'][k]['excess_ns']]))} us")
for k in steps:
    s = cs["steps"][k]
    per_other = s["waited_ns"] / 1e3 / max(n - 1, 1)
    good = s["last_rank"] == slow and abs(per_other - delay_us) <= 0.05 * delay_us
    ok &= good
    print(f"step {k}: last rank {s['last_rank']}, late vs median {s['last_lateness_ns']/1e3:.1f} us, each other rank waited "
          f"{per_other:.1f} us (injected {delay_us:.1f} us, {100 * (per_other - delay_us) / delay_us:+.2f}%): {'ok' if good else 'FAIL'}")
for c in job.get("collectives", []):
    print("collective:", json.dumps(c)[:400])
print("all checks passed" if ok else "CHECK FAILED")
sys.exit(0 if ok else 1)
