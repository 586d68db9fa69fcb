// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Timers used from a translation unit compiled with nvcc --default-stream per-thread (per_thread_stream.cu),
// where stream 0 is the calling thread's per-thread default stream. Plain C++ declarations.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/measurement.hpp>

#include <cuda_runtime_api.h>

namespace gpuchrono::test {

// Whether that TU was really compiled in per-thread mode, and what GPUCHRONO_DEFAULT_STREAM is there.
bool per_thread_tu_is_per_thread();
cudaStream_t per_thread_tu_default_stream();
// Whether a <<<>>> launch on stream 0 in that TU goes to the per-thread stream (nvcc: yes; clang: no).
bool per_thread_tu_launches_on_the_per_thread_stream();

enum class TimerKind { host_sync, event, device_clock };

// In that TU: a timer of `kind` on GPUCHRONO_DEFAULT_STREAM around a spin kernel of length `d` launched with
// `<<<..., 0>>>` (stream 0: the per-thread stream there). Returns the stopped measurement.
Measurement time_spin_on_default_stream(TimerKind kind, Duration d);

// In that TU: an EventPolicy timer given a literal stream 0, around the same launch on stream 0.
Measurement time_spin_passing_stream_zero(Duration d);

}  // namespace gpuchrono::test
