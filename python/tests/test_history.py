# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono.history: the command's answers parsed (against a stand-in command that answers as gpuchrono does,
so this runs where only the wheel is installed), and against the real `gpuchrono` command where it is on PATH."""
import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

from gpuchrono.history import History, HistoryError

DATA = Path(__file__).resolve().parents[2] / "test" / "data" / "history"

# Answers as `gpuchrono history` gives them (the lines the module reads), and records its arguments.
STAND_IN = r'''
import json, sys
args = sys.argv[1:]
with open(sys.argv[0] + ".calls", "a") as calls:
    calls.write(json.dumps(args) + "\n")
command = args[1]
if command == "check":
    print("REGRESSION measurements/spin 20us: slower by +2.01% (95% CI +1.90% .. +2.12%), came in after c19, by c20: ...")
    print("improvement measurements/vscale 1MiB: faster by -3.00% ...")
    print("not judged measurements/new: too few earlier runs on this machine (1, the detector needs 5)")
    print("history check: 1 regression(s) at commit c20 among 7 series judged")
    sys.exit(1)
if command == "series":
    print("measurements/spin 20us (ns)")
    print("kernels/tests/test_kernels.py::test_saxpy[1M] (ns)")
    sys.exit(0)
if command == "export":
    sys.stdout.write("experiment,series,unit,commit,position,run_time,median,ci_low,ci_high,n,method,cache_state,findings,machine\r\n"
                     "measurements,spin 20us,ns,c19,19,2026-11-27T18:00:00Z,20400.5,20390,20410,50,kernel,warm,,H100|-\r\n"
                     "measurements,\"a, b\",ns,c20,20,2026-11-27T18:01:00Z,20800,,,3,kernel,warm,noisy-series pinned,H100|-\r\n")
    sys.exit(0)
print("gpuchrono history " + command + ": the history /nowhere has no series 'x'", file=sys.stderr)
sys.exit(2)
'''


@pytest.fixture
def stand_in(tmp_path):
    script = tmp_path / "gpuchrono"
    script.write_text(f"#!{sys.executable}\n{STAND_IN}")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def calls(script):
    return [json.loads(line) for line in Path(str(script) + ".calls").read_text().splitlines()]


def test_check_parsed(stand_in, tmp_path):
    h = History(tmp_path / "h.db", command=stand_in)
    r = h.check(since="c18")
    assert r.outcome == "regression" and r.exit_code == 1
    assert r.summary == "1 regression(s) at commit c20 among 7 series judged"
    assert len(r.regressions) == 1 and r.regressions[0].startswith("measurements/spin 20us: slower by +2.01%")
    assert len(r.improvements) == 1 and len(r.not_judged) == 1 and r.new_baselines == []
    assert calls(stand_in)[-1] == ["history", "check", "--since", "c18", "--db", str(tmp_path / "h.db")]


def test_series_and_points_parsed(stand_in):
    h = History(command=stand_in)
    assert h.series() == [("measurements/spin 20us", "ns"), ("kernels/tests/test_kernels.py::test_saxpy[1M]", "ns")]
    points = h.points()
    assert len(points) == 2
    assert points[0].median == 20400.5 and points[0].ci_low == 20390 and points[0].n == 50
    assert points[1].series == "a, b" and points[1].ci_low is None
    assert points[1].findings == ["noisy-series", "pinned"]
    assert [p.commit for p in h.points("measurements/spin 20us")] == ["c19"]
    assert "--db" not in calls(stand_in)[-1]  # the command's own default database


def test_refusal_raised_with_the_commands_sentence(stand_in):
    with pytest.raises(HistoryError, match="has no series 'x'"):
        History(command=stand_in).show("x")
    with pytest.raises(HistoryError, match="at least one report"):
        History(command=stand_in).add()


def test_missing_command_named(tmp_path):
    with pytest.raises(HistoryError, match="cannot run"):
        History(command=tmp_path / "no-such-gpuchrono").series()


@pytest.mark.skipif(shutil.which("gpuchrono") is None,
                    reason="skipped: no gpuchrono command on PATH (the wheel has none; the C++ build's tools do)")
def test_with_the_real_command(tmp_path):
    h = History(tmp_path / "h.db")
    lines = h.add(DATA / "pytest-benchmark.json", commit="c1", branch="main")
    assert len(lines) == 1 and "at commit c1" in lines[0]
    assert ("kernels/tests/test_kernels.py::test_saxpy[1M]", "ns") in h.series()
    points = h.points("kernels/tests/test_kernels.py::test_saxpy[1M]")
    assert len(points) == 1 and points[0].commit == "c1" and points[0].median == pytest.approx(42500.0)
    r = h.check()
    assert r.outcome == "cannot judge" and r.exit_code == 2 and "cannot judge" in r.summary
    assert json.loads(h.export("pytest-benchmark"))["commit_info"]["id"] == "c1"
    with pytest.raises(HistoryError, match="no series"):
        h.show("nothing")
