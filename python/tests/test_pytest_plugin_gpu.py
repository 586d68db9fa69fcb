# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""On a GPU: the gpu_benchmark fixture on the ground-truth spin, run as a user's pytest runs it (a subprocess):
its median against measure()'s in this process, the JSON and report folder it writes, and the tests it fails.
Skipped (visibly) without a CUDA device."""
import json

import pytest

import gpuchrono
from gpuchrono._gpuchrono import _testing

pytestmark = pytest.mark.gpu
SPIN_NS = 10_000


def test_the_fixture_median_is_measures(pytester, tmp_path):
    pytester.makepyfile(test_spin=f"""
        import pytest
        from gpuchrono._gpuchrono import _testing

        @pytest.mark.gpu_benchmark(method="kernel")
        def test_spin(gpu_benchmark):
            gpu_benchmark(lambda stream: _testing.spin({SPIN_NS}, stream))
    """)
    out, report = tmp_path / "bench.json", tmp_path / "report"
    result = pytester.runpytest_subprocess(f"--gpuchrono-json={out}", f"--gpuchrono-report={report}")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*= gpuchrono =*", "test_spin.py::test_spin: median *us*method kernel"])
    (bench,) = json.loads(out.read_text())["benchmarks"]
    reference = gpuchrono.measure(lambda stream: _testing.spin(SPIN_NS, stream), method="kernel")
    assert bench["stats"]["median"] * 1e9 == pytest.approx(reference.median_ns, rel=0.01)
    assert bench["extra_info"]["gpuchrono_method"] == "kernel"
    assert (report / "report.json").is_file() and (report / "index.html").is_file()


def test_a_callable_that_launches_nothing_fails_with_measures_sentence(pytester):
    pytester.makepyfile("""
        def test_nothing(gpu_benchmark):
            gpu_benchmark(lambda stream: None)
    """)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*counted no GPU work enqueued on the timed stream*"])


def test_a_callable_that_launches_on_another_stream_fails(pytester):
    pytest.importorskip("torch", reason="another stream comes from torch here")
    pytester.makepyfile("""
        import torch
        from gpuchrono._gpuchrono import _testing

        def test_elsewhere(gpu_benchmark):
            other = torch.cuda.Stream()
            gpu_benchmark(lambda stream: _testing.spin(10_000, other.cuda_stream))
    """)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*counted no GPU work enqueued on the timed stream*"])


def test_an_exception_of_the_callable_fails_the_test_with_it(pytester):
    pytester.makepyfile("""
        def test_raises(gpu_benchmark):
            def work(stream):
                raise KeyError("the user's setup failed")
            gpu_benchmark(work)
    """)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*KeyError*the user's setup failed*"])
