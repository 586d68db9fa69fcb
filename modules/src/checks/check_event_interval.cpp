// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_cold_start.hpp>
#include <gpuchrono/checks/check_event_interval.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {
bool looks_cold(const EventIntervalObservation& o) {
    return o.idle_at_start && o.idle_at_stop && o.first_at_call_site && o.loading == ModuleLoading::lazy &&
           o.host_time >= host_time_floor;
}
}  // namespace

std::optional<Finding> check_cold_first_scope(const EventIntervalObservation& o) {
    if (!looks_cold(o)) return std::nullopt;
    std::vector<Evidence> evidence{{"host_time_ns", o.host_time.ns()}};
    std::string message = "the first scope timed at this line found the stream idle at its start and at its stop, " +
                          to_string(o.host_time) + " later on the host";
    if (o.interval) {
        message += " (an event interval of " + to_string(*o.interval) + ")";
        evidence.push_back({"interval_ns", o.interval->ns()});
    }
    message += ": with lazy module loading on, the first launch of each kernel in a process loads its module on the "
               "host (171-430 us on an H100), and the short work it launched ended before the stop was recorded; "
               "the interval is that load, and later scopes here do not pay it";
    return make_finding(codes::cold_first_sample, std::move(message), std::move(evidence),
                        std::string(module_load_fix));
}

std::optional<Finding> check_timed_stream_idle(const EventIntervalObservation& o) {
    if (!o.idle_at_start || !o.idle_at_stop || looks_cold(o)) return std::nullopt;
    std::vector<Evidence> evidence{{"host_time_ns", o.host_time.ns()}};
    std::string message = "the timed stream had no pending work when the timer started nor when it stopped, " +
                          to_string(o.host_time) + " later on the host";
    if (o.interval) {
        message += ": the " + to_string(*o.interval) + " measured are";
        evidence.push_back({"interval_ns", o.interval->ns()});
    } else {
        message += ": the interval is";
    }
    message += " host time, not GPU work (was the work launched on another stream, or had it finished before the "
               "stop was recorded?)";
    return make_finding(codes::timed_stream_idle, std::move(message), std::move(evidence));
}

std::optional<Finding> check_host_time_in_interval(const EventIntervalObservation& o) {
    if (!o.idle_at_start || o.idle_at_stop || !o.interval) return std::nullopt;
    const Duration interval = *o.interval;
    if (!(interval.ns() > 0) || !interval.is_finite()) return std::nullopt;
    if (o.host_time < host_time_floor || o.host_time.ns() < host_share_threshold * interval.ns()) return std::nullopt;
    const double share = std::fmin(o.host_time / interval, 1.0);
    std::string message = "the start event was recorded on an idle stream and the host then spent " +
                          to_string(o.host_time) + " before recording the stop: " +
                          std::to_string(static_cast<int>(std::lround(share * 100))) + "% of the " +
                          to_string(interval) +
                          " event interval is host time (host work before the first launch, or launches slower "
                          "than the GPU ran them)";
    if (o.loading == ModuleLoading::lazy)
        message += "; lazy module loading is on, so the first launch of a kernel loads it on the host first "
                   "(171-430 us on an H100)";
    return make_finding(codes::host_time_in_event_interval, std::move(message),
                        {{"host_time_ns", o.host_time.ns()}, {"interval_ns", interval.ns()}});
}

}  // namespace gpuchrono
