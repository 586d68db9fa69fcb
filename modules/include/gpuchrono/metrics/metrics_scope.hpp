// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hardware metrics of the kernels launched in a scope of application code, by ncu's metric names:
//
//     gpuchrono::metrics::MetricsScope scope({"memory"});          // or {"compute"}, {"sol"}, or metric names
//     copy_kernel<<<grid, block>>>(dst, src, n);
//     gpuchrono::metrics::MetricsResult r = scope.stop();          // one KernelMetrics per launch, launch order
//     double bytes = r.find("copy_kernel", "dram__bytes_read.sum")->value;
//
// Through CUPTI's Range Profiler (CUDA 12.9 or newer): one range per kernel launch (auto range), each launch
// replayed by CUPTI once per counter pass (kernel replay: the launch becomes synchronous and costs about
// passes x its time plus a save and restore of the memory it may write). Every kernel of the device's primary
// context is profiled, on any stream (serialised by the replay). Names are checked against the device's metric
// list in the constructor, before any kernel runs. One scope at a time per process; not together with
// KernelPolicy's CUPTI activity interval (docs/metrics.md). Errors: std::invalid_argument for an unknown metric
// (with close names), std::runtime_error for everything that prevents profiling (no CUPTI or NVPW, no
// permission, another profiler attached, no device, a device reset), each saying what to do.
#pragma once

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gpuchrono::metrics {

namespace detail {
class OneSession;
class RangeSession;
}  // namespace detail

class MetricsScope {
public:
    // `metrics`: set names ("memory", "compute", "speed_of_light" or "sol") and/or ncu metric names. `device`:
    // -1 for the current device. `max_kernels`: launches the scope can hold (more are counted in a note). Its
    // counter-data image is copied afresh per scope and grows with it: for 256 ranges 173 MB (compute set) and
    // 207 MB (speed of light) on an H100, a ~100 ms copy; give it near the launches you expect.
    explicit MetricsScope(std::vector<std::string> metrics, int device = -1, std::size_t max_kernels = 256);
    ~MetricsScope();  // a scope not stopped is abandoned: its counters are dropped; never throws
    MetricsScope(const MetricsScope&) = delete;
    MetricsScope& operator=(const MetricsScope&) = delete;

    // Waits for the device and returns the metrics of every kernel launched since construction. Once only.
    MetricsResult stop();

private:
    std::unique_ptr<detail::OneSession> claim_;  // declared first: released after the session
    std::unique_ptr<detail::RangeSession> session_;
};

}  // namespace gpuchrono::metrics
