// One profiling session of CUPTI's Range Profiler on one context: auto range (one range per kernel launch) and
// kernel replay (CUPTI replays each launch once per pass, saving and restoring the memory it may write), from
// construction to finish(). The scope and measure() both run one.
#pragma once

#include "collection_plan.hpp"

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpuchrono::metrics::detail {

class RangeSession {
public:
    // Enables the range profiler on the device's primary context and starts counting. Throws std::runtime_error
    // with the reason (another profiler attached, no permission, ...).
    RangeSession(std::shared_ptr<const CollectionPlan> plan, std::size_t max_kernels);
    ~RangeSession();  // disables the profiler if finish() did not; never throws
    RangeSession(const RangeSession&) = delete;
    RangeSession& operator=(const RangeSession&) = delete;

    // Waits for the device, stops, decodes and evaluates one KernelMetrics per launch in launch order.
    MetricsResult finish();

private:
    void disable() noexcept;

    std::shared_ptr<const CollectionPlan> plan_;
    std::size_t max_kernels_;
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
