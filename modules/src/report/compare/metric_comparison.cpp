// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/compare/metric_comparison.hpp"

#include "measure/change_text.hpp"

#include <gpuchrono/report/render/units.hpp>

#include <cmath>
#include <string>

namespace gpuchrono {

namespace {

bool is_percentage(const MetricChange& c) {
    return c.unit == "%" || c.metric.ends_with(".pct") || c.metric.find(".pct_of_peak") != std::string::npos;
}

// What the kernel does more or less of, by the metric's name: the verb of the closing sentence.
const char* verb_of(const std::string& metric) {
    if (metric.find("bytes_read") != std::string::npos) return "reads";
    if (metric.find("bytes_write") != std::string::npos) return "writes";
    if (metric.find("bytes") != std::string::npos) return "moves";
    if (metric.find("inst_executed") != std::string::npos) return "executes";
    if (metric.find("time_duration") != std::string::npos) return "takes";
    return nullptr;
}

// "about half as much", "about twice as much", "30% less", "2.5 times as much".
std::string ratio_words(double q) {
    if (q >= 0.45 && q <= 0.55) return "about half as much";
    if (q >= 0.30 && q <= 0.36) return "about a third as much";
    if (q >= 0.22 && q <= 0.28) return "about a quarter as much";
    if (q >= 1.9 && q <= 2.1) return "about twice as much";
    if (q < 1) return report::format_number(100 * (1 - q), 2) + "% less";
    if (q < 1.9) return report::format_number(100 * (q - 1), 2) + "% more";
    return report::format_number(q, 2) + " times as much";
}

}  // namespace

MetricComparison compare_kernel_metrics(const metrics::MetricsResult& before, const metrics::MetricsResult& after,
                                        double threshold) {
    MetricComparison out;
    auto find_launch = [](const metrics::MetricsResult& r, const metrics::KernelMetrics& k) -> const metrics::KernelMetrics* {
        for (const metrics::KernelMetrics& x : r.kernels)
            if (x.kernel == k.kernel && x.launch == k.launch) return &x;
        return nullptr;
    };
    for (const metrics::KernelMetrics& a : before.kernels) {
        const std::string launch = "\"" + a.kernel + "\" launch " + std::to_string(a.launch);
        const metrics::KernelMetrics* b = find_launch(after, a);
        if (!b) {
            out.unmatched.push_back(launch + ": only in the base report");
            continue;
        }
        for (const metrics::MetricValue& va : a.values) {
            const metrics::MetricValue* vb = b->find(va.name);
            if (!vb) {
                out.unmatched.push_back(launch + ": " + va.name + " only in the base report");
                continue;
            }
            if (!std::isfinite(va.value) || !std::isfinite(vb->value)) continue;
            MetricChange c{a.kernel, a.launch, va.name, va.unit, va.value, vb->value, 0};
            c.change = va.value == vb->value ? 0.0
                       : va.value == 0      ? (vb->value > 0 ? INFINITY : -INFINITY)
                                            : vb->value / va.value - 1;
            const double size = is_percentage(c) ? std::fabs(c.after - c.before) / 100 : std::fabs(c.change);
            if (size < threshold)
                ++out.unchanged;
            else
                out.changes.push_back(std::move(c));
        }
        for (const metrics::MetricValue& vb : b->values)
            if (!a.find(vb.name)) out.unmatched.push_back(launch + ": " + vb.name + " only in the new report");
    }
    for (const metrics::KernelMetrics& b : after.kernels)
        if (!find_launch(before, b))
            out.unmatched.push_back("\"" + b.kernel + "\" launch " + std::to_string(b.launch) + ": only in the new report");
    return out;
}

std::string describe(const MetricChange& c) {
    const std::string unit = c.unit.empty() ? std::string() : " " + c.unit;
    if (is_percentage(c)) {
        const double points = c.after - c.before;
        return c.metric + " " + report::format_number(c.before, 3) + " -> " + report::format_number(c.after, 3) +
               (c.unit.empty() ? std::string(" %") : unit) + " (" + (points >= 0 ? "+" : "") +
               report::format_number(points, 3) + " points)";
    }
    std::string out = c.metric + " " + detail::signed_percent(c.change) + " (" + report::format_number(c.before, 6) +
                      " -> " + report::format_number(c.after, 6) + unit + ")";
    if (const char* verb = verb_of(c.metric); verb && c.before > 0 && c.after > 0)
        out += ": the new kernel " + std::string(verb) + " " + ratio_words(c.after / c.before);
    return out;
}

}  // namespace gpuchrono
