// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/kernel_metrics_csv.hpp"

#include "report/render/csv.hpp"

#include "csv_fields.hpp"

#include <charconv>
#include <cmath>
#include <initializer_list>

namespace gpuchrono::report {

namespace {

using gpuchrono::detail::csv::number;
using gpuchrono::detail::csv::row;

}  // namespace

bool has_kernel_metrics(const Report& report) noexcept {
    for (const Experiment& e : report.experiments)
        for (const SampleSeries& s : e.series)
            if (s.kernel_metrics) return true;
    return false;
}

std::string render_kernel_metrics_csv(const Report& report) {
    std::string out;
    row(out, {"experiment", "series", "kernel", "launch", "device", "metric", "value", "unit", "note"});
    for (const Experiment& e : report.experiments)
        for (const SampleSeries& s : e.series) {
            if (!s.kernel_metrics) continue;
            for (const metrics::KernelMetrics& k : s.kernel_metrics->kernels)
                for (const metrics::MetricValue& v : k.values)
                    row(out, {csv_field(e.id), csv_field(s.name), csv_field(k.kernel), std::to_string(k.launch),
                              std::to_string(k.device), csv_field(v.name), number(v.value), csv_field(v.unit), csv_field(v.note())});
        }
    return out;
}

std::string render_roofline_csv(const Report& report) {
    std::string out;
    row(out, {"experiment", "series", "kernel", "launch", "precision", "flops", "dram_bytes", "seconds", "intensity",
              "achieved_flops_per_second", "attainable_flops_per_second", "bound", "peak_flops_per_second",
              "peak_dram_bytes_per_second"});
    for (const Experiment& e : report.experiments)
        for (const SampleSeries& s : e.series) {
            if (!s.kernel_metrics) continue;
            const auto& peaks = s.kernel_metrics->peaks;
            for (const metrics::RooflinePoint& p : s.kernel_metrics->roofline) {
                const double peak = !peaks ? NAN : p.precision == "fp64" ? peaks->fp64_flops_per_second : peaks->fp32_flops_per_second;
                row(out, {csv_field(e.id), csv_field(s.name), csv_field(p.kernel), std::to_string(p.launch),
                          csv_field(p.precision), number(p.flops), number(p.dram_bytes), number(p.seconds),
                          number(p.intensity), number(p.achieved_flops_per_second),
                          number(p.attainable_flops_per_second), csv_field(p.bound), number(peak),
                          number(peaks ? peaks->dram_bytes_per_second : NAN)});
            }
        }
    return out;
}

}  // namespace gpuchrono::report
