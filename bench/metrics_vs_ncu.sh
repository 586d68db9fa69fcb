#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# gpuchrono's in-process metrics against Nsight Compute on the same kernels and launches.
#   bench/metrics_vs_ncu.sh [BINARY] [OUT-DIR]
# BINARY (default ./bench_metrics_vs_ncu) runs once in process (values and collection time per set and kernel),
# then, per set, under `ncu --metrics <the same names>` with --launch-only, which launches the identical kernels.
# Clocks: ncu locks the clocks to base while profiling by default, the range profiler does not; the values are
# compared with `ncu --clock-control none` (both at the clock the GPU chooses), and ncu is timed both ways.
# ncu's cost per kernel beyond its start-up: (time with each kernel launched 3 times - time with 1) / 6.
set -euo pipefail
BIN=${1:-./bench_metrics_vs_ncu}
OUTDIR=${2:-.}
NCU=${NCU:-$(command -v ncu || echo /opt/nvidia/nsight-compute/2025.3.1/ncu)}
mkdir -p "$OUTDIR"
"$BIN" > "$OUTDIR/inprocess.txt"
grep -v '^VALUE\|^UVALUE' "$OUTDIR/inprocess.txt" || true
now_ns() { date +%s%N; }
: > "$OUTDIR/ncu_times.txt"
for set in memory compute speed_of_light; do
  names=$(awk -v s=$set '$1=="VALUE" && $2==s && !seen[$4]++ {print $4}' "$OUTDIR/inprocess.txt" | paste -sd, -)
  for clock in none base; do
    for rep in 1 3; do
      f="$OUTDIR/ncu_${set}_${clock}_${rep}"
      t0=$(now_ns)
      "$NCU" --clock-control $clock --print-units base --csv --metrics "$names" "$BIN" --launch-only --repeat $rep \
        > "$f.csv" 2> "$f.err" || { echo "ncu failed for $set ($clock, repeat $rep):"; tail -5 "$f.err"; }
      t1=$(now_ns)
      echo "NCUTIME $set $clock $rep $(( (t1 - t0) / 1000000 ))" >> "$OUTDIR/ncu_times.txt"
    done
  done
done
cat "$OUTDIR/ncu_times.txt"
python3 - "$OUTDIR" <<'PY'
import csv, sys, collections, os
out = sys.argv[1]
ours = {}; times = {}; utimes = {}; uvals = {}; cvals = {}; ctimes = {}; floors = {}; floors4 = {}
for line in open(os.path.join(out, "inprocess.txt")):
    p = line.split()
    if p and p[0] == "VALUE": ours[(p[1], p[2], p[3])] = (float(p[4]), p[5])
    if p and p[0] == "UVALUE": uvals[(p[1], p[2], p[3])] = float(p[4])
    if p and p[0] == "CVALUE": cvals.setdefault((p[1], p[2], p[3]), float(p[4]))
    if p and p[0] == "CTIME": ctimes[p[1]] = (float(p[3]), float(p[4]), int(p[5]), int(p[6]))
    if p and p[0] == "FLOOR": floors[p[1]] = (float(p[2]), int(p[3]))
    if p and p[0] == "FLOOR4": floors4[p[1]] = float(p[2])
    if p and p[0] == "TIME": times[(p[1], p[2])] = (float(p[3]), float(p[4]), int(p[5]))
    if p and p[0] == "UTIME": utimes[(p[1], p[2])] = (float(p[3]), float(p[4]), int(p[5]))
ncu_t = {}
for line in open(os.path.join(out, "ncu_times.txt")):
    _, s, clock, rep, ms = line.split(); ncu_t[(s, clock, int(rep))] = float(ms)
def ncu_values(s, clock):
    vals = {}
    path = os.path.join(out, f"ncu_{s}_{clock}_1.csv")
    rows = [l for l in open(path) if l.startswith('"')]
    for r in csv.DictReader(rows):
        k = r["Kernel Name"].split("(")[0]
        try: v = float(r["Metric Value"].replace(",", ""))
        except ValueError: continue
        vals.setdefault((k, r["Metric Name"]), (v, r["Metric Unit"]))
    return vals
