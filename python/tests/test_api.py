# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the package does without a GPU: argument checking, streams, series, reports, verdicts, pytest helpers."""
import inspect
import json
import os

import numpy as np
import pytest

import gpuchrono
from gpuchrono._streams import stream_handle


def synthetic(name, values):
    s = gpuchrono.Series(name)
    for v in values:
        s.add_ns(v)
    return s


def test_version_is_the_librarys_and_the_wheels():
    from importlib.metadata import distributions, version
    # The distribution is gpuchrono (built from source) or a CUDA variant (gpuchrono-cu13, gpuchrono-cu12): the one
    # whose files hold this package (Python 3.10's packages_distributions() reads only top_level.txt, which
    # scikit-build-core does not write).
    (dist,) = {d.metadata["Name"] for d in distributions()
               if any(str(f) == "gpuchrono/__init__.py" for f in d.files or [])}
    assert dist in ("gpuchrono", "gpuchrono-cu13", "gpuchrono-cu12")
    assert gpuchrono.__version__ == version(dist)
    assert gpuchrono.__version__.count(".") == 2


BASE = [1000, 1100, 1050, 990, 1020, 1010, 1030, 1005, 1001, 1040, 1012, 1018]


def test_series_samples_are_a_numpy_array_of_ns():
    s = synthetic("s", BASE)
    assert isinstance(s.samples_ns, np.ndarray) and s.samples_ns.dtype == np.float64
    assert list(s.samples_ns) == [float(v) for v in BASE]
    assert s.median_ns == pytest.approx(float(np.median(BASE)))
    assert len(s) == len(BASE) and s.name == "s" and s.method is None and s.ci_ns is None


@pytest.mark.parametrize("kwargs, error, text", [
    ({"method": "fastest"}, ValueError, "method must be"),
    ({"cache": "lukewarm"}, ValueError, "cache must be"),
    ({"target_width": -0.5}, ValueError, "target_relative_width"),
    ({"max_time": -1.0}, ValueError, "max_time"),
    ({"name": ""}, ValueError, "name must be a non-empty string"),
    ({"bytes_read": -1}, ValueError, "bytes_read"),
    ({"stream": "default"}, TypeError, "a stream must be"),
    ({"stream": 1.5}, TypeError, "a stream must be"),
    ({"stream": -3}, ValueError, "must be >= 0"),
])
def test_measure_refuses_bad_arguments_before_touching_the_gpu(kwargs, error, text):
    with pytest.raises(error, match=text):
        gpuchrono.measure(lambda: None, **kwargs)


def test_measure_refuses_a_non_callable():
    with pytest.raises(TypeError, match="fn must be callable"):
        gpuchrono.measure(42)


def test_streams_by_protocol_attribute_and_int():
    class CudaPython:  # the CUDA Python __cuda_stream__ protocol
        def __cuda_stream__(self):
            return (0, 0x1234)

    class TorchLike:
        cuda_stream = 0x10

    class CupyLike:
        ptr = 0x20

    class Broken:
        def __cuda_stream__(self):
            return "not a tuple"

    assert stream_handle(CudaPython()) == 0x1234
    assert stream_handle(TorchLike()) == 0x10
    assert stream_handle(CupyLike()) == 0x20
    assert stream_handle(7) == 7
    assert stream_handle(None) == 0
    with pytest.raises(TypeError, match="__cuda_stream__ returned"):
        stream_handle(Broken())
    with pytest.raises(TypeError, match="a bool"):
        stream_handle(True)


@pytest.mark.skipif(gpuchrono.no_device_reason() is None, reason="a CUDA device is present")
def test_without_a_device_measure_and_timers_raise_no_device_error():
    with pytest.raises(gpuchrono.NoDeviceError, match="no usable CUDA device"):
        gpuchrono.measure(lambda: None)
    with pytest.raises(gpuchrono.NoDeviceError):
        with gpuchrono.kernel_timer():
            pass
    assert gpuchrono.device_count() == 0


def test_compare_verdicts_and_the_testing_helpers():
    a = synthetic("a", BASE)
    slower = synthetic("b", [2 * v for v in BASE])
    same = synthetic("c", BASE)
    c = gpuchrono.compare(a, slower)
    assert c.verdict == "slower" and c.change > 0.9 and c.ci[0] <= c.change <= c.ci[1]
    assert gpuchrono.compare(a, same).verdict in ("no_difference", "inconclusive")
    with pytest.raises(AssertionError, match='"b" is slower than "a"'):
        gpuchrono.testing.assert_not_slower(a, slower)
    gpuchrono.testing.assert_not_slower(a, same)
    gpuchrono.testing.assert_faster(slower, a)
    with pytest.raises(AssertionError):
        gpuchrono.testing.assert_faster(a, slower)
    with pytest.raises(TypeError, match="must be a gpuchrono.Series"):
        gpuchrono.compare(a, [1, 2, 3])


def test_series_findings_name_the_python_callers_line():
    line = inspect.currentframe().f_lineno + 1
    where = gpuchrono._caller_where()
    assert where == f"test_api.py:{line}"
    few = synthetic("few", [1000.0, 1010.0])  # too-few-samples
    findings = few._summary_findings(where)
    assert findings, "two samples carry too-few-samples"
    assert all(f["where"] == where for f in findings), findings


def test_write_report_writes_the_same_files_as_cpp(tmp_path):
    written = gpuchrono.write_report([synthetic("a", BASE), synthetic("b", BASE)], tmp_path)
    names = {os.path.basename(p) for p in written}
    assert {"report.txt", "report.json", "index.html"} <= names
    report = json.loads((tmp_path / "report.json").read_text())
    series = {s["name"]: s for e in report["experiments"] for s in e["series"]}
    assert set(series) == {"a", "b"} and series["a"]["samples_ns"] == [float(v) for v in BASE]
    with pytest.raises(ValueError, match="share a name"):
        gpuchrono.write_report([synthetic("a", BASE), synthetic("a", BASE)], tmp_path)
    with pytest.raises(TypeError):
        gpuchrono.write_report([1], tmp_path)
