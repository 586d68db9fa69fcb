// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/metrics/metric_catalogue.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>

namespace gpuchrono::metrics {
namespace {

// Seen on an H100 with ncu 2025.3 (docs/metrics.md): the bytes of a 256 MiB copy in dram__bytes_read.sum
// within 0.004%, dram__bytes_write.sum 6.9% short because L2 still holds the tail when the kernel ends.
constexpr std::array<std::string_view, 5> memory_names{
    "dram__bytes_read.sum", "dram__bytes_write.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__t_sector_hit_rate.pct", "l1tex__t_sector_hit_rate.pct"};

constexpr std::array<std::string_view, 4> compute_names{
    "sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__inst_executed.sum", "smsp__issue_active.avg.pct_of_peak_sustained_active"};

// ncu's SpeedOfLight section: "Memory Throughput" is gpu__compute_memory_throughput (the busiest memory unit,
// DRAM for a streaming copy: 85.22% both on the H100) and "Compute (SM) Throughput" is sm__throughput; the
// larger of the two says which side bounds the kernel.
constexpr std::array<std::string_view, 3> speed_of_light_names{
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed", "gpu__time_duration.sum"};

// What one roofline point per kernel needs (roofline_points.hpp): FP32 and FP64 sass FLOP counters, DRAM bytes
// both ways and the kernel's GPU time.
constexpr std::array<std::string_view, 9> roofline_names{
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum"};

constexpr std::array<std::string_view, 21> all_names{
    "dram__bytes_read.sum", "dram__bytes_write.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__t_sector_hit_rate.pct", "l1tex__t_sector_hit_rate.pct",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__inst_executed.sum", "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "gpu__time_duration.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", "dram__bytes.sum"};

}  // namespace

std::span<const std::string_view> metric_names(MetricSet set) {
    switch (set) {
        case MetricSet::memory: return memory_names;
        case MetricSet::compute: return compute_names;
        case MetricSet::speed_of_light: return speed_of_light_names;
        case MetricSet::roofline: return roofline_names;
    }
    throw std::invalid_argument("metric_names: MetricSet value out of range");
}

MetricSet parse_metric_set(std::string_view name) {
    if (name == "memory") return MetricSet::memory;
    if (name == "compute") return MetricSet::compute;
    if (name == "speed_of_light" || name == "sol") return MetricSet::speed_of_light;
    if (name == "roofline") return MetricSet::roofline;
    throw std::invalid_argument("unknown metric set '" + std::string(name) +
                                "': the sets are memory, compute, speed_of_light (or sol), roofline");
}

std::span<const std::string_view> known_metric_names() { return all_names; }

std::vector<std::string> expand_metric_names(std::span<const std::string> request) {
    if (request.empty())
        throw std::invalid_argument(
            "no metrics asked for: name a set (memory, compute, speed_of_light, roofline) or metrics");
    std::vector<std::string> out;
    const auto add = [&out](std::string_view name) {
        if (std::find(out.begin(), out.end(), name) == out.end()) out.emplace_back(name);
    };
    for (const std::string& name : request) {
        if (name.empty()) throw std::invalid_argument("an empty metric name was asked for");
        if (name == "memory" || name == "compute" || name == "speed_of_light" || name == "sol" || name == "roofline") {
            for (const std::string_view m : metric_names(parse_metric_set(name))) add(m);
        } else {
            add(name);
        }
    }
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::vector<std::string> close_metric_names(std::string_view name, std::span<const std::string_view> candidates,
                                            std::size_t count) {
    std::vector<std::pair<std::size_t, std::size_t>> ranked;  // (distance, index) keeps ties in list order
    ranked.reserve(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) ranked.emplace_back(edit_distance(name, candidates[i]), i);
    std::sort(ranked.begin(), ranked.end());  // by distance, then index
    std::vector<std::string> out;
    for (std::size_t i = 0; i < ranked.size() && out.size() < count; ++i)
        out.emplace_back(candidates[ranked[i].second]);
    return out;
}

void require_known_metric(std::string_view name, std::span<const std::string_view> candidates,
                          std::string_view list_origin) {
    if (std::find(candidates.begin(), candidates.end(), name) != candidates.end()) return;
    std::string message = "unknown metric '" + std::string(name) + "' (not in " + std::string(list_origin) + ")";
    const auto close = close_metric_names(name, candidates);
    if (!close.empty()) {
        message += "; close names:";
        for (const auto& c : close) message += " " + c;
    }
    throw std::invalid_argument(message);
}

}  // namespace gpuchrono::metrics
