// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_cold_start.hpp>
#include <gpuchrono/checks/check_event_interval.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include "core/fixed_text.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace gpuchrono {

std::optional<Finding> check_context_created(int contexts_at_start, int contexts_at_stop, Duration measured) {
    if (contexts_at_start < 0 || contexts_at_stop < 0 || contexts_at_stop <= contexts_at_start) return std::nullopt;
    return make_finding(codes::context_created_in_timer,
                        "a CUDA context was created inside the timed scope (devices with an active context: " +
                            std::to_string(contexts_at_start) + " at start, " + std::to_string(contexts_at_stop) +
                            " at stop): the " + to_string(measured) +
                            " measured include creating it (213-323 ms on an H100)",
                        {{"measured_ns", measured.ns()},
                         {"contexts_at_start", static_cast<double>(contexts_at_start)},
                         {"contexts_at_stop", static_cast<double>(contexts_at_stop)}});
}

std::optional<Finding> check_cold_first_sample(std::span<const Duration> in_order, ModuleLoading loading) {
    if (in_order.size() < 3) return std::nullopt;
    std::vector<double> rest;
    rest.reserve(in_order.size() - 1);
    for (Duration d : in_order.subspan(1))
        if (d.is_finite()) rest.push_back(d.ns());
    const Duration first = in_order.front();
    if (rest.size() < 2 || !first.is_finite()) return std::nullopt;
    // The median of the rest, the middle two averaged for an even count.
    const std::size_t mid = rest.size() / 2;
    std::nth_element(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(mid), rest.end());
    double median = rest[mid];
    if (rest.size() % 2 == 0) median = (median + *std::max_element(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
    if (!(median > 0) || !(first.ns() > cold_sample_ratio * median)) return std::nullopt;
    const std::string ratio = detail::fixed_text(first.ns() / median, 1);
    std::string message = "the first sample " + to_string(first) + " is " + ratio + "x the median " +
                          to_string(Duration::from_ns(median)) + " of the " + std::to_string(rest.size()) +
                          " after it: it paid for a cold start";
    message += loading == ModuleLoading::lazy
                   ? " (lazy module loading is on: a kernel's first launch loads it, 171-430 us on an H100)"
                   : " (first use of the context, module loading, or clocks ramping up)";
    return make_finding(codes::cold_first_sample, std::move(message),
                        {{"first_ns", first.ns()}, {"median_of_rest_ns", median}});
}

std::optional<Finding> check_cold_first_synced_scope(const SyncedScopeObservation& o) {
    if (!o.first_at_call_site || o.loading != ModuleLoading::lazy) return std::nullopt;
    if (!(o.reading.ns() > 0) || !o.reading.is_finite()) return std::nullopt;
    if (o.before_stop < host_time_floor || o.before_stop.ns() < host_share_threshold * o.reading.ns()) return std::nullopt;
    const double share = std::fmin(o.before_stop / o.reading, 1.0);
    return make_finding(codes::cold_first_sample,
                        "the first scope timed at this line spent " + to_string(o.before_stop) +
                            " on the host before its stop began to wait for the GPU, " +
                            std::to_string(static_cast<int>(std::lround(share * 100))) + "% of its " +
                            to_string(o.reading) +
                            " reading: with lazy module loading on, the first launch of each kernel in a process "
                            "loads its module on the host (171-430 us on an H100) before the work can start; the "
                            "reading holds that load, and later scopes here do not pay it",
                        {{"host_time_ns", o.before_stop.ns()}, {"reading_ns", o.reading.ns()}},
                        std::string(module_load_fix));
}

}  // namespace gpuchrono
