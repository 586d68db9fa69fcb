# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gpuchrono and torch.profiler in one process, in every order (docs/python.md, "Sharing CUPTI with
torch.profiler"): the profiler's trace holds every kernel launched, counted, before, during and after gpuchrono's
use; gpuchrono's readings before and after the profiler agree (medians of the same spin within 5%); a profiler
started while gpuchrono holds CUPTI leaves gpuchrono's reading right. Each scenario runs in a process of its own
(CUPTI's one subscriber slot is the process's); the orders with TEARDOWN_CUPTI=1, so torch's profiler gives CUPTI
back after each trace. Skipped (visibly) without a CUDA device or without torch."""
import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.gpu

SCENARIO = r'''
import json, time, warnings
import torch
import gpuchrono
from gpuchrono._gpuchrono import _testing, _cupti_acquisitions, _cupti_holders
from torch.profiler import profile, ProfilerActivity

N = 40
SPIN_NS = 20_000
x = torch.ones(1 << 16, device="cuda")
y = torch.ones_like(x)
torch.cuda.synchronize()
result = {}


def adds_in_trace():
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(N):
            torch.add(x, y)
        torch.cuda.synchronize()
    kernels = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    return sum("add" in k.lower() for k in kernels)


def cupti_given_back(timeout_s=20.0):
    # Kineto gives CUPTI back (TEARDOWN_CUPTI=1) in the exit of a CUDA runtime call after its trace.
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        torch.add(x, y)
        torch.cuda.synchronize()
        ok, why = gpuchrono.kernel_method_available()
        if ok:
            return ""
        time.sleep(0.05)
    return why


def spin_median():
    s = gpuchrono.measure(lambda stream: _testing.spin(SPIN_NS, stream), name="spin", method="kernel")
    return s.median_ns


result["count_before"] = adds_in_trace()
result["free_after_first_trace"] = cupti_given_back()
result["median_before_ns"] = spin_median()
with gpuchrono.kernel_timer() as t:
    _testing.spin(SPIN_NS, 0)
result["kernel_timer_ns"] = t.duration_ns
before = _cupti_acquisitions()
with gpuchrono.hold_cupti() as hold:
    result["hold_held"] = hold.held
    for _ in range(20):
        with gpuchrono.kernel_timer():
            _testing.spin(2_000, 0)
result["acquisitions_in_hold_loop"] = _cupti_acquisitions() - before
result["holders_after"] = _cupti_holders()

result["count_after_gpuchrono"] = adds_in_trace()

# torch's profiler with TEARDOWN_CUPTI=1 records nothing in every second trace of a process, gpuchrono or not
# (torch 2.11 on an H100, four traces of 40 adds in a row: 40, 0, 40, 0; unset: 40, 40, 40, 40): the trace after
# the last counted one is the profiler's lost one, not this test's question.
adds_in_trace()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(N):
            torch.add(x, y)
        s1 = gpuchrono.measure(lambda stream: _testing.spin(SPIN_NS, stream), name="spin under the profiler")
        s2 = gpuchrono.measure(lambda stream: _testing.spin(SPIN_NS, stream), name="spin under the profiler")
        torch.cuda.synchronize()
    kernels = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
result["count_during"] = sum("add" in k.lower() for k in kernels)
result["method_during"] = s1.method
result["note_during"] = s1.record["method_note"]
result["cupti_warnings"] = sum("cupti-unavailable" in str(w.message) for w in caught
                               if issubclass(w.category, gpuchrono.TimingWarning))

result["free_after_last_trace"] = cupti_given_back()
result["median_after_ns"] = spin_median()

print("RESULT " + json.dumps(result))
'''


# torch.profiler started while gpuchrono holds CUPTI, in a process where torch's profiler had not run yet and
# without TEARDOWN_CUPTI (torch's default): the profiler prints its own error and records no CUDA kernel; gpuchrono's
# reading inside it is the spin's.
WHILE_HELD = r'''
import json
import torch
import gpuchrono
from gpuchrono._gpuchrono import _testing
from torch.profiler import profile, ProfilerActivity

SPIN_NS = 20_000
x = torch.ones(1 << 16, device="cuda")
torch.cuda.synchronize()
result = {}
with gpuchrono.hold_cupti() as hold:
    result["held"] = hold.held
    median = gpuchrono.measure(lambda stream: _testing.spin(SPIN_NS, stream), name="spin", method="kernel").median_ns
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(40):
            torch.add(x, x)
        with gpuchrono.kernel_timer() as t:
            _testing.spin(SPIN_NS, 0)
        torch.cuda.synchronize()
    kernels = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
result["median_ns"] = median
result["reading_ns"] = t.duration_ns
result["error"] = t.error
result["count_while_held"] = sum("add" in k.lower() for k in kernels)
print("RESULT " + json.dumps(result))
'''


def run_scenario(program, env):
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=600, env=env)
    lines = [line for line in out.stdout.splitlines() if line.startswith("RESULT ")]
    assert out.returncode == 0 and lines, f"stdout:\n{out.stdout}\nstderr:\n{out.stderr[-4000:]}"
    return json.loads(lines[-1][len("RESULT "):]), out.stderr


def test_torch_profiler_started_while_gpuchrono_holds_cupti():
    pytest.importorskip("torch")
    env = {k: v for k, v in os.environ.items() if k != "TEARDOWN_CUPTI"}
    r, stderr = run_scenario(WHILE_HELD, env)
    print("torch.profiler inside a hold_cupti() block:", json.dumps(r, indent=1))
    assert r["held"], r
    assert not r["error"], r
    # One reading, not a median: at least the spin, and within 10% of the median (a first kernel after the device
    # idled reads up to 1.7 us long on an H100, docs/pitfalls.md).
    assert 20_000 <= r["reading_ns"] <= 1.10 * r["median_ns"], r
    assert "MULTIPLE_SUBSCRIBERS" in stderr or "CUPTI initialization failed" in stderr, stderr[-2000:]


def test_torch_profiler_before_during_and_after_gpuchrono():
    pytest.importorskip("torch")
    env = dict(os.environ, TEARDOWN_CUPTI="1")
    r, _ = run_scenario(SCENARIO, env)
    print("torch.profiler and gpuchrono in one process:", json.dumps(r, indent=1))
    n = 40
    assert r["count_before"] == n, r
    assert r["free_after_first_trace"] == "", "torch.profiler kept CUPTI after its trace: " + r["free_after_first_trace"]
    assert r["count_after_gpuchrono"] == n, r
    assert r["count_during"] == n, r
    assert r["method_during"] != "kernel" and "CUPTI is taken by another tool" in r["note_during"], r
    assert r["cupti_warnings"] == 1, r  # once per process, though two measure() calls fell back
    assert r["hold_held"] and r["acquisitions_in_hold_loop"] == 1 and r["holders_after"] == 0, r
    assert r["free_after_last_trace"] == "", "torch.profiler kept CUPTI after its trace: " + r["free_after_last_trace"]
    before, after = r["median_before_ns"], r["median_after_ns"]
    assert abs(after - before) <= 0.05 * before, (before, after)
