// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions of `gpuchrono run` about a recorded program: its kernel tables, the CUDA work it did, CUPTI's drops
// and overhead, and each device's idle time and overlap. run/ aggregates the activity records into plain figures
// and calls these, which decide and word the findings.
#pragma once

#include <gpuchrono/core/finding.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::run {

// "12.3 us" style, three significant digits: the durations in run's findings and tables.
std::string format_ns(double ns);

// cold-first-sample (info): the first of a kernel's `calls` took over 10x its median and 20 us more.
std::optional<Finding> check_cold_first_call(const std::string& kernel, std::uint64_t calls, double first_ns,
                                             double median_ns);

// run-kernel-below-floor: a kernel's median under twice the CUPTI record's fixed cost `floor_ns`.
std::optional<Finding> check_kernel_above_floor(const std::string& kernel, double median_ns, double floor_ns);

// run-no-cuda-work: the program never started CUDA, or started it and no kernel, memcpy or memset was recorded
// (`filtered`: activities the filters left out).
std::optional<Finding> check_cuda_work(bool cuda_started, std::uint64_t kernel_calls, std::size_t transfer_kinds,
                                       std::uint64_t filtered);

// Records CUPTI dropped, of one kind.
struct DroppedRecords {
    std::string kind;
    std::uint64_t count = 0;
};

// kernel-records-dropped (error): `dropped` records of the run were lost, `by_kind` as CUPTI counted them.
std::optional<Finding> check_run_records_dropped(std::uint64_t dropped, const std::vector<DroppedRecords>& by_kind);

// CUPTI's own work of one kind: how often and how long.
struct CuptiOverhead {
    std::string kind;
    std::uint64_t count = 0;
    double total_ns = 0;
};

// run-cupti-overhead (info): what CUPTI's own work cost the program; nothing when there was none.
std::optional<Finding> check_cupti_overhead(const std::vector<CuptiOverhead>& by_kind);

// run-idle-gaps (info): a device idle over a fifth of its span (first activity's start to last one's end) with a
// gap over 1 ms.
std::optional<Finding> check_device_idle(int device, double idle_ns, double span_ns, double largest_gap_ns);

// run-overlap (info): a device's activities add up to over 1.05x its busy time, so they shared it.
std::optional<Finding> check_device_overlap(int device, double activity_ns, double busy_ns);

}  // namespace gpuchrono::run
