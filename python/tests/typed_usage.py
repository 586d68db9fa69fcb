# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Typed use of the public API, as a user's code would write it: checked by `mypy --strict` in
scripts/python-check against the installed wheel's stubs, never run (it needs a GPU)."""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

import gpuchrono
import gpuchrono.history
from gpuchrono import Verdict
from gpuchrono.pytest_plugin import GpuBenchmark


def launch(handle: int) -> None:
    del handle


def typed_use() -> float:
    s: gpuchrono.Series = gpuchrono.measure(launch, name="typed", target_width=0.02, max_time=0.5)
    samples: npt.NDArray[np.float64] = s.samples_ns
    low_high = s.ci_ns
    if low_high is not None:
        low, high = low_high
        assert low <= high
    c = gpuchrono.compare(s, gpuchrono.measure(lambda: None))
    p_value: float = c.p_value  # two Series: a Comparison
    verdict: Verdict = c.verdict
    same: bool = verdict == "no_difference"  # a Verdict compares equal to its string
    named: bool = verdict is Verdict.NO_DIFFERENCE
    sequential = gpuchrono.compare(launch, launch, threshold=0.02)
    text: str = str(sequential.verdict) + sequential.text  # two callables: a SequentialComparison
    with gpuchrono.kernel_timer() as t:
        launch(0)
    kernels: list[dict[str, object]] = list(t.kernels)
    with gpuchrono.hold_cupti():
        gpuchrono.measure(launch)
    paths: list[str] = gpuchrono.write_report([s], "out")
    gpuchrono.testing.assert_not_slower(s, s)
    version: str = gpuchrono.__version__
    reason: str | None = gpuchrono.no_device_reason()
    history = gpuchrono.history.History("h.db", command="/usr/local/bin/gpuchrono")
    gate: gpuchrono.history.CheckResult = history.check(since="main")
    medians: list[float] = [point.median for point in history.points("measurements/spin 20us")]
    added: list[str] = history.add("out/", commit="HEAD")
    del text, kernels, paths, version, reason, same, named, p_value, gate, medians, added
    return float(samples.sum()) + s.median_ns


def typed_plugin_use(gpu_benchmark: GpuBenchmark) -> float:
    s: gpuchrono.Series = gpu_benchmark.options(method="kernel", cache="cold")(launch)
    with_args: gpuchrono.Series = gpu_benchmark(lambda n, m: None, 1, m=2)
    return s.median_ns + with_args.median_ns
