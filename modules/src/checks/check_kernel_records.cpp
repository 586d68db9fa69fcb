// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "checks/check_kernel_records.hpp"

#include <gpuchrono/core/finding_catalog.hpp>
#include "cupti/activity_intervals.hpp"

namespace gpuchrono {

Findings check_kernel_records(const KernelRecordsSeen& seen) {
    Findings found;
    if (seen.counted == 0) {
        std::string message = "KernelPolicy counted no GPU work " + seen.where + " between start and stop";
        if (!seen.by_marks) message += " (" + std::to_string(seen.launch_calls) + " launch calls seen)";
        if (!seen.elsewhere.empty())
            message += std::string(seen.by_marks ? "; work launched in the process meanwhile ran on other streams: "
                                                 : "; the scope's thread launched on other streams: ") +
                       cupti::describe_activities(seen.elsewhere);
        found.push_back(make_finding(codes::kernel_no_activity, message + ": the duration is 0",
                                     {{"launch_calls", static_cast<double>(seen.launch_calls)},
                                      {"elsewhere", static_cast<double>(seen.elsewhere.size())}}));
    } else if (!seen.elsewhere.empty()) {
        found.push_back(make_finding(
            codes::kernel_activity_elsewhere,
            std::string(seen.by_marks ? "work launched in the process between the scope's start and stop (by this or "
                                        "another thread) ran on other streams or devices, not counted: "
                                      : "counted work ran on another device than the timed stream's: ") +
                cupti::describe_activities(seen.elsewhere),
            {{"activities", static_cast<double>(seen.elsewhere.size())}}));
    }
    if (seen.dropped > 0)
        found.push_back(make_finding(codes::kernel_records_dropped,
                                     "CUPTI dropped " + std::to_string(seen.dropped) +
                                         " activity records while this scope ran (it had no buffer space for them: "
                                         "out of memory, or its buffers were full): the activity list and the "
                                         "busy time may miss work",
                                     {{"dropped_records", static_cast<double>(seen.dropped)}}));
    if (seen.missing > 0)
        found.push_back(make_finding(codes::kernel_records_late,
                                     std::to_string(seen.missing) + " of the scope's " +
                                         std::to_string(seen.expected_records) + " launch calls had no activity record " +
                                         std::to_string(seen.record_wait.count()) +
                                         " ms after their work had finished: the busy time and the activity "
                                         "list miss that work",
                                     {{"missing_records", static_cast<double>(seen.missing)},
                                      {"launch_calls", static_cast<double>(seen.expected_records)}}));
    return found;
}

std::optional<Finding> check_scope_marks_found(bool start_found, bool stop_found, std::uint64_t dropped,
                                               std::chrono::milliseconds record_wait) {
    if (start_found && stop_found) return std::nullopt;
    return make_finding(
        codes::kernel_records_late,
        std::string("the scope's ") +
            (!start_found && !stop_found ? "start and stop marks" : !start_found ? "start mark" : "stop mark") +
            " on the timed stream had no activity record " + std::to_string(record_wait.count()) +
            " ms after the stream's work had finished" +
            (dropped > 0 ? " (CUPTI dropped " + std::to_string(dropped) + " records)" : std::string()) +
            ": the scope's work cannot be told apart, and none is counted",
        {{"missing_records", static_cast<double>(!start_found + !stop_found)}});
}

std::optional<Finding> check_batch_samples_counted(int device, std::size_t empty_samples, std::size_t samples) {
    if (empty_samples == 0) return std::nullopt;
    return make_finding(codes::kernel_no_activity,
                        "the kernel method counted no GPU work enqueued on the timed stream (device " +
                            std::to_string(device) + ") in " + std::to_string(empty_samples) + " of its " +
                            std::to_string(samples) + " samples: their duration is 0",
                        {{"empty_samples", static_cast<double>(empty_samples)}, {"samples", static_cast<double>(samples)}});
}

Findings check_iteration_records(const IterationRecordsSeen& seen) {
    Findings found;
    const std::string of = " of the batch's " + std::to_string(seen.iterations) + " iterations";
    if (seen.empty > 0) {
        std::string message = "no GPU work " + seen.where + " was counted in " + std::to_string(seen.empty) + of;
        if (!seen.elsewhere.empty())
            message += "; their launches ran on other streams or devices: " + cupti::describe_activities(seen.elsewhere);
        found.push_back(make_finding(codes::kernel_no_activity, message + ": their duration is 0",
                                     {{"empty_iterations", static_cast<double>(seen.empty)},
                                      {"iterations", static_cast<double>(seen.iterations)}}));
    } else if (seen.with_elsewhere > 0) {
        found.push_back(make_finding(codes::kernel_activity_elsewhere,
                                     "in " + std::to_string(seen.with_elsewhere) + of +
                                         " the body also launched work on other streams or devices, not counted: " +
                                         cupti::describe_activities(seen.elsewhere),
                                     {{"iterations", static_cast<double>(seen.with_elsewhere)}}));
    }
    if (seen.dropped > 0)
        found.push_back(make_finding(codes::kernel_records_dropped,
                                     "CUPTI dropped " + std::to_string(seen.dropped) +
                                         " activity records while the batch ran (it had no buffer space for them): "
                                         "the iterations' times may miss work",
                                     {{"dropped_records", static_cast<double>(seen.dropped)}}));
    if (seen.missing > 0)
        found.push_back(make_finding(codes::kernel_records_late,
                                     std::to_string(seen.missing) + " of the batch's " + std::to_string(seen.expected) +
                                         " launch calls had no activity record " +
                                         std::to_string(seen.record_wait.count()) +
                                         " ms after their work had finished: the iterations' times miss that work",
                                     {{"missing_records", static_cast<double>(seen.missing)},
                                      {"launch_calls", static_cast<double>(seen.expected)}}));
    return found;
}

Finding cupti_unavailable_finding(const std::string& why) {
    return make_finding(codes::cupti_unavailable, "KernelPolicy measured nothing: " + why);
}

}  // namespace gpuchrono
