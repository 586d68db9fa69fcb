# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono's pytest plugin, installed with the wheel (the `pytest11` entry point `gpuchrono`).

The fixture `gpu_benchmark(fn, *args, **kwargs)` times `fn` with gpuchrono.measure() and returns its Series; the
options measure() takes come from a `@pytest.mark.gpu_benchmark(method=..., cache=..., target_width=...)` marker
or from `gpu_benchmark.options(...)`. The session's results go to pytest-benchmark's JSON schema
(`--gpuchrono-json FILE`), gpuchrono's report folder (`--gpuchrono-report DIR`) and the performance history
(`--gpuchrono-history DB`). Warning-level findings are named in the terminal summary; `--gpuchrono-fail-on-warning`
fails their tests. Under pytest-xdist each worker times on the GPUs its CUDA_VISIBLE_DEVICES shows it, and the
workers that see the same GPUs take turns: a measurement holds an exclusive lock on a file named after that set of
GPUs, so two measurements never share a GPU's time."""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from typing import Any, Callable, Iterator, Optional

import pytest

from ._benchmark_json import BenchmarkResult, benchmark_json, commit_info, machine_info
from ._gpuchrono import Series

# The measure() options a marker or gpu_benchmark.options() may set; group only names the JSON's group.
MEASURE_OPTIONS = ("method", "cache", "target_width", "max_time", "bytes_read", "bytes_written", "stream")
FIXTURE_OPTIONS = MEASURE_OPTIONS + ("group",)
_PROPERTY = "gpuchrono_benchmark"  # the user property that carries a result to the controlling process


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gpuchrono", "gpuchrono: GPU timings of the gpu_benchmark fixture")
    group.addoption("--gpuchrono-json", metavar="FILE", default=None,
                    help="write the session's gpu_benchmark results as pytest-benchmark JSON (--benchmark-json's "
                         "schema: `pytest-benchmark compare` reads it)")
    group.addoption("--gpuchrono-report", metavar="DIR", default=None,
                    help="write gpuchrono's report folder (report.json, report.txt, tables, index.html) of the "
                         "session's series into DIR (under pytest-xdist: DIR/<worker>)")
    group.addoption("--gpuchrono-history", metavar="DB", default=None,
                    help="add the session's results to the performance history DB (`gpuchrono history add`)")
    group.addoption("--gpuchrono-fail-on-warning", action="store_true", default=False,
                    help="fail a test whose measurement has a warning-level finding (default: named in the summary)")
    group.addoption("--gpuchrono-lock-dir", metavar="DIR", default=None,
                    help="where the per-GPU lock files of pytest-xdist workers live (default: the temp folder)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "gpu_benchmark(method='auto', cache='warm', target_width=0.01, max_time=2.0, bytes_read=0, "
                   "bytes_written=0, stream=None, group=None): gpuchrono.measure()'s options for the gpu_benchmark "
                   "fixture of this test")
    state = _Session(config)
    config.stash[_state_key] = state
    config.pluginmanager.register(state, "gpuchrono-session")


class _Session:
    """What one pytest process gathers: the results of the whole run (from every xdist worker, in the
    controller) and the Series measured in this process (for the report folder)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.results: list[BenchmarkResult] = []
        self.series: list[Series] = []
        self.notes: list[str] = []
        self.failed_output = False

    @property
    def is_worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # Every process sees its own reports; under pytest-xdist the controller also sees each worker's, with
        # their user properties: so the controller gathers the whole session.
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == _PROPERTY:
                self.results.append(BenchmarkResult.from_dict(json.loads(str(value))))

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        _write_report_folder(self)
        if self.is_worker:
            return
        json_path = self.config.getoption("gpuchrono_json")
        history = self.config.getoption("gpuchrono_history")
        if self.results and (json_path or history):
            document = benchmark_json(self.results, machine_info(_gpu_name()), commit_info(str(self.config.rootpath)))
            if json_path:
                _write_json(self, json_path, document)
            if history:
                _add_to_history(self, history, document)
        elif history:
            self.notes.append(f"gpuchrono: nothing added to the history {history}: no gpu_benchmark result in this "
                              "session")
        if self.failed_output and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        if self.is_worker or (not self.results and not self.notes):
            return
        terminalreporter.section("gpuchrono")
        for r in self.results:
            ci = f" (CI {r.ci_ns[0] / 1e3:.3f}-{r.ci_ns[1] / 1e3:.3f} us)" if r.ci_ns else ""
            terminalreporter.write_line(f"{r.fullname}: median {_median(r.samples_ns) / 1e3:.3f} us{ci}, "
                                        f"{len(r.samples_ns)} samples, method {r.method}")
        warned = [r for r in self.results if r.warnings]
        for r in warned:
            terminalreporter.write_line(f"WARNING {r.fullname}: {_findings_line(r)}", yellow=True)
        if warned and not config.getoption("gpuchrono_fail_on_warning"):
            terminalreporter.write_line(f"{len(warned)} test(s) with warning-level findings "
                                        "(--gpuchrono-fail-on-warning fails them)")
        for note in self.notes:
            terminalreporter.write_line(note)


_state_key = pytest.StashKey[_Session]()


def _lock_path(config: pytest.Config) -> str:
    # One lock per set of visible GPUs: workers given different GPUs run at once, workers sharing one take turns.
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "all") or "none"
    folder = config.getoption("gpuchrono_lock_dir") or tempfile.gettempdir()
    return os.path.join(folder, "gpuchrono-gpu-" + re.sub(r"[^A-Za-z0-9_.-]", "_", visible) + ".lock")


@contextlib.contextmanager
def _gpu_turn(config: pytest.Config) -> Iterator[None]:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    path = _lock_path(config)
    try:
        handle = open(path, "a")
    except OSError as e:
        raise pytest.UsageError(f"gpuchrono: cannot open the GPU lock file {path} for pytest-xdist workers: {e}")
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class GpuBenchmark:
    """The `gpu_benchmark` fixture's value: call it with the work to time."""

    def __init__(self, request: pytest.FixtureRequest, options: dict[str, Any]) -> None:
        self._request = request
        self._options = dict(options)
        self._calls = 0
        self.results: list[BenchmarkResult] = []

    def options(self, **options: Any) -> "GpuBenchmark":
        """Sets measure()'s options (method, cache, target_width, max_time, bytes_read, bytes_written, stream) and
        the JSON group for the calls that follow; returns the fixture."""
        self._options.update(_checked_options(options, "gpu_benchmark.options()"))
        return self

    def __call__(self, fn: Callable[..., object], *args: Any, **kwargs: Any) -> Series:
        """Times fn(*args, **kwargs) with gpuchrono.measure() and returns the Series. Without arguments, fn may take
        the stream's handle as measure() gives it. A measurement that failed (fn launched nothing, or on another
        stream) fails the test with measure()'s sentence; an exception fn raises propagates."""
        import gpuchrono

        if not callable(fn):
            raise TypeError(f"gpu_benchmark: the first argument must be the callable to time, not "
                            f"{type(fn).__name__}")
        node = self._request.node
        self._calls += 1
        suffix = "" if self._calls == 1 else f"#{self._calls}"
        work: Callable[..., object] = fn if not args and not kwargs else (lambda: fn(*args, **kwargs))
        measure_options = {k: v for k, v in self._options.items() if k in MEASURE_OPTIONS}
        state = self._request.config.stash[_state_key]
        start = time.perf_counter()
        with _gpu_turn(self._request.config):
            series = gpuchrono.measure(work, name=node.nodeid + suffix, **measure_options)
        wall = time.perf_counter() - start
        if len(series.samples_ns) == 0:
            why = series.first_error or "no measurement succeeded"
            pytest.fail(f"gpu_benchmark: {node.nodeid}{suffix}: {why}", pytrace=False)
        for f in series.summary_findings:
            # Samples of 0 ns from work that never ran on the timed stream are no timing of fn: a failure.
            if f["code"] == "kernel-no-activity":
                pytest.fail(f"gpu_benchmark: {node.nodeid}{suffix}: {f['message']}. Fix: {f['fix']}", pytrace=False)
        state.series.append(series)
        record = series.record or {}
        result = BenchmarkResult(
            name=node.name + suffix, fullname=node.nodeid + suffix,
            samples_ns=[float(s) for s in series.samples_ns], method=series.method or "",
            cache=str(record.get("cache", measure_options.get("cache", "warm"))),
            group=self._options.get("group"), params=_params_of(node), ci_ns=series.ci_ns,
            findings=[dict(f) for f in series.summary_findings], bytes_per_second=series.throughput, wall_s=wall)
        self.results.append(result)
        node.user_properties.append((_PROPERTY, json.dumps(result.to_dict())))
        if result.warnings and self._request.config.getoption("gpuchrono_fail_on_warning"):
            pytest.fail("gpu_benchmark: --gpuchrono-fail-on-warning: " + _findings_line(result), pytrace=False)
        return series


def _params_of(node: Any) -> Optional[dict[str, Any]]:
    spec = getattr(node, "callspec", None)
    if spec is None:
        return None
    return {k: v if isinstance(v, (int, float, str, bool)) or v is None else repr(v) for k, v in spec.params.items()}


def _checked_options(options: dict[str, Any], where: str) -> dict[str, Any]:
    unknown = sorted(set(options) - set(FIXTURE_OPTIONS))
    if unknown:
        raise TypeError(f"{where}: unknown option(s) {', '.join(unknown)}; gpu_benchmark takes "
                        f"{', '.join(FIXTURE_OPTIONS)}")
    return options


def _findings_line(result: BenchmarkResult) -> str:
    return "; ".join(f"[{f.get('code')}] {f.get('message')}" for f in result.warnings)


def _median(values: Any) -> float:
    ordered = sorted(float(v) for v in values)
    n = len(ordered)
    if n == 0:
        return float("nan")
    return ordered[n // 2] if n % 2 else 0.5 * (ordered[n // 2 - 1] + ordered[n // 2])


@pytest.fixture
def gpu_benchmark(request: pytest.FixtureRequest) -> GpuBenchmark:
    """gpu_benchmark(fn, *args, **kwargs) times fn on the GPU with gpuchrono.measure() and returns the Series.
    Skips the test, with the reason, where there is no usable CUDA device."""
    import gpuchrono

    options: dict[str, Any] = {}
    marker = request.node.get_closest_marker("gpu_benchmark")
    if marker is not None:
        if marker.args:
            raise TypeError("@pytest.mark.gpu_benchmark takes keyword options only, e.g. method='kernel'")
        options = _checked_options(dict(marker.kwargs), "@pytest.mark.gpu_benchmark")
    why = gpuchrono.no_device_reason()
    if why is not None:
        pytest.skip(f"gpuchrono: no usable CUDA device ({why})")
    return GpuBenchmark(request, options)


def _gpu_name() -> Optional[str]:
    import gpuchrono

    if gpuchrono.no_device_reason() is not None:
        return None
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "unset")
    return f"{gpuchrono.device_count()} CUDA device(s) visible (CUDA_VISIBLE_DEVICES={visible})"


def _write_report_folder(state: _Session) -> None:
    import gpuchrono

    folder = state.config.getoption("gpuchrono_report")
    if not folder or not state.series:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    target = os.path.join(folder, worker) if worker else folder
    try:
        os.makedirs(target, exist_ok=True)
        gpuchrono.write_report(state.series, target)
        state.notes.append(f"gpuchrono: report of {len(state.series)} series written to {target}")
    except (OSError, RuntimeError, ValueError) as e:
        state.notes.append(f"gpuchrono: could not write the report folder {target}: {e}")
        state.failed_output = True


def _write_json(state: _Session, path: str, document: dict[str, Any]) -> None:
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            json.dump(document, f, indent=2)
        state.notes.append(f"gpuchrono: {len(document['benchmarks'])} benchmark(s) written to {path} "
                           "(pytest-benchmark's JSON schema)")
    except OSError as e:
        state.notes.append(f"gpuchrono: could not write --gpuchrono-json {path}: {e}")
        state.failed_output = True


def _add_to_history(state: _Session, db: str, document: dict[str, Any]) -> None:
    command = shutil.which("gpuchrono")
    if command is None:
        state.notes.append(f"gpuchrono: the performance history is not available here: no `gpuchrono` command on "
                           f"PATH to run `gpuchrono history add`; nothing added to {db}")
        return
    with tempfile.TemporaryDirectory(prefix="gpuchrono-history-") as folder:
        path = os.path.join(folder, "pytest-benchmark.json")
        with open(path, "w") as f:
            json.dump(document, f)
        try:
            done = subprocess.run([command, "history", "add", path, "--db", db], capture_output=True, text=True,
                                  timeout=300)
        except (OSError, subprocess.SubprocessError) as e:
            state.notes.append(f"gpuchrono: `gpuchrono history add` could not run: {e}; nothing added to {db}")
            state.failed_output = True
            return
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        state.notes.append(f"gpuchrono: `gpuchrono history add` refused the session (exit {done.returncode}): "
                           f"{said[-1] if said else 'no message'}; nothing added to {db}")
        state.failed_output = True
        return
    state.notes.append(f"gpuchrono: {len(document['benchmarks'])} benchmark(s) added to the history {db}")
