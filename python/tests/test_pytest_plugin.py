# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The pytest plugin as a user's pytest loads it (the wheel's `pytest11` entry point), run on small suites in a
subprocess: the skip without a device, its options and their refusals, and the pytest-benchmark JSON it writes,
read back by pytest-benchmark itself where that is installed."""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import types

import pytest

import gpuchrono
from gpuchrono import pytest_plugin
from gpuchrono._benchmark_json import (BenchmarkResult, _stats_by_own_rules, benchmark_json, commit_info, machine_info,
                                       stats_of)

NO_DEVICE = gpuchrono.no_device_reason()
SPIN_TEST = """
import pytest
from gpuchrono._gpuchrono import _testing

def test_spin(gpu_benchmark):
    s = gpu_benchmark(lambda stream: _testing.spin(10_000, stream))
    assert s.median_ns >= 10_000
"""


def test_the_entry_point_loads_the_plugin_and_its_options(pytester):
    result = pytester.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines(["*gpuchrono*", "*--gpuchrono-json=FILE*", "*--gpuchrono-report=DIR*",
                                 "*--gpuchrono-history=DB*", "*--gpuchrono-fail-on-warning*"])
    markers = pytester.runpytest_subprocess("--markers")
    markers.stdout.fnmatch_lines(["*@pytest.mark.gpu_benchmark(method='auto', cache='warm'*"])


def test_without_a_device_the_fixture_skips_with_the_reason(pytester):
    pytester.makepyfile(SPIN_TEST)
    result = pytester.runpytest_subprocess("-rs")
    if NO_DEVICE is None:
        result.assert_outcomes(passed=1)
    else:
        result.assert_outcomes(skipped=1)
        result.stdout.fnmatch_lines([f"SKIPPED*gpuchrono: no usable CUDA device*"])


def test_an_unknown_marker_option_errors_naming_it(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.gpu_benchmark(methd="kernel")
        def test_typo(gpu_benchmark):
            gpu_benchmark(lambda: None)
    """)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*@pytest.mark.gpu_benchmark: unknown option(s) methd; gpu_benchmark takes "
                                 "method, cache*"])


