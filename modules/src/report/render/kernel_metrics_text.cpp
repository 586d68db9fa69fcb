// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/kernel_metrics_text.hpp"

#include <algorithm>

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/report/render/text_report.hpp>
#include "report/render/text_table.hpp"
#include <gpuchrono/report/render/units.hpp>

#include "json/utf8.hpp"

#include <cmath>
#include <string>

namespace gpuchrono::report {

namespace {

// 66.9e12 -> "66.9 TFLOP/s"; rates span many decades between a copy and a GEMM.
std::string scaled(double v, const char* unit) {
    if (std::isnan(v)) return "not known";
    const char* prefixes[] = {"", "K", "M", "G", "T", "P"};
    int i = 0;
    double x = v;
    while (std::fabs(x) >= 1000 && i < 5) {
        x /= 1000;
        ++i;
    }
    return format_number(x, 3) + " " + prefixes[i] + unit;
}

// Counters in full ("268445184"): a byte count cut to three digits cannot be checked against ncu's.
std::string metric_value(double v) {
    if (std::isnan(v)) return "not measured";
    if (std::trunc(v) == v && std::fabs(v) < 1e15) return format_fixed(v, 0);
    return format_number(v, 4);
}

}  // namespace

std::string render_peaks_text(const metrics::DevicePeaks& p, const std::string& indent) {
    const std::string line = "peaks of device " + std::to_string(p.device) + " (" +
                      (p.device_name.empty() ? std::string("unnamed") : p.device_name) + ", compute " +
                      std::to_string(p.compute_major) + "." + std::to_string(p.compute_minor) + ", " +
                      std::to_string(p.sm_count) + " SMs at " +
                      (std::isnan(p.sm_clock_mhz) ? std::string("an unknown clock") : format_number(p.sm_clock_mhz, 4) + " MHz") +
                      "): FP32 " + scaled(p.fp32_flops_per_second, "FLOP/s") + ", FP64 " +
                      scaled(p.fp64_flops_per_second, "FLOP/s") + ", DRAM " + scaled(p.dram_bytes_per_second, "B/s");
    std::string out = wrap(line, text_width, indent);
    if (!p.source.empty()) out += wrap("derived: " + p.source, text_width, indent + "  ");
    return json::valid_utf8(out);
}

std::string render_kernel_metrics_text(const metrics::MetricsResult& r, const std::string& indent) {
    std::string out;
    if (!r.requested.empty()) {
        std::string names;
        for (const std::string& n : r.requested) names += (names.empty() ? "" : ", ") + n;
        out += wrap("asked for: " + names, text_width, indent);
    }
    if (r.passes > 0 || !std::isnan(r.collection_ns))
        out += indent + std::to_string(r.passes) + " replay pass" + (r.passes == 1 ? "" : "es") + " per kernel, " +
               (std::isnan(r.collection_ns) ? std::string("collection time not measured")
                                            : to_string(Duration::from_ns(r.collection_ns)) + " to collect") +
               "\n";
    if (!r.kernels.empty()) {
        TextTable t;
        t.column("kernel", TextTable::Align::left)
            .column("launch")
            .column("metric (ncu name)", TextTable::Align::left)
            .column("value")
            .column("unit", TextTable::Align::left);
        for (const metrics::KernelMetrics& k : r.kernels)
            for (const metrics::MetricValue& v : k.values)
                t.row({k.kernel, std::to_string(k.launch), v.name,
                       metric_value(v.value) + (v.note().empty() ? "" : " *"), v.unit});
        out += t.render(indent);
        const bool marked = std::any_of(r.kernels.begin(), r.kernels.end(), [](const metrics::KernelMetrics& k) {
            return std::any_of(k.values.begin(), k.values.end(), [](const metrics::MetricValue& v) { return !v.note().empty(); });
        });
        if (marked) out += indent + "* outside its unit's range: see the notes below\n";
    }
    if (r.peaks) out += render_peaks_text(*r.peaks, indent);
    if (!r.roofline.empty()) {
        TextTable t;
        t.column("roofline: kernel", TextTable::Align::left)
            .column("launch")
            .column("precision", TextTable::Align::left)
            .column("FLOP")
            .column("DRAM bytes")
            .column("FLOP/byte")
            .column("achieved")
            .column("roof at this intensity")
            .column("% of roof")
            .column("bound", TextTable::Align::left);
        for (const metrics::RooflinePoint& p : r.roofline) {
            const double pct = p.attainable_flops_per_second > 0 ? 100.0 * p.achieved_flops_per_second / p.attainable_flops_per_second
                                                                 : std::nan("");
            t.row({p.kernel, std::to_string(p.launch), p.precision, format_number(p.flops, 4), format_bytes(p.dram_bytes),
                   format_number(p.intensity, 3), scaled(p.achieved_flops_per_second, "FLOP/s"),
                   scaled(p.attainable_flops_per_second, "FLOP/s"), std::isnan(pct) ? "-" : format_number(pct, 3) + "%",
                   p.bound.empty() ? "-" : p.bound});
        }
        out += t.render(indent);
    }
    for (const std::string& n : r.notes) out += wrap("note: " + n, text_width, indent);
    // A value marked * whose note the collection did not list (a report written by hand, or by a filter).
    for (const metrics::KernelMetrics& k : r.kernels)
        for (const metrics::MetricValue& v : k.values) {
            const std::string note = v.note();
            if (note.empty()) continue;
            const std::string n = v.name + " of " + k.kernel + " (launch " + std::to_string(k.launch) + "): " + note;
            if (std::find(r.notes.begin(), r.notes.end(), n) == r.notes.end()) out += wrap("note: * " + n, text_width, indent);
        }
    return json::valid_utf8(out);
}

}  // namespace gpuchrono::report
