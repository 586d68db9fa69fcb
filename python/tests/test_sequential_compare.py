# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono.compare(fn_a, fn_b): two callables interleaved until an anytime-valid verdict, beside the two-Series
compare() it dispatches to for Series; the pytest helpers with two callables. Skipped (visibly) without a CUDA
device."""
import pytest

import gpuchrono
from gpuchrono import testing
from gpuchrono._gpuchrono import _testing

pytestmark = pytest.mark.gpu
SPIN_NS = 20_000


def spin(stream):
    _testing.spin(SPIN_NS, stream)


def spin_longer(stream):
    _testing.spin(SPIN_NS * 1.05, stream)


def test_a_longer_spin_is_found_slower():
    c = gpuchrono.compare(spin, spin_longer, threshold=0.01)
    assert isinstance(c, gpuchrono.SequentialComparison)
    assert c.verdict is gpuchrono.Verdict.SLOWER and c.verdict == "slower", c.text
    assert 0.02 < c.change < 0.10
    assert c.ci[0] <= c.change <= c.ci[1]
    assert c.samples[0] == c.samples[1] > 0
    assert c.looks > 0 and c.wall_time > 0
    # The plain interval of the samples: where the change is, narrower than the anytime-valid one that decided.
    assert c.plain_ci[0] <= c.plain_change <= c.plain_ci[1]
    assert 0.02 < c.plain_change < 0.10, c.text
    assert c.plain_ci[1] - c.plain_ci[0] < c.ci[1] - c.ci[0], c.text
    assert f"over {c.samples[0]} + {c.samples[1]} samples; decided on " in c.reason, c.reason


def test_a_spin_against_itself_is_not_faster_or_slower():
    c = gpuchrono.compare(spin, spin, threshold=0.01)
    assert c.verdict in (gpuchrono.Verdict.NO_DIFFERENCE, gpuchrono.Verdict.INCONCLUSIVE), c.text
    assert c.verdict in ("no_difference", "inconclusive"), c.text  # the documented strings, not C++'s "no difference"


def test_series_still_go_to_the_two_series_compare():
    a = gpuchrono.measure(spin, name="a")
    b = gpuchrono.measure(spin_longer, name="b")
    assert isinstance(gpuchrono.compare(a, b), gpuchrono.Comparison)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="threshold"):
        gpuchrono.compare(spin, spin, threshold=0)
    with pytest.raises(ValueError, match="max_time"):
        gpuchrono.compare(spin, spin, max_time=0)
    with pytest.raises(ValueError, match="launched no GPU work"):
        gpuchrono.compare(lambda stream: None, spin)

    def raises(stream):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        gpuchrono.compare(spin, raises)


def test_pytest_helpers_take_two_callables():
    testing.assert_not_slower(spin, spin, threshold=0.01)
    testing.assert_faster(spin_longer, spin, threshold=0.01)
    with pytest.raises(AssertionError, match="slower"):
        testing.assert_not_slower(spin, spin_longer, threshold=0.01)
