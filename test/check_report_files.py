#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the files gpuchrono-report (or the tour) wrote into a folder with tools independent of gpuchrono's
own reader: Python's json, csv and xml.etree. Exits non-zero, naming the file and the problem, on any failure.

    check_report_files.py DIR
"""
import csv
import json
import pathlib
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("check_report_files: FAILED: " + msg)
    sys.exit(1)


def main():
    folder = pathlib.Path(sys.argv[1])
    report = json.loads((folder / "report.json").read_text())
    if report.get("schema") != "gpuchrono-report" or report.get("schema_version") != 1:
        fail("report.json: wrong schema or version")
    samples = sum(len(t["samples"]) for e in report["experiments"] for t in e.get("timelines", []))
    series_samples = sum(len(s["samples_ns"]) for e in report["experiments"] for s in e.get("series", []))

    svgs = sorted(folder.glob("*.svg"))
    if not svgs:
        fail("no SVG written")
    for svg in svgs:
        try:
            root = ET.parse(svg).getroot()
        except ET.ParseError as e:
            fail(f"{svg.name}: not well-formed XML: {e}")
        if not root.tag.endswith("svg"):
            fail(f"{svg.name}: root element is {root.tag}")
        ns = "{http://www.w3.org/2000/svg}"
        if svg.name.startswith("timeline-"):
            bars = [r for r in root.iter(ns + "rect") if r.get("class") == "block"]
            if not bars:
                fail(f"{svg.name}: no block bars")

    trace = json.loads((folder / "trace.json").read_text())
    complete = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    if len(complete) != samples:
        fail(f"trace.json: {len(complete)} complete events for {samples} per-block records")
    named = {(e["pid"], e["tid"]) for e in trace["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    for e in complete:
        for key in ("name", "ts", "dur", "pid", "tid"):
            if key not in e:
                fail(f"trace.json: an event lacks {key}")
        if e["dur"] < 0 or e["ts"] < 0:
            fail("trace.json: negative ts or dur")
        if (e["pid"], e["tid"]) not in named:
            fail(f"trace.json: track {e['tid']} has no thread_name")

    def rows(name):
        with open(folder / name, newline="") as f:
            return list(csv.reader(f))

    blocks = rows("blocks.csv")
    if blocks[0][:3] != ["experiment", "timeline", "block"] or len(blocks) - 1 != samples:
        fail(f"blocks.csv: header {blocks[0][:3]} or {len(blocks) - 1} rows for {samples} records")
    sample_rows = rows("samples.csv")
    if len(sample_rows) - 1 != series_samples:
        fail(f"samples.csv: {len(sample_rows) - 1} rows for {series_samples} samples")
    for name in ("stats.csv", "sweeps.csv", "metrics.csv"):
        table = rows(name)
        if any(len(r) != len(table[0]) for r in table):
            fail(f"{name}: rows of different lengths")

    html = (folder / "index.html").read_text()
    for svg in svgs:
        if svg.name not in html:
            fail(f"index.html does not show {svg.name}")
    print(f"check_report_files: ok ({len(svgs)} SVGs, {samples} block records, {series_samples} samples)")


main()
