// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions of KernelPolicy (and the kernel method's batches) about its CUPTI records: no work counted, work
// elsewhere, records dropped or late, CUPTI unusable. Pure functions over what the policy observed, so the policy
// only gathers the records and the wording lives beside the other checks.
#pragma once

#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/kernel_activity.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace gpuchrono {

// What a KernelPolicy scope saw of its records at the stop.
struct KernelRecordsSeen {
    // Where the counted work was looked for, as the message says it: "enqueued on the timed stream (...)" or
    // "launched by the scope's thread".
    std::string where;
    bool by_marks = false;              // the scope's work is told apart by stream marks, not by its launch calls
    std::size_t launch_calls = 0;       // the launch calls the scope's thread made
    std::size_t expected_records = 0;   // those that must have a record of their own
    std::size_t counted = 0;            // the activities counted as the scope's
    std::span<const KernelActivity> elsewhere;  // work not counted: other streams or devices
    std::uint64_t dropped = 0;          // records CUPTI dropped while the scope ran
    std::size_t missing = 0;            // expected records still absent after `record_wait`
    std::chrono::milliseconds record_wait{0};
};

// kernel-no-activity or kernel-activity-elsewhere, kernel-records-dropped, kernel-records-late, in that order.
Findings check_kernel_records(const KernelRecordsSeen& seen);

// kernel-records-late for a scope timed by stream marks whose start or stop mark had no record `record_wait`
// after the stream's work finished; nullopt when both were found.
std::optional<Finding> check_scope_marks_found(bool start_found, bool stop_found, std::uint64_t dropped,
                                               std::chrono::milliseconds record_wait);

// kernel-no-activity for the kernel method's batch: `empty_samples` of its `samples` counted no work on the timed
// stream of `device`; nullopt when none was empty.
std::optional<Finding> check_batch_samples_counted(int device, std::size_t empty_samples, std::size_t samples);

// What the Google Benchmark bridge saw of one batch of iterations (policies/kernel/detail/iteration_batch.hpp).
struct IterationRecordsSeen {
    std::string where;                // "enqueued on the timed stream (...)" or "launched by the benchmark's thread"
    std::size_t iterations = 0;
    std::size_t empty = 0;            // iterations that counted no record
    std::size_t with_elsewhere = 0;   // iterations whose own launches ran on other streams or devices (not counted)
    std::span<const KernelActivity> elsewhere;  // the first such iteration's, for the message
    std::uint64_t dropped = 0;        // records CUPTI dropped while the batch ran
    std::size_t missing = 0;          // launch calls whose record was still absent after `record_wait`
    std::size_t expected = 0;         // launch calls that must have a record of their own
    std::chrono::milliseconds record_wait{0};
};

// kernel-no-activity (some iteration counted nothing), kernel-activity-elsewhere, kernel-records-dropped,
// kernel-records-late, in that order, each at most once for the batch.
Findings check_iteration_records(const IterationRecordsSeen& seen);

// cupti-unavailable: KernelPolicy could not start CUPTI, for the reason `why`.
Finding cupti_unavailable_finding(const std::string& why);

}  // namespace gpuchrono
