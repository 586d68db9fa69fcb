// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A recorded run as the library's Report (report/report.hpp), so that one format serves everything: report.json
// reads back with gpuchrono report, compares with gpuchrono compare and diff, renders as CSV, HTML and a
// Perfetto trace with the library's writers. Its experiments:
//
//   "kernels"    one series per kernel name (the reservoir sample, with the median's confidence interval) and,
//                per kernel, the metrics "<name> | calls", "| total", "| share", "| min", "| max", exact over
//                every call; the run's findings
//   "nvtx"       the same per NVTX range (the GPU time of the activities launched inside it)
//   "transfers"  memcpy by kind and memset: count, bytes, time, GB/s
//   "devices"    per device: busy, span, idle, the largest idle gap
//
// The note "run status: complete" or "run status: incomplete (...)" says whether the program reached its end.
#pragma once

#include "checks/check_run.hpp"
#include "run/aggregate.hpp"

#include <gpuchrono/core/kernel_activity.hpp>
#include <gpuchrono/distributed/device_identity.hpp>
#include <gpuchrono/distributed/rank_identity.hpp>
#include <gpuchrono/report/model/report.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace gpuchrono::run {

struct RunInfo {
    bool complete = false;
    std::string status_note;        // why it is incomplete, how it ended
    std::string command;            // the program and its arguments
    bool cuda_started = true;       // false: the program never initialized CUDA
    std::vector<report::DeviceInfo> devices;
    // What names each device across ranks (UUID), from CUPTI's device records: the report then never asks the
    // CUDA runtime, which the injection must not call from its flush thread or at exit.
    std::vector<distributed::DeviceIdentity> identities;
    std::vector<KernelActivity> trace;  // only with --trace
    std::uint64_t trace_left_out = 0;   // activities past the trace's limit
    double timer_floor_ns = 950;    // the CUPTI record's fixed part; kernels under twice it are flagged
    std::vector<std::string> notes; // other remarks (filters, windows)
};

// One row of a kernel (or NVTX range) table, read back from a Report.
struct TableRow {
    std::string name;
    std::uint64_t calls = 0;
    double total_ns = 0;
    double share = 0;  // of the GPU time of all kernels (ranges: of the kernels' too)
    double min_ns = 0, median_ns = 0, ci_low_ns = 0, ci_high_ns = 0, p95_ns = 0, max_ns = 0;
    std::size_t samples = 0;
};

inline constexpr const char* kernels_experiment = "kernels";
inline constexpr const char* ranges_experiment = "nvtx";
inline constexpr const char* run_policy = "cupti-run";

report::Report build_report(const Aggregate& aggregate, const RunInfo& info);

// A report for a program that never started CUDA: it says so.
report::Report no_cuda_report(const std::string& command, const std::string& why);

// The rows of experiment `id` ("kernels" or "nvtx"), largest total first; empty when it has none.
std::vector<TableRow> table_rows(const report::Report& r, const std::string& id);

// Whether the report says its run reached its end ("run status: complete").
bool run_complete(const report::Report& r);

// The table printed on stderr at exit: the `top` kernels by total time, then a line per finding.
std::string render_top(const report::Report& r, std::size_t top);

// kernels.csv / nvtx.csv: one row per name with every column of the table.
std::string rows_csv(const std::vector<TableRow>& rows);

// The file a process writes: report.json for the process run started, report-rank<R>.json for a rank of a
// job (launcher variables), report-pid<P>.json for a followed child.
std::string report_file_name(const distributed::RankIdentity& id, bool root_process);

}  // namespace gpuchrono::run
