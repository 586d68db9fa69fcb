#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The HTML pages in a real browser: builds every kind of page the library writes from test data, then opens
them all in one headless Chromium session (scripts/check-html) and checks each one.

    report_html_browser_test.py --report-tool gpuchrono-report --compare-tool gpuchrono-compare \\
        --data test/data --out LOG_DIR

Pages: a saved report (test/data/report-v1.json: timelines, a sweep, findings) as a folder and as a single file;
report-numbers.json (extreme numbers); a measure() series with hardware metrics and a roofline; a comparison
of two reports (one series slower, one unchanged, one only in the base) ; a merged four-rank job (per-rank
table, lateness heat map); and bad input: names with HTML in them, NaN and empty fields, an experiment with
no series, a report with no experiments. Screenshots at 1280 and 400 px go to LOG_DIR/screenshots.
Exit status 77 (a skip) where Chromium, its driver or Selenium is missing.
"""

import argparse
import copy
import importlib.machinery
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
loader = importlib.machinery.SourceFileLoader("check_html", str(HERE.parent / "scripts" / "check-html"))
spec = importlib.util.spec_from_loader("check_html", loader)
check_html = importlib.util.module_from_spec(spec)
loader.exec_module(check_html)

HOSTILE = "<script>alert('x')</script><b>bold</b> & \"quoted\" 'single'"
HOSTILE_ATTRIBUTE = "\"><img src=x onerror=alert(1)>"


def run(cmd, ok=(0,)):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if done.returncode not in ok:
        sys.exit(f"{' '.join(map(str, cmd))} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done


def series(name, samples, policy="event", **extra):
    s = {"name": name, "policy": policy, "samples_ns": samples, "failed": 0, "first_error": "", "findings": []}
    s.update(extra)
    return s


def measured_report(base):
    """measure() series with its record, hardware metrics per kernel and a roofline."""
    r = copy.deepcopy(base)
    samples = [10000 + 37 * ((i * 7919) % 41) for i in range(60)]
    ordered = sorted(samples)
    measure = {"method": "graph", "method_note": "CUDA graph of 8 calls", "cache_state": "warm", "calls_per_sample": 8,
               "warmup_ns": 2.5e6, "warmup_calls": 40, "warmup_ended": "stable", "stop_reason": "converged",
               "ci_low_ns": float(ordered[23]), "ci_high_ns": float(ordered[36]), "ci_coverage": 0.9511,
               "target_relative_width": 0.05, "sampling_ns": 1.2e7, "flagged": 0, "excluded": 0,
               "bytes_per_second": 2.71e12, "peak_bytes_per_second": 3.35e12, "items_per_second": None}
    metrics = {"requested": ["dram__bytes_read.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed"], "passes": 3,
               "collection_ns": 4.1e8,
               "peaks": {"device": 0, "device_name": "Fixture GPU", "compute_major": 9, "compute_minor": 0, "sm_count": 132,
                         "sm_clock_mhz": 1980, "memory_clock_mhz": 2619, "memory_bus_bits": 5120,
                         "dram_bytes_per_second": 3.35e12, "fp32_flops_per_second": 6.7e13, "fp64_flops_per_second": 3.4e13,
                         "source": "attributes"},
               "kernels": [{"kernel": "saxpy", "launch": 0, "device": 0,
                            "values": [{"name": "dram__bytes_read.sum", "value": 2.68e8, "unit": "byte"},
                                       {"name": "sm__throughput.avg.pct_of_peak_sustained_elapsed", "value": 81.5, "unit": "%"}]},
                           {"kernel": "reduce<float>", "launch": 0, "device": 0,
                            "values": [{"name": "dram__bytes_read.sum", "value": 1.34e8, "unit": "byte"}]}],
               "roofline": [{"kernel": "saxpy", "launch": 0, "precision": "fp32", "flops": 6.7e7, "dram_bytes": 4.0e8,
                             "seconds": 1.5e-4, "intensity": 0.1675, "achieved_flops_per_second": 4.47e11,
                             "attainable_flops_per_second": 5.6e11, "bound": "memory"}],
               "notes": []}
    r["experiments"] = [{
        "id": "measure", "title": "measure() with hardware metrics", "reproduces": "",
        "explanation": ["saxpy timed by measure(): a CUDA graph of 8 calls per sample, warm L2."],
        "metrics": [{"name": "bandwidth", "value": 2.71e12, "unit": "B/s", "note": "81% of the peak"},
                    {"name": "median", "value": float(ordered[30]), "unit": "ns", "note": ""}],
        "series": [series("saxpy 64 MiB", samples, "graph", measure=measure, kernel_metrics=metrics)],
        "timelines": [], "sweeps": [], "findings": []}]
    return r


def hostile_report(base):
    """Every string a user supplies carries HTML; numbers missing; an experiment without series."""
    r = copy.deepcopy(base)
    r["host"] = HOSTILE
    r["device"]["name"] = HOSTILE_ATTRIBUTE
    r["notes"] = [HOSTILE, ""]
    e = r["experiments"][0]
    e["id"] = "x<y>"
    e["title"] = HOSTILE
    e["explanation"] = [HOSTILE_ATTRIBUTE, ""]
    e["metrics"] = [{"name": HOSTILE, "value": None, "unit": "ns", "note": HOSTILE_ATTRIBUTE},
                    {"name": "", "value": None, "unit": "", "note": ""}]
    e["series"] = [series(HOSTILE, [1000.0, 1100.0, 1200.0], HOSTILE_ATTRIBUTE,
                          findings=[{"code": "cold-first-sample", "severity": "warning", "message": HOSTILE,
                                     "fix": HOSTILE_ATTRIBUTE, "where": "<main.cpp>:1"}]),
                   series(HOSTILE_ATTRIBUTE, [], "")]
    for t in e.get("timelines", []):
        t["name"] = HOSTILE
    for s in e.get("sweeps", []):
        s["name"] = HOSTILE_ATTRIBUTE
        s["title"] = HOSTILE
    e["findings"] = [{"code": "<code>", "severity": "error", "message": HOSTILE, "fix": "", "where": ""}]
    empty = {"id": "", "title": "", "reproduces": "", "explanation": [], "metrics": [], "series": [], "timelines": [],
             "sweeps": [], "findings": []}
    r["experiments"] = [e, empty]
    return r


def comparison_reports(base):
    b, n = copy.deepcopy(base), copy.deepcopy(base)
    fast = [20000 + 11 * ((i * 31) % 17) for i in range(40)]
    steady = [5000 + 3 * ((i * 13) % 7) for i in range(40)]
    b["experiments"] = [{"id": "kernels", "title": "Kernels", "metrics": [], "timelines": [], "sweeps": [], "findings": [],
                         "series": [series("saxpy", fast), series("copy", steady), series(HOSTILE, steady)]}]
    n["experiments"] = [{"id": "kernels", "title": "Kernels", "metrics": [], "timelines": [], "sweeps": [], "findings": [],
                         "series": [series("saxpy", [v * 1.10 for v in fast]), series("copy", steady)]}]
    return b, n


def rank_reports(base, folder):
    """Four ranks of one job on one host; rank 2 ends steps 3, 4 and 7 three ms late; a second scope's name
    carries HTML."""
    t0 = 1_000_000_000_000
    files = []
    for r in range(4):
        rep = copy.deepcopy(base)
        rep["experiments"] = []
        rep["host"] = "node0"
        off = r * 1000
        scopes = []
        for k in range(10):
            start = t0 + 1_000_000 + k * 10_000_000
            end = start + 6_000_000 + (3_000_000 if r == 2 and k in (3, 4, 7) else 0)
            scopes.append({"name": "step", "start_ns": start + off, "end_ns": end + off, "device": 0, "bytes": 0})
            # A scope named with HTML, long enough to overflow a fixed buffer: its heat map must still load.
            scopes.append({"name": HOSTILE * 8, "start_ns": end + off + 1000, "end_ns": end + off + 2000 + 500 * r,
                           "device": 0, "bytes": 0})
        rep["distributed"] = {
            "host": "node0", "pid": 1000 + r, "rank": r, "local_rank": r, "world_size": 4, "job_id": "browser-test",
            "launcher": "manual", "devices": [],
            "anchors": [{"steady_ns": t0 + off, "system_ns": t0 + 123, "read_width_ns": 100, "cupti_ns": None},
                        {"steady_ns": t0 + 200_000_000 + off, "system_ns": t0 + 200_000_123, "read_width_ns": 100, "cupti_ns": None}],
            "reference_offsets": [], "scopes": scopes}
        f = folder / f"rank{r}.json"
        f.write_text(json.dumps(rep))
        files.append(f)
    return files


# On the hostile page: the names show as text (the DOM reads them back unchanged), and nothing they carry runs
# or becomes an element.
HOSTILE_CHECK = """
const problems = [];
if (document.querySelectorAll('script').length !== 1) problems.push('scripts on the page: ' + document.querySelectorAll('script').length);
if (document.querySelector('[onerror]')) problems.push('an element with onerror');
if (document.querySelector('main b')) problems.push('a <b> from a name became an element');
for (const img of document.images) if (img.getAttribute('src') === 'x') problems.push('an <img src=x> from a name');
const text = document.body.textContent;
for (const s of arguments) if (!text.includes(s)) problems.push('the name is not shown as text: ' + s);
return problems;
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report-tool", required=True)
    parser.add_argument("--compare-tool", required=True)
    parser.add_argument("--data", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    out = args.out
    pages_dir = out / "pages"
    inputs = out / "inputs"
    inputs.mkdir(parents=True, exist_ok=True)
    base = json.loads((args.data / "report-v1.json").read_text())

    started = time.monotonic()
    made = {}

    def report_folder(name, source, *extra):
        folder = pages_dir / name
        run([args.report_tool, source, "--out", folder, "--quiet", *extra])
        made[name] = folder / "index.html"

    report_folder("tour-fixture", args.data / "report-v1.json")
    report_folder("tour-fixture-single", args.data / "report-v1.json", "--single-file")
    report_folder("numbers", args.data / "report-numbers.json")
    (inputs / "measure.json").write_text(json.dumps(measured_report(base)))
    report_folder("measure", inputs / "measure.json", "--single-file")
    (inputs / "hostile.json").write_text(json.dumps(hostile_report(base)))
    report_folder("hostile", inputs / "hostile.json")
    empty = copy.deepcopy(base)
    empty["experiments"] = []
    empty["notes"] = []
    (inputs / "empty.json").write_text(json.dumps(empty))
    report_folder("empty", inputs / "empty.json")

    b, n = comparison_reports(base)
    (inputs / "base.json").write_text(json.dumps(b))
    (inputs / "new.json").write_text(json.dumps(n))
    compare_page = pages_dir / "compare" / "compare.html"
    compare_page.parent.mkdir(parents=True, exist_ok=True)
    done = run([args.compare_tool, inputs / "base.json", inputs / "new.json", "--html", compare_page], ok=(1,))
    if "slower" not in done.stdout:
        sys.exit("gpuchrono-compare did not find the slower series:\n" + done.stdout)

    ranks = rank_reports(base, inputs)
    job_page = pages_dir / "job" / "job.html"
    run([args.report_tool, "merge", *ranks, "-o", pages_dir / "job" / "job.json", "--html", job_page, "--quiet"])
    built = time.monotonic() - started

    expect_report = lambda name: {"kind": "report", "report": json.loads((made[name].parent / "report.json").read_text())}
    pages = [(made[name], expect_report(name), name) for name in made]
    pages.append((compare_page, {"kind": "compare", "base": b, "new": n}, "compare"))
    pages.append((job_page, {"kind": "job", "job": json.loads((pages_dir / "job" / "job.json").read_text())}, "job"))

    # The hostile page gets its own checks on top of the common ones.
    original_check_page = check_html.check_page

    def check_page(driver, page, expect=None, shots=None, name=None):
        problems, line = original_check_page(driver, page, expect, shots, name)
        if name in ("hostile", "job"):
            problems += driver.execute_script(HOSTILE_CHECK, *([HOSTILE, HOSTILE_ATTRIBUTE] if name == "hostile" else [HOSTILE * 8]))
            line += ", names with HTML shown as text"
        if name == "compare":
            verdicts = driver.execute_script("return Array.from(document.querySelectorAll('td.verdict')).map(t => t.textContent)")
            if sorted(verdicts) != ["no difference", "not compared", "slower"]:
                problems.append(f"verdicts {verdicts}")
            line += f", verdicts {verdicts}"
        return problems, line

    check_html.check_page = check_page
    started = time.monotonic()
    try:
        failed = check_html.run(pages, out / "screenshots")
    except check_html.Missing as e:
        print(f"SKIP: {e}")
        return check_html.SKIP
    checked = time.monotonic() - started

    single = made["tour-fixture-single"].stat().st_size
    linked = made["tour-fixture"].stat().st_size
    print(f"built {len(pages)} pages in {built:.1f} s, checked them in one Chromium session in {checked:.1f} s")
    print(f"report-v1.json: index.html {linked} bytes linking its pictures, {single} bytes with them inlined")
    print(f"screenshots: {out / 'screenshots'}")
    print(f"{len(pages) - failed} of {len(pages)} pages pass")
    return 1 if failed else 0


if __name__ == "__main__":
    check_html.debian_python()
    sys.exit(main())
