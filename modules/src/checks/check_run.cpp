// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "checks/check_run.hpp"

#include <gpuchrono/core/finding_catalog.hpp>

#include "core/fixed_text.hpp"

#include <cmath>
#include <cstdio>

namespace gpuchrono::run {

namespace {

// Run's own codes are not in the catalog (they describe a whole program, not a reading), so they are built
// here with their severity and fix.
Finding finding(std::string code, Severity severity, std::string message, std::string fix, std::vector<Evidence> evidence = {}) {
    Finding f;
    f.code = std::move(code);
    f.severity = severity;
    f.message = std::move(message);
    f.fix = std::move(fix);
    f.evidence = std::move(evidence);
    return f;
}

std::string format_number(double value) { return detail::number_text(value, 3); }

}  // namespace

std::string format_ns(double ns) {
    if (!std::isfinite(ns)) return "-";
    const double a = std::fabs(ns);
    const char* unit = "ns";
    double v = ns;
    if (a >= 1e9) v = ns / 1e9, unit = "s";
    else if (a >= 1e6) v = ns / 1e6, unit = "ms";
    else if (a >= 1e3) v = ns / 1e3, unit = "us";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g %s", v, unit);
    return buf;
}

std::optional<Finding> check_cold_first_call(const std::string& kernel, std::uint64_t calls, double first_ns,
                                             double median_ns) {
    if (!(calls >= 3 && std::isfinite(median_ns) && median_ns > 0 && first_ns > 10 * median_ns &&
          first_ns - median_ns > 20000))
        return std::nullopt;
    Finding f = make_finding("cold-first-sample",
                             "the first call of " + kernel + " took " + format_ns(first_ns) + ", " +
                                 format_number(first_ns / median_ns) +
                                 "x its median (module load, JIT compilation or a cold cache)",
                             {{"first_ns", first_ns}, {"median_ns", median_ns}},
                             "leave the first call out of comparisons, or warm the kernel up before the timed part");
    f.severity = Severity::info;
    return f;
}

std::optional<Finding> check_kernel_above_floor(const std::string& kernel, double median_ns, double floor_ns) {
    if (!(std::isfinite(median_ns) && median_ns < 2 * floor_ns)) return std::nullopt;
    return finding("run-kernel-below-floor", Severity::info,
                   kernel + " runs " + format_ns(median_ns) + " (median), under twice the CUPTI record's floor of about " +
                       format_ns(floor_ns) + ": its duration is mostly the record's fixed cost, not its work",
                   "compare such kernels by their total over many calls, or time a batch of them with measure()",
                   {{"median_ns", median_ns}, {"floor_ns", floor_ns}});
}

std::optional<Finding> check_cuda_work(bool cuda_started, std::uint64_t kernel_calls, std::size_t transfer_kinds,
                                       std::uint64_t filtered) {
    if (!cuda_started)
        return finding("run-no-cuda-work", Severity::warning, "the program never started CUDA: there is no GPU work to report",
                       "check that the program uses the GPU (a CPU-only build, CUDA_VISIBLE_DEVICES empty, "
                       "or no CUDA driver on this machine)");
    if (kernel_calls != 0 || transfer_kinds != 0) return std::nullopt;
    return finding("run-no-cuda-work", Severity::warning,
                   "CUDA started but no kernel, memcpy or memset was recorded" +
                       std::string(filtered > 0 ? " (" + std::to_string(filtered) + " activities were left out by the filters)"
                                                : ""),
                   "check the filters (--kernels, --nvtx, --delay, --duration, --signals)");
}

std::optional<Finding> check_run_records_dropped(std::uint64_t dropped, const std::vector<DroppedRecords>& by_kind) {
    if (dropped == 0) return std::nullopt;
    std::string where;
    for (const DroppedRecords& d : by_kind) where += (where.empty() ? "" : ", ") + std::to_string(d.count) + " " + d.kind;
    Finding f = make_finding("kernel-records-dropped",
                             std::to_string(dropped) + " CUPTI activity records were dropped (" + where +
                                 "): the counts and totals leave that work out",
                             {{"dropped", static_cast<double>(dropped)}},
                             "free the CUPTI buffers sooner: record fewer kinds (--kernels), or a shorter window (--duration)");
    f.severity = Severity::error;
    return f;
}

std::optional<Finding> check_cupti_overhead(const std::vector<CuptiOverhead>& by_kind) {
    if (by_kind.empty()) return std::nullopt;
    double total = 0;
    std::string kinds;
    for (const CuptiOverhead& o : by_kind) {
        total += o.total_ns;
        kinds += (kinds.empty() ? "" : ", ") + o.kind + " " + std::to_string(o.count) + "x " + format_ns(o.total_ns);
    }
    return finding("run-cupti-overhead", Severity::info,
                   "CUPTI's own work took " + format_ns(total) + " of the program's time (" + kinds + ")",
                   "nothing to do unless it is a large part of the run: then record a shorter window", {{"overhead_ns", total}});
}

std::optional<Finding> check_device_idle(int device, double idle_ns, double span_ns, double largest_gap_ns) {
    if (!(span_ns > 0 && idle_ns > 0.2 * span_ns && largest_gap_ns > 1e6)) return std::nullopt;
    return finding("run-idle-gaps", Severity::info,
                   "device " + std::to_string(device) + " was idle " + format_ns(idle_ns) + " of its " + format_ns(span_ns) +
                       " span (" + format_number(100 * idle_ns / span_ns) + "%), the longest gap " + format_ns(largest_gap_ns),
                   "idle time between kernels is host-side work (launch, synchronization, data loading): look at what "
                   "the program does between them",
                   {{"idle_ns", idle_ns}, {"span_ns", span_ns}, {"largest_gap_ns", largest_gap_ns}});
}

std::optional<Finding> check_device_overlap(int device, double activity_ns, double busy_ns) {
    if (!(busy_ns > 0 && activity_ns > 1.05 * busy_ns)) return std::nullopt;
    return finding("run-overlap", Severity::info,
                   "on device " + std::to_string(device) + " activities overlapped: their durations add up to " +
                       format_ns(activity_ns) + " in " + format_ns(busy_ns) + " of busy time (" +
                       format_number(activity_ns / busy_ns) +
                       "x); a kernel's duration then includes time it shared the GPU",
                   "compare overlapping kernels by the program's total time, or run them on one stream to time each alone",
                   {{"activity_ns", activity_ns}, {"busy_ns", busy_ns}});
}

}  // namespace gpuchrono::run
