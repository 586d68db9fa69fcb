# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""pytest-benchmark's `--benchmark-json` schema written from gpuchrono's results, so `pytest-benchmark compare`
(and whatever else reads that schema, the performance history among them) takes the pytest plugin's output as its
own. Plain data in, plain data out: nothing here needs pytest or a GPU."""
from __future__ import annotations

import datetime
import importlib
import os
import platform
import socket
import statistics
import subprocess
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

# The schema version written: the pytest-benchmark release whose JSON layout this follows (its readers accept it).
SCHEMA_VERSION = "5.1.0"


@dataclass
class BenchmarkResult:
    """One timed callable of one test: what the JSON and the terminal summary need, and nothing of pytest's."""

    name: str  # the test's name, with its parameters: test_mm[1024]
    fullname: str  # the pytest node id: tests/test_mm.py::test_mm[1024]
    samples_ns: Sequence[float]
    method: str
    cache: str
    group: Optional[str] = None
    params: Optional[dict[str, Any]] = None
    ci_ns: Optional[tuple[float, float]] = None
    findings: list[dict[str, str]] = field(default_factory=list)
    bytes_per_second: Optional[float] = None
    wall_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "fullname": self.fullname, "samples_ns": [float(s) for s in self.samples_ns],
                "method": self.method, "cache": self.cache, "group": self.group, "params": self.params,
                "ci_ns": list(self.ci_ns) if self.ci_ns is not None else None, "findings": list(self.findings),
                "bytes_per_second": self.bytes_per_second, "wall_s": self.wall_s}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "BenchmarkResult":
        ci = d.get("ci_ns")
        return cls(name=d["name"], fullname=d["fullname"], samples_ns=list(d["samples_ns"]), method=d["method"],
                   cache=d["cache"], group=d.get("group"), params=d.get("params"),
                   ci_ns=(float(ci[0]), float(ci[1])) if ci else None, findings=list(d.get("findings", [])),
                   bytes_per_second=d.get("bytes_per_second"), wall_s=float(d.get("wall_s", 0.0)))

    @property
    def warnings(self) -> list[dict[str, str]]:
        return [f for f in self.findings if f.get("severity") in ("warning", "error")]


