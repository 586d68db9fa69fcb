// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Launchers of the calibration kernels of DeviceClockCalibration (device_clock_kernels.cu). Private to the
// library; plain C++ declarations so that the calibration code compiled by clang can call them.
#pragma once

#include <gpuchrono/core/probe_layout.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuchrono::calibration_kernels {

struct TimerStepResult {
    std::uint64_t min_step_ns;  // smallest positive difference between consecutive distinct reads
    std::uint64_t changes;      // distinct values seen after the first
    std::uint64_t elapsed_ns;   // last distinct value - first
};

// One thread reads %globaltimer back to back until it has seen `max_changes` increments or clock64 has
// advanced by `max_cycles` (a timer that never moves cannot hang the kernel). Writes *out.
void launch_timer_step(TimerStepResult* out, std::uint32_t max_changes, std::uint64_t max_cycles, cudaStream_t stream);

struct ReferenceSpan {
    std::uint64_t start_ns, start_cycles, stop_ns, stop_cycles;
    std::uint32_t sm_start, sm_stop;
};

// One thread: reads (%smid, %globaltimer, clock64), spins until %globaltimer has advanced by span_ns (or
// clock64 by max_cycles), reads (clock64, %globaltimer, %smid). Writes *out.
void launch_reference_span(ReferenceSpan* out, std::uint64_t span_ns, std::uint64_t max_cycles, cudaStream_t stream);

// Every block runs `plain_regions` empty ProbeRegions (ids 0 .. plain_regions - 1), then one ProbeLoop
// (id plain_regions) of `loop_iterations` empty iterations.
void launch_empty_regions(DeviceProbe probe, std::uint32_t plain_regions, std::uint32_t loop_iterations,
                          unsigned blocks, unsigned threads_per_block, cudaStream_t stream);

}  // namespace gpuchrono::calibration_kernels
