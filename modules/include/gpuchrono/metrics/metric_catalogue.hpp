// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hardware metric names as Nsight Compute (ncu) spells them, the ready-made sets (memory,
// compute, speed of light), and the refusal of unknown names with the close ones suggested. Host only and
// device-free: the names are checked against the device's own list when one is given, else against the
// static list below, so a typo is refused before any profiling pass is paid for.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono::metrics {

// roofline: what metrics::roofline_points() needs for one point per kernel (sass FLOPs, DRAM bytes, GPU time).
enum class MetricSet { memory, compute, speed_of_light, roofline };

// The metric names of one ready set, in the order a report shows them.
std::span<const std::string_view> metric_names(MetricSet set);

// "memory", "compute", "speed_of_light" (also "sol"), "roofline"; throws std::invalid_argument naming the valid sets.
MetricSet parse_metric_set(std::string_view name);

// The metric names a request stands for: each set name ("memory", "compute", "speed_of_light"/"sol") replaced
// by its metrics, other names kept as given; order kept, repeats dropped. Throws std::invalid_argument for an
// empty request or an empty name. Names are checked against a metric list later (the device's, when collected).
std::vector<std::string> expand_metric_names(std::span<const std::string> request);

// Every name this library knows without a device: the three sets plus the sass FLOP counters a roofline needs.
std::span<const std::string_view> known_metric_names();

// Levenshtein distance, case-sensitive (ncu's names are lower case; a capital is a typo like any other).
std::size_t edit_distance(std::string_view a, std::string_view b);

// Up to `count` names of `candidates` nearest to `name`, nearest first, ties in candidate order.
std::vector<std::string> close_metric_names(std::string_view name, std::span<const std::string_view> candidates,
                                            std::size_t count = 3);

// Returns normally when `name` is in `candidates`; otherwise throws std::invalid_argument saying the name is
// unknown, where the list came from (`list_origin`, e.g. "the device's metric list" or "gpuchrono's static
// list"), and the close names.
void require_known_metric(std::string_view name, std::span<const std::string_view> candidates,
                          std::string_view list_origin);

}  // namespace gpuchrono::metrics