print("\nMetricsScope: kernel replay, the cache as the previous kernel and CUPTI's restore of memory leave it;")
print("measure() and collect(): user replay, each pass cold and clean (as ncu's default --cache-control all).")
print("\n| set | kernel | metric | MetricsScope | measure() cold | collect() of 3, cold | ncu (clock-control none) | ncu (base clocks) | difference (scope / measure / collect) | within (scope / measure / collect) |")
print("|---|---|---|---|---|---|---|---|---|---|")
bad = 0; bad_u = 0; bad_c = 0
def compare(v, n, unit, m):
    if unit == "%":
        d = v - n; diff = f"{d:+.2f} pt"; within = abs(d) <= 2.0
    else:
        d = (v - n) / n * 100 if n else (0.0 if v == 0 else float("nan")); diff = f"{d:+.3f}%"; within = abs(d) <= 1.0
    tag = "yes" if within else ("n/a" if "time" in m or unit not in ("byte", "bytes", "%") else "NO")
    return diff, tag
for s in ("memory", "compute", "speed_of_light"):
    nv = ncu_values(s, "none"); nb = ncu_values(s, "base")
    for (ss, k, m), (v, unit) in ours.items():
        if ss != s: continue
        n = nv.get((k, m), (float("nan"), ""))[0]; b = nb.get((k, m), (float("nan"), ""))[0]
        u = uvals.get((s, k, m), float("nan")); c = cvals.get((s, k, m), float("nan"))
        d1, t1 = compare(v, n, unit, m); d2, t2 = compare(u, n, unit, m); d3, t3 = compare(c, n, unit, m)
        bad += t1 == "NO"; bad_u += t2 == "NO"; bad_c += t3 == "NO"
        print(f"| {s} | {k} | {m} | {v:.6g} {unit} | {u:.6g} | {c:.6g} | {n:.6g} | {b:.6g} | {d1} / {d2} / {d3} | {t1} / {t2} / {t3} |")
print("\n| set | kernel | passes | MetricsScope (kernel replay) first use ms | MetricsScope ms per kernel (median) | measure() (user replay) ms per kernel (median) | ncu ms per kernel, clock none | ncu ms per kernel, base clocks | ncu/MetricsScope | ncu/measure() | target (measure()) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
target = {"memory": 14, "compute": 18, "speed_of_light": 30}
for s in ("memory", "compute", "speed_of_light"):
    per_none = (ncu_t[(s, "none", 3)] - ncu_t[(s, "none", 1)]) / 6
    per_base = (ncu_t[(s, "base", 3)] - ncu_t[(s, "base", 1)]) / 6
    for (ss, k), (first, med, passes) in times.items():
        if ss != s: continue
        umed = utimes.get((s, k), (float("nan"), float("nan"), 0))[1]
        print(f"| {s} | {k} | {passes} | {first:.1f} | {med:.2f} | {umed:.2f} | {per_none:.1f} | {per_base:.1f} | {per_base/med:.1f}x | {per_base/umed:.1f}x | <= {target[s]} ms: {'met' if umed <= target[s] else 'NOT met'} |")
    print(f"| {s} | (ncu whole process, 1 launch each, base clocks) | | | | | | | {ncu_t[(s,'base',1)]:.0f} | | | |")
print("\n| set | collect() of the 3 kernels in one session, ms (median) | passes | per kernel ms | CUPTI floor: collect() of a trivial kernel, ms | floor per pass ms | floor with a 4-range image, ms | target per kernel |")
print("|---|---|---|---|---|---|---|---|")
for s in ("memory", "compute", "speed_of_light"):
    if s not in ctimes: continue
    first, med, passes, ranges = ctimes[s]; fl, fp = floors.get(s, (float("nan"), 1))
    per = med / 3
    print(f"| {s} | {med:.1f} | {passes} | {per:.2f} | {fl:.1f} | {fl / max(fp, 1):.2f} | {floors4.get(s, float('nan')):.1f} | <= {target[s]} ms: {'met' if per <= target[s] else 'NOT met'} |")
print(f"\nmetrics outside tolerance: MetricsScope {bad}, measure() cold {bad_u}, collect() cold {bad_c}")
PY
