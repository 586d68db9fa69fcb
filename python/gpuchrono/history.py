# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The performance history from Python: drives the ``gpuchrono history`` command (found on PATH, or given) and
returns parsed results, so a script or a notebook reads the same store CI writes (SQLite file or PostgreSQL).

    from gpuchrono.history import History
    h = History(".gpuchrono/history.db")
    h.add("out/report.json", commit="HEAD")
    result = h.check()
    if result.outcome == "regression":
        print("\\n".join(result.regressions))
    points = h.points("measurements/spin 20us")
"""
from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Optional, Union

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["CheckResult", "History", "HistoryError", "Point"]


class HistoryError(RuntimeError):
    """The command refused or could not do what was asked; the message is its own sentence."""


@dataclass(frozen=True)
class CheckResult:
    """What ``gpuchrono history check`` said: outcome is "pass", "regression" or "cannot judge" (exit 0, 1, 2)."""

    outcome: str
    exit_code: int
    summary: str
    regressions: list[str] = field(default_factory=list)
    improvements: list[str] = field(default_factory=list)
    new_baselines: list[str] = field(default_factory=list)
    not_judged: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Point:
    """One stored run of one series, as ``history export --format csv`` writes it (times in the series' unit)."""

    experiment: str
    series: str
    unit: str
    commit: str
    position: int
    run_time: str
    median: float
    ci_low: Optional[float]
    ci_high: Optional[float]
    n: int
    method: str
    cache_state: str
    findings: list[str]
    machine: str


def _optional_float(text: str) -> Optional[float]:
    return float(text) if text else None


class History:
    """A history database (``db``: a SQLite path or a postgresql:// URI; None: the command's default, from
    GPUCHRONO_HISTORY or .gpuchrono/history.db), read and written through the ``gpuchrono`` command (``command``:
    its path; None: the one on PATH)."""

    def __init__(self, db: Optional[PathLike] = None, command: Optional[PathLike] = None) -> None:
        self.db = None if db is None else os.fspath(db)
        if command is None:
            found = shutil.which("gpuchrono")
            if found is None:
                raise HistoryError("no gpuchrono command on PATH: the history needs gpuchrono built with it "
                                   "(GPUCHRONO_BUILD_HISTORY); give its path as History(command=...)")
            command = found
        self.command = os.fspath(command)

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        argv = [self.command, "history", *args]
        if self.db is not None:
            argv += ["--db", self.db]
        try:
            return subprocess.run(argv, capture_output=True, text=True, check=False)
        except OSError as e:
            raise HistoryError(f"cannot run {self.command}: {e.strerror}") from e

    def _ok(self, *args: str) -> str:
        done = self._run(*args)
        if done.returncode != 0:
            raise HistoryError((done.stderr or done.stdout).strip() or
                               f"gpuchrono history {args[0]} exited with {done.returncode}")
        return done.stdout

    def add(self, *reports: PathLike, commit: Optional[str] = None, branch: Optional[str] = None) -> list[str]:
        """Adds report files or folders in one transaction; returns the command's line per report."""
        if not reports:
            raise HistoryError("add needs at least one report file or folder")
        args = [os.fspath(r) for r in reports]
        if commit is not None:
            args += ["--commit", commit]
        if branch is not None:
            args += ["--branch", branch]
        return self._ok("add", *args).splitlines()

    def check(self, since: Optional[str] = None) -> CheckResult:
        """The CI gate on the newest commit, or on the commits after ``since``."""
        done = self._run("check", *(["--since", since] if since is not None else []))
        outcomes = {0: "pass", 1: "regression", 2: "cannot judge"}
        summary = ""
        lists: dict[str, list[str]] = {"REGRESSION ": [], "improvement ": [], "new baseline ": [], "not judged ": []}
        for line in done.stdout.splitlines():
            if line.startswith("history check: "):
                summary = line[len("history check: "):]
                continue
            for prefix, into in lists.items():
                if line.startswith(prefix):
                    into.append(line[len(prefix):])
                    break
        if done.returncode not in outcomes or not summary:
            raise HistoryError((done.stderr or done.stdout).strip() or
                               f"gpuchrono history check exited with {done.returncode}")
        return CheckResult(outcome=outcomes[done.returncode], exit_code=done.returncode, summary=summary,
                           regressions=lists["REGRESSION "], improvements=lists["improvement "],
                           new_baselines=lists["new baseline "], not_judged=lists["not judged "])

    def show(self, series: str) -> str:
        """A series (EXPERIMENT/NAME or NAME) as the command's table and sparkline."""
        return self._ok("show", series)

    def series(self) -> list[tuple[str, str]]:
        """Every series kept: ("EXPERIMENT/NAME", unit)."""
        out = []
        for line in self._ok("series").splitlines():
            label, _, unit = line.rpartition(" (")
            if not label or not unit.endswith(")"):
                raise HistoryError(f"gpuchrono history series wrote a line it should not: {line!r}")
            out.append((label, unit[:-1]))
        return out

    def points(self, series: Optional[str] = None) -> list[Point]:
        """Every stored run, oldest commit first; of one series ("EXPERIMENT/NAME") when given."""
        rows = csv.DictReader(io.StringIO(self._ok("export", "--format", "csv"), newline=""))
        out = []
        for r in rows:
            if series is not None and f"{r['experiment']}/{r['series']}" != series:
                continue
            out.append(Point(experiment=r["experiment"], series=r["series"], unit=r["unit"], commit=r["commit"],
                             position=int(r["position"]), run_time=r["run_time"], median=float(r["median"]),
                             ci_low=_optional_float(r["ci_low"]), ci_high=_optional_float(r["ci_high"]), n=int(r["n"]),
                             method=r["method"], cache_state=r["cache_state"],
                             findings=r["findings"].split() if r["findings"] else [], machine=r["machine"]))
        return out

    def export(self, format: str, commit: Optional[str] = None) -> str:
        """The history as ``history export --format`` writes it: csv, bmf, asv or pytest-benchmark."""
        return self._ok("export", "--format", format, *(["--commit", commit] if commit is not None else []))
