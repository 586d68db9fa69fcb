// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "checks/check_idle_gap.hpp"
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include <string>

namespace gpuchrono::idle_gap {

namespace {

std::string span(std::uint64_t ns) { return to_string(Duration::from_ns(static_cast<double>(ns))); }

}  // namespace

std::optional<Finding> idle_before_finding(const IdleGap& gap, std::uint64_t dropped_records) {
    const bool device_idle = gap.gap_ns >= idle_gap_threshold_ns && (gap.known || gap.recording_since_ns != 0);
    // Unknown on the stream (never used since the records began) says nothing the device's gap does not.
    const bool stream_idle = gap.stream_known && gap.stream_gap_ns >= stream_idle_threshold_ns;
    if (!device_idle && !stream_idle) return std::nullopt;
    const std::string device = "device " + std::to_string(gap.device);
    const std::string first = gap.first_name + " (stream " + std::to_string(gap.stream) + ")";
    std::string message;
    if (!device_idle) {
        message = "stream " + std::to_string(gap.stream) + " of " + device + " had run none of this process's work for " +
                  span(gap.stream_gap_ns) + " before the scope's first activity, " + gap.first_name +
                  ", started on it (the device's other streams ran work until " + span(gap.gap_ns) + " before)";
    } else if (gap.known) {
        message = device + " had run none of this process's work for " + span(gap.gap_ns) + " before the scope's first activity, " +
                  first + ", started";
        if (gap.last_work_name)
            message += " (the last was " + *gap.last_work_name + " on stream " + std::to_string(*gap.last_work_stream) + ")";
    } else {
        message = "no work of this process was recorded on " + device + " in the " + span(gap.gap_ns) +
                  " between the start of CUPTI's activity records and the scope's first activity, " + first +
                  ": the device was idle, or its work ran before the records began";
    }
    message += gap.mark_gap_ns ? "; the latest of the library's stream marks there ended " + span(*gap.mark_gap_ns) +
                                     " before it (an empty mark does not keep the GPU warm)"
                               : std::string();
    message += ". The first kernel after an idle gap runs longer than when queued behind other work (0.6-1.7 us on an "
               "H100). Only this process's work is seen: another process's kernels may have kept the GPU busy meanwhile";
    if (dropped_records > 0)
        message += "; CUPTI has dropped " + std::to_string(dropped_records) +
                   " records in this process, and a dropped record of earlier work makes the gap look longer";
    std::vector<Evidence> evidence = {{"idle_gap_ns", static_cast<double>(gap.gap_ns)},
                                      {"stream_idle_gap_ns", static_cast<double>(gap.stream_gap_ns)},
                                      {"stream_gap_known", gap.stream_known ? 1.0 : 0.0},
                                      {"stream_threshold_ns", static_cast<double>(stream_idle_threshold_ns)},
                                      {"gap_known", gap.known ? 1.0 : 0.0},
                                      {"threshold_ns", static_cast<double>(idle_gap_threshold_ns)},
                                      {"device", static_cast<double>(gap.device)},
                                      {"stream", static_cast<double>(gap.stream)}};
    if (gap.mark_gap_ns) evidence.push_back({"mark_gap_ns", static_cast<double>(*gap.mark_gap_ns)});
    const std::string fix = "warm the GPU / keep work queued: the first kernel after an idle gap of " +
                            span(device_idle ? gap.gap_ns : gap.stream_gap_ns) + (!device_idle || gap.known ? "" : " or more") +
                            " runs up to ~1-2 us longer on an H100 (docs/pitfalls.md): launch the timed work behind "
                            "other work (a warm-up launch just before it), or discard the reading";
    return make_finding(codes::gpu_idle_before, std::move(message), std::move(evidence), fix);
}

}  // namespace gpuchrono::idle_gap
