// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What one collection needs before any kernel runs: the metric names (sets expanded, each checked against the
// device's own metric list), their units, the config image that programs the counters, and the number of replay
// passes it takes. Built with the profiler host API, cached per (device, names) for the process, so a scope or
// measure() pays for it once and a typo is refused before any timing or profiling pass.
#pragma once

#include "profiler_functions.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace gpuchrono::metrics::detail {

struct CollectionPlan {
    int device = -1;
    std::string chip;                    // CUPTI's chip name, e.g. "GH100"
    std::vector<std::string> metrics;    // expanded, in the order asked
    std::vector<std::string> units;      // one per metric
    std::vector<std::uint8_t> config_image;
    std::size_t passes = 0;
#if GPUCHRONO_HAS_RANGE_PROFILER
    CUpti_Profiler_Host_Object* host = nullptr;  // evaluates counter data; kept for the life of the process
#endif
};

// Expands `names` (set names and metric names), loads the profiler, and builds the plan for `device` (-1: the
// current one). Throws std::invalid_argument for an unknown set or metric (with close names, from the device's
// list), std::runtime_error for everything else that stops collection (no CUPTI, no range profiler, no device,
// no permission, another profiler), each message saying what to do.
std::shared_ptr<const CollectionPlan> prepare_collection(std::span<const std::string> names, int device = -1);

// The current thread's CUDA context after making `device` current through the runtime (its primary context),
// as the driver's CUcontext; throws std::runtime_error naming the failure.
void* current_cuda_context(int device);

// The unit a metric's value comes in, from the base metric's dimension unit (NVPW's "bytes", "cycles",
// "nsecond", ...) and the name's suffix (".pct..." -> "%", ".per_second" -> "<unit>/second", ".ratio" -> "").
std::string metric_unit(std::string_view name, std::string_view dimension_unit);

}  // namespace gpuchrono::metrics::detail
