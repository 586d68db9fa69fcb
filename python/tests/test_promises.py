# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What docs/python.md promises about the API's types, without a GPU: verdicts as a string enum, samples_ns a
read-only NumPy view (no copy per read), and CUPTI found inside NVIDIA's CUPTI wheel beside the package, or the copy
the process already loaded."""
import ast
import gc
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import gpuchrono
from gpuchrono import Verdict


def synthetic(name, values):
    s = gpuchrono.Series(name)
    for v in values:
        s.add_ns(v)
    return s


BASE = [1000, 1100, 1050, 990, 1020, 1010, 1030, 1005, 1001, 1040, 1012, 1018]


def test_verdict_is_a_string_enum_equal_to_its_str():
    assert [v.value for v in Verdict] == ["faster", "slower", "no_difference", "inconclusive"]
    assert Verdict.NO_DIFFERENCE == "no_difference" and "no_difference" == Verdict.NO_DIFFERENCE
    for v in Verdict:
        assert isinstance(v, str) and v == v.value and str(v) == v.value and f"{v}" == v.value
        assert Verdict(v.value) is v
    assert json.dumps({"verdict": Verdict.FASTER}) == '{"verdict": "faster"}'
    assert {Verdict.SLOWER: 1}["slower"] == 1  # hashes as its string


def test_compare_of_two_series_returns_a_verdict():
    a = synthetic("a", BASE)
    slower = gpuchrono.compare(a, synthetic("b", [2 * v for v in BASE]))
    faster = gpuchrono.compare(a, synthetic("c", [v / 2 for v in BASE]))
    tight = [1000.0 + 0.1 * i for i in range(30)]  # the change's interval lies well inside the 1% threshold
    same = gpuchrono.compare(synthetic("d", tight), synthetic("e", tight))
    assert slower.verdict is Verdict.SLOWER and slower.verdict == "slower"
    assert faster.verdict is Verdict.FASTER
    assert same.verdict is Verdict.NO_DIFFERENCE and same.verdict == "no_difference"
    assert "no difference" not in repr(same.verdict)


def test_samples_ns_is_a_read_only_view_shared_between_reads():
    s = synthetic("s", BASE)
    first, second = s.samples_ns, s.samples_ns
    assert first.dtype == np.float64 and first.shape == (len(BASE),)
    assert not first.flags.writeable and not first.flags.owndata
    with pytest.raises(ValueError):
        first[0] = 0.0
    # No copy per read: both arrays are views of one buffer.
    assert first.__array_interface__["data"][0] == second.__array_interface__["data"][0]
    assert np.shares_memory(first, second)


def test_samples_ns_views_stay_valid_after_the_series_grows_or_is_collected():
    s = synthetic("s", BASE)
    before = s.samples_ns
    s.add_ns(5000.0)
    after = s.samples_ns
    assert list(before) == [float(v) for v in BASE]  # an earlier view is not changed under its reader
    assert len(after) == len(BASE) + 1 and after[-1] == 5000.0
    del s
    gc.collect()
    assert before.sum() == pytest.approx(float(sum(BASE)))  # the array keeps its buffer alive


def test_cupti_is_found_inside_nvidias_cupti_wheel(tmp_path):
    # A site-packages of its own: this package, and a stand-in libcupti where NVIDIA's wheels put it
    # (nvidia/cu13/lib for CUDA 13, nvidia/cuda_cupti/lib for CUDA 12). The stand-in is any shared library: CUPTI
    # is refused for lacking CUPTI's functions, and the reason names the file it loaded, which must be this one,
    # ahead of a toolkit's CUPTI in /usr/local/cuda.
    site = tmp_path / "site-packages"
    package = pathlib.Path(gpuchrono.__file__).parent
    shutil.copytree(package, site / "gpuchrono", ignore=shutil.ignore_patterns("__pycache__"))
    stand_in = next((p for p in ("/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1")
                     if os.path.exists(p)), None)
    if stand_in is None:
        pytest.skip("no libz.so.1 to stand in for libcupti")
    expected = []
    for folder, soname in (("nvidia/cu13/lib", "libcupti.so.13"), ("nvidia/cuda_cupti/lib", "libcupti.so.12")):
        (site / folder).mkdir(parents=True)
        shutil.copy(stand_in, site / folder / soname)
        expected.append(str(site / folder / soname))
    env = {k: v for k, v in os.environ.items() if k not in ("GPUCHRONO_CUPTI", "LD_PRELOAD")}
    env["PYTHONPATH"] = str(site)
    code = ("import gpuchrono, sys; assert gpuchrono.__file__.startswith(sys.argv[1]), gpuchrono.__file__; "
            "print(gpuchrono.kernel_method_available()[1])")
    out = subprocess.run([sys.executable, "-c", code, str(site)], env=env, capture_output=True, text=True,
                         check=True, cwd=tmp_path).stdout
    assert any(f"{path} lacks cuptiGetResultString" in out for path in expected), out


def test_every_name_the_extension_stub_declares_exists():
    # stubtest cannot read nanobind's signatures (python/tests/stubtest_allowlist.txt); the names it can check.
    from gpuchrono import _gpuchrono
    stub = pathlib.Path(_gpuchrono.__file__).with_name("_gpuchrono.pyi")
    tree = ast.parse(stub.read_text())
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            assert hasattr(_gpuchrono, node.name), node.name
            for member in node.body if isinstance(node, ast.ClassDef) else []:
                if isinstance(member, ast.FunctionDef):
                    assert hasattr(getattr(_gpuchrono, node.name), member.name), f"{node.name}.{member.name}"
        elif isinstance(node, ast.AnnAssign):
            assert hasattr(_gpuchrono, node.target.id), node.target.id


LOADED_CUPTI = ("import gpuchrono, sys\n"
                "gpuchrono.kernel_method_available()  # loads CUPTI; no device needed\n"
                "print(sorted({l.split()[-1] for l in open('/proc/self/maps') if 'libcupti' in l}))\n")


def test_a_cupti_the_process_already_loaded_is_the_one_used(tmp_path):
    # torch loads its own CUPTI wheel's library: gpuchrono must use that copy, not open a second file of the same
    # soname (two CUPTIs in one process). Here a copy of the CUPTI gpuchrono would pick stands in for torch's.
    env = {k: v for k, v in os.environ.items() if k not in ("GPUCHRONO_CUPTI", "LD_PRELOAD")}
    def mapped(code):
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                             cwd=tmp_path)
        return ast.literal_eval(run.stdout)

    found = mapped(LOADED_CUPTI)
    if not found:
        pytest.skip("no CUPTI is installed where gpuchrono looks")
    preloaded = tmp_path / "elsewhere" / pathlib.Path(found[0]).name
    preloaded.parent.mkdir()
    shutil.copy(found[0], preloaded)
    code = f"import ctypes; ctypes.CDLL({str(preloaded)!r})\n" + LOADED_CUPTI
    maps = mapped(code)
    assert maps == [str(preloaded)], maps
