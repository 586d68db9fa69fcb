#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Summarises a merged job for a closing note: python3 summarize_job.py OUT_DIR [late_rank late_steps...]
Prints the trace's processes and tracks, and for each given step which rank the merge named and by how much."""
import json, sys

out = sys.argv[1]
trace = json.load(open(f"{out}/trace.json"))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in trace if e["ph"] == "M" and e["name"] == "process_name"}
tracks = [(e["pid"], e["args"]["name"]) for e in trace if e["ph"] == "M" and e["name"] == "thread_name"]
kinds = {}
for e in trace:
    if e["ph"] == "X":
        kinds[e["cat"]] = kinds.get(e["cat"], 0) + 1
print(f"trace: {len(procs)} processes: {sorted(procs.values())}")
print(f"trace: {len(tracks)} tracks: {tracks}")
print(f"trace: events by category: {kinds}")
job = json.load(open(f"{out}/job.json"))
print(f"job: clock {job['clock']}, alignment error bound {job['alignment_error_ns']} ns: {job['alignment_note']}")
for r in job["ranks"]:
    print(f"  rank {r['rank']}: devices {[(d['index'], d['uuid'], d['pci_bus_id']) for d in r['devices']]}, offset {r['offset_ns']} ns, "
          f"drift {r['drift_ppm']:.3f} ppm, activities {r['activities']} (unplaced {r['activities_unplaced']}), busy {r['busy']}")
if len(sys.argv) > 2:
    late_rank = int(sys.argv[2])
    st = next(s for s in job["stragglers"] if s["name"] == "step")
    print(f"times last by rank: {dict(zip(st['ranks'], st['times_last']))}")
    ok = True
    for k in map(int, sys.argv[3:]):
        s = st["steps"][k]
        print(f"step {k}: last rank {s['last_rank']}, late vs median {s['last_lateness_ns']/1e6:.3f} ms, own excess {s['last_excess_ns']/1e6:.3f} ms, others waited {s['waited_ns']/1e6:.3f} ms")
        ok &= s["last_rank"] == late_rank
    print("named the late rank on every late step" if ok else "DID NOT name the late rank on every late step")
