// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "kernels.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <string>

namespace gpuchrono::calibration_kernels {

namespace {

__global__ void timer_step_kernel(TimerStepResult* out, std::uint32_t max_changes, std::uint64_t max_cycles) {
    const std::uint64_t first = read_globaltimer();
    const std::uint64_t c0 = read_clock64();
    std::uint64_t previous = first;
    std::uint64_t min_step = ~0ull;
    std::uint64_t changes = 0;
    while (changes < max_changes && read_clock64() - c0 < max_cycles) {
        const std::uint64_t now = read_globaltimer();
        if (now != previous) {
            if (now > previous && now - previous < min_step) min_step = now - previous;
            previous = now;
            ++changes;
        }
    }
    out->min_step_ns = changes != 0 ? min_step : 0;
    out->changes = changes;
    out->elapsed_ns = previous - first;
}

__global__ void reference_span_kernel(ReferenceSpan* out, std::uint64_t span_ns, std::uint64_t max_cycles) {
    const std::uint32_t sm_start = read_smid();
    const std::uint64_t start_ns = read_globaltimer();
    const std::uint64_t start_cycles = read_clock64();
    while (read_globaltimer() - start_ns < span_ns && read_clock64() - start_cycles < max_cycles) {
    }
    const std::uint64_t stop_cycles = read_clock64();
    const std::uint64_t stop_ns = read_globaltimer();
    const std::uint32_t sm_stop = read_smid();
    *out = ReferenceSpan{start_ns, start_cycles, stop_ns, stop_cycles, sm_start, sm_stop};
}

__global__ void empty_regions_kernel(DeviceProbe probe, std::uint32_t plain_regions, std::uint32_t loop_iterations) {
    for (std::uint32_t r = 0; r < plain_regions; ++r) {
        ProbeRegion empty(probe, r);
    }
    ProbeLoop loop(probe, plain_regions);
    for (std::uint32_t i = 0; i < loop_iterations; ++i) {
        auto empty = loop.iteration();
    }
}

}  // namespace

void launch_timer_step(TimerStepResult* out, std::uint32_t max_changes, std::uint64_t max_cycles, cudaStream_t stream) {
    timer_step_kernel<<<1, 1, 0, stream>>>(out, max_changes, max_cycles);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the %globaltimer step measurement");
}

void launch_reference_span(ReferenceSpan* out, std::uint64_t span_ns, std::uint64_t max_cycles, cudaStream_t stream) {
    reference_span_kernel<<<1, 1, 0, stream>>>(out, span_ns, max_cycles);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the reference SM clock span");
}

void launch_empty_regions(DeviceProbe probe, std::uint32_t plain_regions, std::uint32_t loop_iterations,
                          unsigned blocks, unsigned threads_per_block, cudaStream_t stream) {
    empty_regions_kernel<<<blocks, threads_per_block, 0, stream>>>(probe, plain_regions, loop_iterations);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the probe calibration (" + std::to_string(blocks) + " blocks x " +
                                                 std::to_string(threads_per_block) + " threads of empty regions)");
}

}  // namespace gpuchrono::calibration_kernels
