// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What measure() calls to collect hardware metrics over its own passes, beside collect() (collect.hpp), which
// times a callable of the user's. Library-internal: measure/ calls these, never metrics/detail/.
#pragma once

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace gpuchrono::metrics::detail {

// Checks the names and loads the profiler for `device` ahead of timing (the plan is cached, so the first pass
// pays nothing). Throws std::invalid_argument for an unknown set or metric, std::runtime_error for everything
// else that stops collection, as prepare_collection does.
void prepare_metrics(std::span<const std::string> names, int device);

// collect() and measure()'s metrics: a user replay session over `one_pass` (collect.cpp). `before_pass` (may be
// empty) runs before each pass, unprofiled: measure() passes its own cold-cache flush.
MetricsResult collect_metrics_of(const std::vector<std::string>& metrics, int device,
                                 const std::function<void()>& one_pass, const std::function<void()>& before_pass,
                                 std::size_t max_kernels = 256);

}  // namespace gpuchrono::metrics::detail
