// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Warm-up by time and state, not by a count of calls (docs/pitfalls-catalog.md #4 and #5): measure() runs the callable until
// its module is loaded (the first call, timed on its own: under lazy loading it pays for that) and the SM clock
// reads steady through NVML (gpu_state.hpp), between warmup_min_time and warmup_max_time. Each round is a
// slice of about 2 ms of calls timed by one event pair, whose per-call time sizes the graphs and batches that
// follow. Without NVML the clock cannot be read, and two successive slices agreeing on the per-call time
// within 5% stand in for a steady clock.
#pragma once

#include <gpuchrono/checks/check_gpu_state.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/measure/measure.hpp>
#include <gpuchrono/measure/measure_record.hpp>

#include <cuda_runtime_api.h>

namespace gpuchrono {

// The clock of `now` is at least 75% of its maximum (nvbench's threshold) and within 5% of the maximum from
// `before`. Clock-event reasons are not asked: NVML reads right after a synchronisation, when the GPU is idle
// for a moment and may say so, and a capped clock that holds still will not get better by waiting.
bool clock_steady(const GpuState& before, const GpuState& now) noexcept;

// Two slices' per-call times within 5% of each other.
bool per_call_steady(Duration before, Duration now) noexcept;

// Runs the warm-up on `stream` (on `device`) and says what it did. Throws CudaError.
// `steady_before`: the GPU's state just after another callable's warm-up ended with the clock steady (compare()'s
// second side). The first slice is then compared with it, so this callable needs its first call and one slice
// (module loaded, per-call time known) instead of the slices that bring the clock up a second time.
WarmupRecord warm_up(cudaStream_t stream, int device, const detail::LaunchFn& launch, const MeasureOptions& options,
                     const GpuState* steady_before = nullptr);

}  // namespace gpuchrono
