#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the per-commit table the change-detection tests replay, from a history tarball of commit folders.

Usage: extract_history.py HISTORY.tar.gz OUT.csv

The tarball holds one folder cNN/ per commit with the suite's report.json (gpuchrono's report, one experiment,
one series per workload, every sample in it). One CSV row per commit and series: the commit number, the series
name, the machine's fingerprint (GPU name and driver), the run's median and its CI (ns), n, and the samples
(ns, separated by spaces), so the tests need neither the tarball nor a JSON parser.
"""
import csv
import json
import sys
import tarfile


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    rows = []
    with tarfile.open(sys.argv[1]) as archive:
        for member in sorted(archive.getmembers(), key=lambda m: m.name):
            if not member.name.endswith("/report.json"):
                continue
            folder = member.name.split("/")[-2]
            if not (folder.startswith("c") and folder[1:].isdigit()):
                raise SystemExit(f"{member.name}: expected the report in a commit folder cNN/")
            report = json.load(archive.extractfile(member))
            device = report["device"]
            fingerprint = f"{device['name']} driver {device['driver_version']}"
            for experiment in report["experiments"]:
                for series in experiment["series"]:
                    measure = series["measure"]
                    stats = series["stats"]
                    rows.append([int(folder[1:]), series["name"], fingerprint, stats["median_ns"],
                                 measure["ci_low_ns"], measure["ci_high_ns"], stats["count"],
                                 " ".join(repr(s) for s in series["samples_ns"])])
    rows.sort(key=lambda row: (row[0], row[1]))
    with open(sys.argv[2], "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["commit", "series", "fingerprint", "median_ns", "ci_low_ns", "ci_high_ns", "n", "samples_ns"])
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
