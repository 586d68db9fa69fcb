// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The one interface measure() drives its methods through (one file per method beside this one, as nvbench
// keeps one measurement strategy per file). Private to the library.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include "gpu/l2_flush.hpp"
#include <gpuchrono/measure/measure.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono::detail {

struct MethodSetup {
    std::string_view name;  // the series', for messages
    cudaStream_t stream;
    int device;
    const LaunchFn& launch;
    bool takes_stream;      // the callable launches on the stream it is given (else on `stream` itself)
    L2Flush* flush;         // null: warm cache
    const MeasureOptions& options;
    Duration per_call;      // the warm-up's estimate
    std::source_location where;  // the user's measure() call, which the samples' findings name
};

class SampleMethod {
public:
    virtual ~SampleMethod() = default;
    virtual Method method() const noexcept = 0;
    virtual unsigned calls_per_sample() const noexcept { return 1; }
    // What the record should say about how the method was set up ("" for nothing).
    virtual std::string note() const { return {}; }
    // Takes `count` samples back to back, appending one per-call time each to `out`. With a flush, it runs
    // before each sample, outside the sample's interval. Throws CudaError.
    virtual void take(std::size_t count, std::vector<Duration>& out) = 0;
};

// Each throws CudaError when it cannot be set up; make_graph_method also std::invalid_argument when the
// callable captured no work or cannot be captured on this stream.
std::unique_ptr<SampleMethod> make_graph_method(const MethodSetup& setup);
std::unique_ptr<SampleMethod> make_event_method(const MethodSetup& setup);
std::unique_ptr<SampleMethod> make_host_method(const MethodSetup& setup);
std::unique_ptr<SampleMethod> make_kernel_method(const MethodSetup& setup);  // std::invalid_argument without CUPTI

// Whether KernelPolicy can be used in this process (sets CUPTI up on the first call), and why not.
bool kernel_policy_available(std::string* why_not);

// Timing-enabled events, created as needed and reused across batches.
class EventPairs {
public:
    EventPairs() = default;
    ~EventPairs();
    EventPairs(const EventPairs&) = delete;
    EventPairs& operator=(const EventPairs&) = delete;

    void reserve(std::size_t pairs);  // throws CudaError
    cudaEvent_t start(std::size_t i) const noexcept { return events_[2 * i]; }
    cudaEvent_t stop(std::size_t i) const noexcept { return events_[2 * i + 1]; }
    // Waits for the last stop event, then reads pairs [0, count) divided by `calls` into `out`.
    void read(std::size_t count, double calls, std::vector<Duration>& out) const;

private:
    std::vector<cudaEvent_t> events_;
};

}  // namespace gpuchrono::detail
