// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions about cold starts (docs/pitfalls-catalog.md #3 and #4): a context created inside a timed scope, and a first
// sample far above the rest of its series. Pure functions over what was observed.
#pragma once

#include <gpuchrono/gpu/driver_probe.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding.hpp>

#include <optional>
#include <span>

namespace gpuchrono {

// Devices with an active primary context at start and at stop (driver_probe.hpp; -1: unknown). More at stop
// than at start means the scope created one, and `measured` includes that.
std::optional<Finding> check_context_created(int contexts_at_start, int contexts_at_stop, Duration measured);

// docs/pitfalls-catalog.md #4: a first sample above 1.5x the median of the others is a cold one.
inline constexpr double cold_sample_ratio = 1.5;

// `in_order`: a series' durations in the order they were taken. Needs the first and at least two more (a
// median of one is just that sample). `loading` names lazy module loading as the likely cause when it is on.
std::optional<Finding> check_cold_first_sample(std::span<const Duration> in_order,
                                               ModuleLoading loading = ModuleLoading::unknown);

}  // namespace gpuchrono
