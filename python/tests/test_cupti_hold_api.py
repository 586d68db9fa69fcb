# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono.hold_cupti() without a GPU: a block that cannot hold CUPTI still runs, says why, and warns once per
process; one that can hold it gives CUPTI back when it ends."""
import warnings

import gpuchrono
from gpuchrono._gpuchrono import _cupti_holders


def test_hold_cupti_says_why_and_warns_once_when_cupti_cannot_be_held():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            with gpuchrono.hold_cupti() as hold:
                assert _cupti_holders() == (1 if hold.held else 0)
            assert _cupti_holders() == 0
    cupti_warnings = [w for w in caught if issubclass(w.category, gpuchrono.TimingWarning)
                      and "cupti-unavailable" in str(w.message)]
    if hold.held:
        assert hold.why_not == "" and not cupti_warnings
    else:
        assert hold.why_not, "a hold that was not taken must say why"
        assert len(cupti_warnings) <= 1  # once per process (another test may have issued it already)


def test_hold_cupti_is_exported():
    assert "hold_cupti" in gpuchrono.__all__
