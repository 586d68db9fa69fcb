// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_host_stop.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

namespace gpuchrono {

std::optional<Finding> check_host_stop(bool stream_busy_at_stop, Duration measured) {
    if (!stream_busy_at_stop) return std::nullopt;
    return make_finding(codes::host_stop_with_pending_work,
                        "stream had pending work when the host timer stopped: the " + to_string(measured) +
                            " measured exclude it; synchronize the stream or use EventPolicy",
                        {{"measured_ns", measured.ns()}});
}

std::optional<Finding> check_host_timer_capture(bool capturing_at_stop, Duration measured) {
    if (!capturing_at_stop) return std::nullopt;
    return make_finding(codes::host_timer_during_capture,
                        "the watched stream was being captured into a graph when the host timer stopped: the " +
                            to_string(measured) +
                            " measured are the cost of capturing the launches, none of them ran",
                        {{"measured_ns", measured.ns()}});
}

}  // namespace gpuchrono
