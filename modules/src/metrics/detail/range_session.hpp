// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One profiling session of CUPTI's Range Profiler on one context: auto range (one range per kernel launch) and
// kernel replay (CUPTI replays each launch once per pass, saving and restoring the memory it may write), from
// construction to finish(). The scope and measure() both run one.
#pragma once

#include "collection_plan.hpp"
#include "metrics/collection.hpp"

#include <gpuchrono/cupti/cupti_hold.hpp>
#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpuchrono::metrics::detail {

// kernel: CUPTI replays each launch itself (a scope of application code, whose work cannot be run again).
// user: the caller runs its work once per pass (measure(), which owns the callable): no save and restore of
// device memory per launch, and the passes of all the launches of one call run back to back.
enum class Replay { kernel, user };

class RangeSession {
public:
    // Enables the range profiler on the device's primary context and, for kernel replay, starts counting.
    // Throws std::runtime_error with the reason (another profiler attached, no permission, ...).
    RangeSession(std::shared_ptr<const CollectionPlan> plan, std::size_t max_kernels, Replay replay = Replay::kernel);

    // User replay only: runs `one_pass` (which launches the work and may return before it completes) between
    // cuptiRangeProfilerStart and Stop until CUPTI says every pass was submitted. Once, before finish().
    // `before_pass` (may be empty) runs and completes before each Start, unprofiled (a cold measurement's flush).
    void run_passes(const std::function<void()>& one_pass, const std::function<void()>& before_pass = {});
    ~RangeSession();  // disables the profiler if finish() did not; never throws
    RangeSession(const RangeSession&) = delete;
    RangeSession& operator=(const RangeSession&) = delete;

    // Waits for the device, stops, decodes and evaluates one KernelMetrics per launch in launch order.
    MetricsResult finish();

    // Whether this session enabled a new profiler object (rather than reusing the one kept enabled). The first
    // Start of a new object leaves dirty lines in the L2 (about 1.4-2 MB written back during a gather that
    // followed a clean flush, H100, CUDA 13.0), so a cold collection repeats its first session (collect.cpp).
    bool fresh_profiler() const noexcept { return fresh_profiler_; }

    // After finish(): launches beyond max_kernels, which got no range (and are named in a note).
    std::size_t dropped_ranges() const noexcept { return dropped_ranges_; }

private:
    void disable() noexcept;

    // Before the hold: a collection starts on CUPTI given back (pending lazy scopes read, the activity records
    // off) unless something else holds it, and gives it back at once when it ends rather than after the linger:
    // kept set up across a collection, lazy scopes before it and scopes after it read 0 ns on an H100.
    struct GiveBackAround {
        GiveBackAround() noexcept { (void)release_cupti(); }
        ~GiveBackAround() { (void)release_cupti(); }
        GiveBackAround(const GiveBackAround&) = delete;
        GiveBackAround& operator=(const GiveBackAround&) = delete;
    } give_back_;
    // So it is taken before the profiler is enabled and ended last: a collection is one of gpuchrono's holds of
    // CUPTI (the launch callbacks name the ranges), and the last hold's end disables a kept profiler.
    CuptiHold hold_;
    std::shared_ptr<const CollectionPlan> plan_;
    std::size_t max_kernels_;
    Replay replay_;
    bool stopped_ = false;        // user replay: run_passes stopped the profiler after its last pass
    bool fresh_profiler_ = false;
    std::size_t dropped_ranges_ = 0;
    std::size_t user_passes_ = 0;
    void* object_ = nullptr;  // CUpti_RangeProfiler_Object*
    std::vector<std::uint8_t> counter_data_;
    std::uint64_t context_id_ = 0;
    std::string naming_error_;  // why kernels cannot be named (then they keep CUPTI's range numbers)
    std::chrono::steady_clock::time_point began_;
};

// Disables the range profiler kept enabled between sessions (if its context is current): the counter
// availability query a new plan needs fails while it is enabled.
void release_kept_profiler() noexcept;

// The readable name of a range (CUPTI names auto ranges by the kernel's symbol): demangled, without the
// parameter list.
std::string kernel_name_of_range(const char* range_name);

}  // namespace gpuchrono::metrics::detail
