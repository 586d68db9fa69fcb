// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "measure/warmup.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>

#include "core/fixed_text.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

namespace gpuchrono {

namespace {

constexpr double steady_tolerance = 0.05;
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

bool clock_up(const GpuState& now) noexcept {
    if (!now.nvml_loaded || !now.sm_clock_mhz || !now.max_sm_clock_mhz || *now.max_sm_clock_mhz == 0) return false;
    return static_cast<double>(*now.sm_clock_mhz) >= min_clock_fraction * static_cast<double>(*now.max_sm_clock_mhz);
}

bool per_call_steady(Duration before, Duration now) noexcept {
    if (!(before.ns() > 0) || !(now.ns() > 0)) return false;
    return std::fabs(now.ns() - before.ns()) <= steady_tolerance * before.ns();
}

namespace {

// NVML answered with both the clock and its maximum: the clock decides; otherwise the per-call times do.
bool clock_readable(const GpuState& s) noexcept {
    return s.nvml_loaded && s.sm_clock_mhz && s.max_sm_clock_mhz && *s.max_sm_clock_mhz > 0;
}

}  // namespace

WarmupStep warmup_step(const WarmupSlice& slice, Duration min_time, Duration max_time) noexcept {
    const double per_call_ns = slice.calls > 0 ? slice.gpu_time.ns() / static_cast<double>(slice.calls) : 0.0;
    const bool by_clock = clock_readable(slice.state);
    const bool ready = by_clock ? clock_up(slice.state)
                                : per_call_steady(slice.previous_per_call, Duration::from_ns(per_call_ns));
    const bool sized = slice.gpu_time >= sizing_slice;
    if (ready && sized && slice.elapsed >= min_time) return {WarmupEnd::ready, 0};
    if (slice.elapsed >= max_time) return {WarmupEnd::capped, 0};
    // Up but too short to size what follows: one short slice more. Otherwise load, which raises a low clock.
    const Duration next = ready && !sized ? short_sizing_slice : load_slice;
    const double calls = per_call_ns > 0 ? std::ceil(next.ns() / per_call_ns) : max_slice_calls;
    return {WarmupEnd::more, static_cast<std::size_t>(std::clamp(calls, 1.0, max_slice_calls))};
}

WarmupRecord warm_up(cudaStream_t stream, int device, const detail::LaunchFn& launch, const MeasureOptions& options) {
    WarmupRecord r;
    const auto began = std::chrono::steady_clock::now();

    // The first call alone: under lazy module loading it loads the kernels' module (docs/pitfalls-catalog.md #4).
    launch(stream);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable's first call (warm-up)");
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for the measured callable's first call (warm-up)");
    r.first_call = since(began);
    r.calls = 1;

    EventPair events;
    WarmupSlice slice;
    std::size_t calls = 1;
    while (true) {
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(events.start_, stream), "recording a warm-up slice's start");
        for (std::size_t i = 0; i < calls; ++i) launch(stream);
        GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the measured callable (warm-up)");
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(events.stop_, stream), "recording a warm-up slice's stop");
        GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(events.stop_), "waiting for a warm-up slice");
        float ms = 0;
        GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, events.start_, events.stop_), "reading a warm-up slice's time");
        r.calls += calls;
        slice.previous_per_call = r.per_call;
        slice.calls = calls;
        slice.gpu_time = Duration::from_ms(ms);
        r.per_call = slice.gpu_time / static_cast<double>(calls);
        slice.state = read_gpu_state(device);
        if (slice.state.sm_clock_mhz) r.sm_clock_mhz = *slice.state.sm_clock_mhz;
        if (slice.state.max_sm_clock_mhz) r.max_sm_clock_mhz = *slice.state.max_sm_clock_mhz;
        r.time = slice.elapsed = since(began);
        const WarmupStep step = warmup_step(slice, options.warmup_min_time, options.warmup_max_time);
        const bool by_clock = clock_readable(slice.state);
        if (step.end == WarmupEnd::ready) {
            r.clock_steady = true;
            r.ended = by_clock ? "SM clock up at " + mhz(r.sm_clock_mhz) + " of " + mhz(r.max_sm_clock_mhz) + " MHz"
                               : "per-call time steady within 5% (NVML unavailable: " + slice.state.nvml_error + ")";
            break;
        }
        if (step.end == WarmupEnd::capped) {
            r.capped = true;
            r.ended = "time cap " + to_string(options.warmup_max_time) + " reached: " +
                      (by_clock ? "SM clock " + mhz(r.sm_clock_mhz) + " of " + mhz(r.max_sm_clock_mhz) + " MHz, below " +
                                      std::to_string(static_cast<int>(min_clock_fraction * 100)) + "% of it"
                                : std::string("per-call time not steady"));
            break;
        }
        calls = step.next_calls;
    }
    return r;
}

}  // namespace gpuchrono