def _quartiles(ordered: list[float]) -> tuple[float, float]:
    # The same quartile rule as pytest-benchmark's Stats (Wikipedia's methods 2 and 3), so its readers' iqr,
    # outlier counts and fences agree with what it would compute from our data.
    n = len(ordered)
    if n == 1:
        return ordered[0], ordered[0]
    if n % 2:
        k, q = n // 4, n % 4
        if q == 1:
            return (0.25 * ordered[k - 1] + 0.75 * ordered[k], 0.75 * ordered[3 * k] + 0.25 * ordered[3 * k + 1])
        return (0.75 * ordered[k] + 0.25 * ordered[k + 1], 0.25 * ordered[3 * k + 1] + 0.75 * ordered[3 * k + 2])
    return statistics.median(ordered[: n // 2]), statistics.median(ordered[n // 2:])


def stats_of(samples_s: Sequence[float]) -> dict[str, Any]:
    """pytest-benchmark's `stats` object for samples in seconds (one round per sample, one iteration per round),
    by the rules of the pytest-benchmark installed beside the plugin when there is one: its releases differ (an older
    one bounds hd15iqr otherwise), and the JSON must read as the installed `pytest-benchmark compare` reads it."""
    stats = _stats_by_own_rules(samples_s)
    try:
        stats_module: Any = importlib.import_module("pytest_benchmark.stats")  # untyped: Any keeps mypy --strict quiet
    except ImportError:
        return stats
    theirs = stats_module.Stats()
    for value in stats["data"]:
        theirs.update(value)
    stats.update(theirs.as_dict())
    return stats


def _stats_by_own_rules(samples_s: Sequence[float]) -> dict[str, Any]:
    """The same without pytest-benchmark, by the rules of its 5.x releases."""
    data = [float(s) for s in samples_s]
    if not data:
        raise ValueError("gpuchrono: a benchmark result without samples cannot be written as pytest-benchmark JSON")
    ordered = sorted(data)
    mean = statistics.mean(data)
    stddev = statistics.stdev(data) if len(data) > 1 else 0.0
    q1, q3 = _quartiles(ordered)
    iqr = q3 - q1
    low_fence, high_fence = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    iqr_outliers = sum(1 for v in data if v < low_fence or v > high_fence)
    stddev_outliers = sum(1 for v in data if v < mean - stddev or v > mean + stddev)
    return {
        "min": ordered[0], "max": ordered[-1], "mean": mean, "stddev": stddev, "rounds": len(data),
        "median": statistics.median(data), "iqr": iqr, "q1": q1, "q3": q3, "iqr_outliers": iqr_outliers,
        "stddev_outliers": stddev_outliers, "outliers": f"{stddev_outliers};{iqr_outliers}",
        "ld15iqr": ordered[bisect_left(ordered, low_fence)] if len(data) > 1 else ordered[0],
        "hd15iqr": ordered[bisect_right(ordered, high_fence) - 1], "ops": 1.0 / mean if mean > 0 else 0.0,
        "total": sum(data), "data": data, "iterations": 1,
    }


def benchmark_entry(result: BenchmarkResult) -> dict[str, Any]:
    """One element of the JSON's `benchmarks` list; gpuchrono's own numbers go to `extra_info` (ns, as measured)."""
    params = result.params or None
    extra: dict[str, Any] = {"gpuchrono_method": result.method, "gpuchrono_cache": result.cache,
                             "gpuchrono_wall_s": result.wall_s,
                             "gpuchrono_findings": [f"{f.get('severity')} {f.get('code')}: {f.get('message')}"
                                                    for f in result.findings]}
    if result.ci_ns is not None:
        extra["gpuchrono_ci_low_ns"], extra["gpuchrono_ci_high_ns"] = result.ci_ns
    if result.bytes_per_second is not None:
        extra["gpuchrono_bytes_per_second"] = result.bytes_per_second
    return {
        "group": result.group, "name": result.name, "fullname": result.fullname, "params": params,
        "param": "-".join(str(v) for v in params.values()) if params else None, "extra_info": extra,
        "options": {"timer": f"gpuchrono.measure(method={result.method})", "disable_gc": False,
                    "min_rounds": None, "max_time": None, "min_time": None, "warmup": True},
        "stats": stats_of([s * 1e-9 for s in result.samples_ns]),
    }


def machine_info(gpu: Optional[str] = None) -> dict[str, Any]:
    """The host as pytest-benchmark describes it, plus the GPU gpuchrono timed on."""
    uname = platform.uname()
    info: dict[str, Any] = {
        "node": socket.gethostname(), "processor": uname.processor, "machine": uname.machine,
        "python_compiler": platform.python_compiler(), "python_implementation": platform.python_implementation(),
        "python_implementation_version": platform.python_version(), "python_version": platform.python_version(),
        "python_build": list(platform.python_build()), "release": uname.release, "system": uname.system,
        "cpu": {"count": os.cpu_count()},
    }
    if gpu is not None:
        info["gpu"] = gpu
    return info


def commit_info(folder: str = ".") -> dict[str, Any]:
    """The git commit of `folder`, as pytest-benchmark records it; {"error": why} outside a repository."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True,
                              timeout=10).stdout.strip()
    try:
        sha = git("rev-parse", "HEAD")
        return {"id": sha, "time": git("log", "-1", "--format=%cI", sha),
                "author_time": git("log", "-1", "--format=%aI", sha), "dirty": bool(git("status", "--porcelain")),
                "project": os.path.basename(git("rev-parse", "--show-toplevel")),
                "branch": git("rev-parse", "--abbrev-ref", "HEAD")}
    except (OSError, subprocess.SubprocessError) as e:
        return {"error": f"no git commit for {folder}: {e}"}


def benchmark_json(results: Sequence[BenchmarkResult], machine: dict[str, Any], commit: dict[str, Any],
                   when: Optional[datetime.datetime] = None) -> dict[str, Any]:
    """The whole document `--benchmark-json` would write, for the results in order."""
    when = when or datetime.datetime.now(datetime.timezone.utc)
    return {"machine_info": machine, "commit_info": commit,
            "benchmarks": [benchmark_entry(r) for r in results if len(r.samples_ns)],
            "datetime": when.isoformat(), "version": SCHEMA_VERSION}
