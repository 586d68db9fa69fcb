// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "measure/warmup.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>

#include "core/fixed_text.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

namespace gpuchrono {

namespace {

constexpr double steady_tolerance = 0.05;
constexpr Duration slice_target = Duration::from_ms(2);
constexpr double max_slice_calls = 100000;

Duration since(std::chrono::steady_clock::time_point t) { return std::chrono::steady_clock::now() - t; }

class EventPair {
public:
    EventPair() {
        GPUCHRONO_CUDA_CHECK(cudaEventCreate(&start_), "creating the warm-up's start event");
        if (const cudaError_t e = cudaEventCreate(&stop_); e != cudaSuccess) {
            (void)cudaEventDestroy(start_);
            check(e, "cudaEventCreate(&stop_)", "creating the warm-up's stop event");
        }
    }
    ~EventPair() {
        (void)cudaEventDestroy(start_);
        (void)cudaEventDestroy(stop_);
    }
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

std::string mhz(double v) { return detail::fixed_text(v, 0); }

}  // namespace

bool clock_steady(const GpuState& before, const GpuState& now) noexcept {
    if (!before.nvml_loaded || !now.nvml_loaded) return false;
    if (!before.sm_clock_mhz || !now.sm_clock_mhz || !now.max_sm_clock_mhz || *now.max_sm_clock_mhz == 0) return false;
    const double max = *now.max_sm_clock_mhz;
    const double clock = *now.sm_clock_mhz;
    return clock >= min_clock_fraction * max && std::fabs(clock - static_cast<double>(*before.sm_clock_mhz)) <= steady_tolerance * max;
}

bool per_call_steady(Duration before, Duration now) noexcept {
    if (!(before.ns() > 0) || !(now.ns() > 0)) return false;
    return std::fabs(now.ns() - before.ns()) <= steady_tolerance * before.ns();
}

WarmupRecord warm_up(cudaStream_t stream, int device, const detail::LaunchFn& launch, const MeasureOptions& options,
                     const GpuState* steady_before) {
    WarmupRecord r;
    const auto began = std::chrono::steady_clock::now();

    // The first call alone: under lazy module loading it loads the kernels' module (docs/pitfalls-catalog.md #4).
    launch(stream);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable's first call (warm-up)");
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for the measured callable's first call (warm-up)");
    r.first_call = since(began);
    r.calls = 1;

    EventPair events;
    std::optional<GpuState> previous_state;
    if (steady_before && steady_before->nvml_loaded) previous_state = *steady_before;
    Duration previous_per_call{};
    // A call as long as a slice is a slice's worth of load by itself: the state after the first call is then the
    // one the first slice is compared with, so a call of milliseconds warms up in two calls, not three (each is
    // time measure() adds beyond its samples). Only if the slice shows the call is that long: a first call can be
    // long for loading its module alone.
    std::optional<GpuState> after_first_call;
    if (r.first_call >= slice_target) after_first_call = read_gpu_state(device);
    double slice_calls = 1;
    while (true) {
        const auto calls = static_cast<std::size_t>(slice_calls);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(events.start_, stream), "recording a warm-up slice's start");
        for (std::size_t i = 0; i < calls; ++i) launch(stream);
        GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable (warm-up)");
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(events.stop_, stream), "recording a warm-up slice's stop");
        GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(events.stop_), "waiting for a warm-up slice");
        float ms = 0;
        GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, events.start_, events.stop_), "reading a warm-up slice's time");
        r.calls += calls;
        r.per_call = Duration::from_ms(ms) / static_cast<double>(calls);

        const GpuState state = read_gpu_state(device);
        if (!previous_state && after_first_call && r.per_call >= slice_target / 2.0) previous_state = after_first_call;
        if (state.sm_clock_mhz) r.sm_clock_mhz = *state.sm_clock_mhz;
        if (state.max_sm_clock_mhz) r.max_sm_clock_mhz = *state.max_sm_clock_mhz;
        const bool nvml = state.nvml_loaded && state.sm_clock_mhz.has_value();
        const bool steady = nvml ? previous_state && clock_steady(*previous_state, state)
                                 : per_call_steady(previous_per_call, r.per_call);
        r.time = since(began);
        if (steady && r.time >= options.warmup_min_time) {
            r.clock_steady = true;
            r.ended = nvml ? "SM clock steady at " + mhz(r.sm_clock_mhz) + " of " + mhz(r.max_sm_clock_mhz) + " MHz"
                           : "per-call time steady within 5% (NVML unavailable: " + state.nvml_error + ")";
            break;
        }
        if (r.time >= options.warmup_max_time) {
            r.capped = true;
            r.ended = "time cap " + to_string(options.warmup_max_time) + " reached: " +
                      (nvml ? "SM clock " + mhz(r.sm_clock_mhz) + " of " + mhz(r.max_sm_clock_mhz) + " MHz, not steady"
                            : std::string("per-call time not steady"));
            break;
        }
        previous_state = state;
        previous_per_call = r.per_call;
        slice_calls = std::clamp(std::ceil(slice_target / r.per_call), 1.0, max_slice_calls);
    }
    return r;
}

}  // namespace gpuchrono