def test_positional_marker_arguments_are_refused(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.gpu_benchmark("kernel")
        def test_positional(gpu_benchmark):
            pass
    """)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*takes keyword options only*"])


def test_without_results_nothing_is_written_and_the_history_says_so(pytester, tmp_path):
    pytester.makepyfile(SPIN_TEST)
    out = tmp_path / "bench.json"
    result = pytester.runpytest_subprocess("--gpuchrono-json", str(out), "--gpuchrono-history", str(tmp_path / "h"))
    if NO_DEVICE is not None:
        assert not out.exists()
        result.stdout.fnmatch_lines(["*nothing added to the history*: no gpu_benchmark result in this session"])


def _result(name, samples_ns, findings=()):
    return BenchmarkResult(name=name, fullname=f"tests/test_k.py::{name}", samples_ns=samples_ns, method="kernel",
                           cache="warm", ci_ns=(min(samples_ns), max(samples_ns)), findings=list(findings))


STATS_SAMPLES = ([10_100.0], [10_000.0, 10_400.0], [9_990.0, 10_020.0, 10_010.0, 12_000.0, 10_005.0],
                 [float(10_000 + (i * 37) % 101) for i in range(64)], [float(5_000 + i * i) for i in range(31)])


def _their_stats(stats_module, samples):
    theirs = stats_module.Stats()
    for s in samples:
        theirs.update(s * 1e-9)
    return theirs.as_dict()


def test_the_stats_are_the_installed_pytest_benchmarks_own():
    stats_module = pytest.importorskip("pytest_benchmark.stats", reason="pytest-benchmark is not installed")
    for samples in STATS_SAMPLES:
        ours = stats_of([s * 1e-9 for s in samples])
        for key, value in _their_stats(stats_module, samples).items():
            assert ours[key] == value, (key, samples)
        assert ours["data"] == pytest.approx([s * 1e-9 for s in samples]) and ours["iterations"] == 1


def test_without_pytest_benchmark_the_stats_follow_its_5_3_rules():
    stats_module = pytest.importorskip("pytest_benchmark.stats", reason="pytest-benchmark is not installed")
    import pytest_benchmark
    if tuple(int(x) for x in pytest_benchmark.__version__.split(".")[:2]) < (5, 3):
        pytest.skip(f"pytest-benchmark {pytest_benchmark.__version__}: the plugin's own rules follow 5.3 (an older "
                    "release bounded hd15iqr otherwise; with it installed the plugin takes its figures)")
    for samples in STATS_SAMPLES:
        ours = _stats_by_own_rules([s * 1e-9 for s in samples])
        for key, value in _their_stats(stats_module, samples).items():
            assert ours[key] == (value if isinstance(value, str) else pytest.approx(value, rel=1e-12)), (key, samples)


def test_the_json_carries_the_samples_in_seconds_and_gpuchronos_numbers():
    warned = {"severity": "warning", "code": "clock-throttled", "message": "SM clock fell", "fix": "cool it"}
    doc = benchmark_json([_result("test_a", [10_000.0, 10_200.0, 10_100.0], [warned])],
                         machine_info("an H100"), {"id": "abc"})
    (bench,) = doc["benchmarks"]
    assert bench["name"] == "test_a" and bench["fullname"] == "tests/test_k.py::test_a"
    assert bench["stats"]["median"] == pytest.approx(10_100e-9) and bench["stats"]["rounds"] == 3
    assert bench["extra_info"]["gpuchrono_method"] == "kernel"
    assert bench["extra_info"]["gpuchrono_ci_low_ns"] == 10_000.0
    assert bench["extra_info"]["gpuchrono_findings"] == ["warning clock-throttled: SM clock fell"]
    assert doc["machine_info"]["gpu"] == "an H100" and doc["commit_info"] == {"id": "abc"}
    assert set(doc) == {"machine_info", "commit_info", "benchmarks", "datetime", "version"}
    with pytest.raises(ValueError, match="without samples"):
        stats_of([])


def test_commit_info_outside_a_repository_says_why(tmp_path):
    info = commit_info(str(tmp_path))
    assert "error" in info and str(tmp_path) in info["error"]


def _write(path, results):
    path.write_text(json.dumps(benchmark_json(results, machine_info(), {"id": "abc"})))
    return path


def test_pytest_benchmark_compare_reads_the_json(tmp_path):
    pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is not installed")
    before = _write(tmp_path / "0001_before.json", [_result("test_spin", [10_000.0, 10_010.0, 10_020.0])])
    after = _write(tmp_path / "0002_after.json", [_result("test_spin", [20_000.0, 20_010.0, 20_020.0])])
    done = subprocess.run([sys.executable, "-m", "pytest_benchmark", "compare", "--columns=min,median,max",
                           "--group-by=name", str(before), str(after)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Failed to load" not in done.stdout + done.stderr, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if "test_spin (" in line]
    assert len(rows) == 2, done.stdout
    # pytest-benchmark picks the unit from the data: microseconds for 10-20 us medians.
    assert any("10.0100" in row for row in rows) and any("20.0100" in row for row in rows), done.stdout


def test_pytest_benchmark_compare_fail_judges_a_run_against_the_json(pytester):
    # A stored gpuchrono JSON as pytest-benchmark's baseline: --benchmark-compare-fail fails the session when a
    # test of the same name got slower than the stored median by more than the limit.
    pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is not installed")
    storage = pytester.path / "storage"  # pytest-benchmark wants its storage under the run's folder
    storage.mkdir()
    pytester.makepyfile(test_k="""
        import time

        def test_sleep(benchmark):
            benchmark.pedantic(time.sleep, args=(0.002,), rounds=3, iterations=1)
    """)
    baseline = BenchmarkResult(name="test_sleep", fullname="test_k.py::test_sleep", samples_ns=[1_000.0] * 3,
                               method="kernel", cache="warm")
    _write(storage / "0001_gpuchrono.json", [baseline])
    result = pytester.runpytest_subprocess(f"--benchmark-storage=file://{storage}", "--benchmark-compare=0001",
                                           "--benchmark-compare-fail=median:5%")
    assert result.ret != 0, result.stdout.str()
    said = result.stdout.str() + result.stderr.str()
    assert "test_sleep (0001_gpuchro) - Field 'median' has failed PercentageRegressionCheck" in said, said


def test_history_without_the_command_is_a_sentence(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    state = pytest_plugin._Session(pytester.parseconfig())
    pytest_plugin._add_to_history(state, "runs.db", benchmark_json([_result("t", [1.0])], machine_info(), {}))
    assert state.notes == ["gpuchrono: the performance history is not available here: no `gpuchrono` command on "
                           "PATH to run `gpuchrono history add`; nothing added to runs.db"]
    assert not state.failed_output


def _fake_gpuchrono(folder, exit_code, said=""):
    script = folder / "gpuchrono"
    script.write_text(f"#!{sys.executable}\nimport json, sys\n"
                      f"args = sys.argv[1:]\n"
                      f"json.dump({{'args': args, 'doc': json.load(open(args[2]))}}, open({str(folder / 'got.json')!r}, 'w'))\n"
                      f"print({said!r}, file=sys.stderr)\nsys.exit({exit_code})\n")
    script.chmod(0o755)


def test_history_add_is_given_the_json_and_the_database(pytester, tmp_path, monkeypatch):
    _fake_gpuchrono(tmp_path, 0)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    state = pytest_plugin._Session(pytester.parseconfig())
    doc = benchmark_json([_result("t", [1.0, 2.0])], machine_info(), {})
    pytest_plugin._add_to_history(state, "runs.db", doc)
    got = json.loads((tmp_path / "got.json").read_text())
    assert got["args"][:2] == ["history", "add"] and got["args"][3:] == ["--db", "runs.db"]
    assert got["doc"]["benchmarks"][0]["stats"]["median"] == pytest.approx(1.5e-9)
    assert state.notes == ["gpuchrono: 1 benchmark(s) added to the history runs.db"] and not state.failed_output


def test_a_refusing_history_fails_the_session_with_its_sentence(pytester, tmp_path, monkeypatch):
    _fake_gpuchrono(tmp_path, 2, "gpuchrono history: runs.db: schema version 9 is newer than this gpuchrono")
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    state = pytest_plugin._Session(pytester.parseconfig())
    pytest_plugin._add_to_history(state, "runs.db", benchmark_json([_result("t", [1.0])], machine_info(), {}))
    assert state.failed_output
    assert state.notes == ["gpuchrono: `gpuchrono history add` refused the session (exit 2): gpuchrono history: "
                           "runs.db: schema version 9 is newer than this gpuchrono; nothing added to runs.db"]


def test_under_xdist_each_worker_skips_or_times_with_the_others_serialized(pytester, tmp_path):
    pytest.importorskip("xdist", reason="pytest-xdist is not installed")
    pytester.makepyfile(**{f"test_w{i}": SPIN_TEST for i in range(4)})
    out = tmp_path / "bench.json"
    result = pytester.runpytest_subprocess("-n", "2", "-rs", "--gpuchrono-json", str(out),
                                           f"--gpuchrono-lock-dir={tmp_path}")
    if NO_DEVICE is not None:
        result.assert_outcomes(skipped=4)
        result.stdout.fnmatch_lines(["SKIPPED*gpuchrono: no usable CUDA device*"])
        return
    result.assert_outcomes(passed=4)
    names = sorted(b["fullname"] for b in json.loads(out.read_text())["benchmarks"])
    assert names == [f"test_w{i}.py::test_spin" for i in range(4)]  # every worker's result reached the JSON
    assert list(tmp_path.glob("gpuchrono-gpu-*.lock")), "the workers took turns through no lock file"


def test_the_lock_is_named_after_the_visible_gpus(pytester, monkeypatch, tmp_path):
    config = pytester.parseconfig(f"--gpuchrono-lock-dir={tmp_path}")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "GPU-1a2b,3")
    assert pytest_plugin._lock_path(config) == str(tmp_path / "gpuchrono-gpu-GPU-1a2b_3.lock")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    assert pytest_plugin._lock_path(config) == str(tmp_path / "gpuchrono-gpu-all.lock")


def test_a_result_survives_the_trip_from_a_worker():
    r = _result("test_a", [1.0, 3.0, 2.0], [{"severity": "warning", "code": "c", "message": "m", "fix": "f"}])
    back = BenchmarkResult.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back == r and back.warnings == r.findings
    assert statistics.median(back.samples_ns) == 2.0


def _documented_example():
    root = pathlib.Path(__file__).resolve().parents[2]
    path = root / "test" / "consumers" / "snippets.py"
    snippets = types.ModuleType("snippets")
    exec(compile(path.read_text(), str(path), "exec"), snippets.__dict__)
    (block,) = [b for b in snippets.blocks(root / "docs" / "testing.md", "docs/testing.md")
                if b.marker == "test_gpu_benchmark_example.py"]
    return block.text


def test_the_documented_example_runs_or_skips_saying_why(pytester):
    pytester.makepyfile(test_gpu_benchmark_example=_documented_example())
    result = pytester.runpytest_subprocess("-rs")
    outcomes = result.parseoutcomes()
    if NO_DEVICE is not None:
        result.assert_outcomes(skipped=3)
        result.stdout.fnmatch_lines(["SKIPPED*gpuchrono: no usable CUDA device*"])
        # Shown in this run's own summary too: the documented example was collected but did not run.
        pytest.skip(f"docs/testing.md's example: its 3 tests collected and skipped: no usable CUDA device ({NO_DEVICE})")
    else:  # the torch tests skip where torch is not installed; the spin always runs
        assert result.ret == 0 and outcomes.get("passed", 0) >= 1, result.stdout.str()


RESULT_CARRIER = """
import json
import pytest
from gpuchrono._benchmark_json import BenchmarkResult

@pytest.mark.parametrize("k", [1, 2])
def test_carrier(request, k):
    # What gpu_benchmark attaches to its test's report after a measurement, here without a GPU.
    finding = {"severity": "warning", "code": "clock-throttled", "message": "SM clock fell to 1400 MHz", "fix": "x"}
    r = BenchmarkResult(name=request.node.name, fullname=request.node.nodeid, samples_ns=[1000.0 * k, 1010.0 * k],
                        method="kernel", cache="warm", findings=[finding] if k == 2 else [])
    request.node.user_properties.append(("gpuchrono_benchmark", json.dumps(r.to_dict())))
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_results_reach_the_json_and_the_summary_from_every_process(pytester, tmp_path, workers):
    if workers:
        pytest.importorskip("xdist", reason="pytest-xdist is not installed")
    pytester.makepyfile(test_carrier=RESULT_CARRIER)
    out = tmp_path / "bench.json"
    result = pytester.runpytest_subprocess(*workers, f"--gpuchrono-json={out}")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*= gpuchrono =*", "test_carrier.py::test_carrier[[]1[]]: median 1.005 us, 2 samples, "
                                 "method kernel",
                                 "WARNING test_carrier.py::test_carrier[[]2[]]: [[]clock-throttled[]] SM clock fell to "
                                 "1400 MHz", "1 test(s) with warning-level findings (--gpuchrono-fail-on-warning fails "
                                 "them)", f"gpuchrono: 2 benchmark(s) written to {out}*"])
    doc = json.loads(out.read_text())
    assert sorted(b["name"] for b in doc["benchmarks"]) == ["test_carrier[1]", "test_carrier[2]"]
    assert sorted(b["stats"]["median"] for b in doc["benchmarks"]) == pytest.approx([1005e-9, 2010e-9])


def test_an_unwritable_json_fails_the_session_saying_so(pytester, tmp_path):
    pytester.makepyfile(test_carrier=RESULT_CARRIER)
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    result = pytester.runpytest_subprocess(f"--gpuchrono-json={blocker / 'bench.json'}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([f"gpuchrono: could not write --gpuchrono-json {blocker / 'bench.json'}: *"])
