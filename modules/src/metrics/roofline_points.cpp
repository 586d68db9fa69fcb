// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/metrics/roofline_points.hpp>
#include <gpuchrono/metrics/metric_catalogue.hpp>

#include "metrics/roofline_math.hpp"

#include <cmath>
#include <optional>
#include <string>

namespace gpuchrono::metrics {

namespace {

constexpr std::string_view fp32_names[] = {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                                           "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
                                           "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};
constexpr std::string_view fp64_names[] = {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
                                           "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
                                           "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"};
constexpr std::string_view read_name = "dram__bytes_read.sum";
constexpr std::string_view write_name = "dram__bytes_write.sum";
constexpr std::string_view bytes_name = "dram__bytes.sum";
constexpr std::string_view time_name = "gpu__time_duration.sum";

// Seconds per unit of a duration metric as NVPW names units ("nanosecond" from CUDA 13.0's CUPTI on an H100;
// "nsecond" in older NVPW tables) or as people do ("ns"). No unit: the
// value as NVPW evaluates it, whose base unit for gpu__time_duration is the nanosecond (and the byte for
// dram__bytes_*), so a collector that leaves the unit empty still gets its point.
std::optional<double> seconds_per(std::string_view unit) {
    if (unit.empty() || unit == "nanosecond" || unit == "nsecond" || unit == "ns") return 1e-9;
    if (unit == "microsecond" || unit == "usecond" || unit == "us") return 1e-6;
    if (unit == "millisecond" || unit == "msecond" || unit == "ms") return 1e-3;
    if (unit == "second" || unit == "s") return 1.0;
    return std::nullopt;
}

std::optional<double> bytes_per(std::string_view unit) {
    if (unit.empty() || unit == "byte" || unit == "bytes" || unit == "B") return 1.0;
    if (unit == "kilobyte" || unit == "Kbyte" || unit == "KB") return 1e3;
    if (unit == "megabyte" || unit == "Mbyte" || unit == "MB") return 1e6;
    if (unit == "gigabyte" || unit == "Gbyte" || unit == "GB") return 1e9;
    return std::nullopt;
}

std::string launch_name(const KernelMetrics& k) {
    return "\"" + k.kernel + "\" launch " + std::to_string(k.launch);
}

// The FLOPs of one precision, or nullopt with the missing names appended to `missing`.
std::optional<double> flops_of(const KernelMetrics& k, const std::string_view (&names)[3], std::string& missing) {
    double v[3] = {};
    bool complete = true;
    for (int i = 0; i < 3; ++i) {
        const MetricValue* m = k.find(names[i]);
        if (!m || !std::isfinite(m->value)) {
            missing += (missing.empty() ? "" : ", ") + std::string(names[i]);
            complete = false;
        } else {
            v[i] = m->value;
        }
    }
    if (!complete) return std::nullopt;
    return flops({.add = v[0], .mul = v[1], .fma = v[2]});
}

struct Outcome {
    std::optional<RooflinePoint> point;
    std::string note;  // why no point, or a remark about the point
};

Outcome point_of(const KernelMetrics& k, const std::optional<DevicePeaks>& peaks) {
    std::string missing32, missing64;
    const std::optional<double> f32 = flops_of(k, fp32_names, missing32);
    const std::optional<double> f64 = flops_of(k, fp64_names, missing64);
    std::string missing;
    if (!f32 && !f64) missing = missing32 + ", " + missing64;

    double bytes = std::nan("");
    const MetricValue* rd = k.find(read_name);
    const MetricValue* wr = k.find(write_name);
    const MetricValue* all = k.find(bytes_name);
    std::string unit_problem;
    auto scaled = [&](const MetricValue* m) {
        const std::optional<double> per = bytes_per(m->unit);
        if (!per) {
            unit_problem += m->name + " has the unit \"" + m->unit + "\", not a byte unit; ";
            return std::nan("");
        }
        return m->value * *per;
    };
    if (rd && wr && std::isfinite(rd->value) && std::isfinite(wr->value))
        bytes = scaled(rd) + scaled(wr);
    else if (all && std::isfinite(all->value))
        bytes = scaled(all);
    else
        missing += std::string(missing.empty() ? "" : ", ") + std::string(read_name) + " and " + std::string(write_name) +
                   " (or " + std::string(bytes_name) + ")";

    double seconds = std::nan("");
    const MetricValue* t = k.find(time_name);
    if (t && std::isfinite(t->value)) {
        const std::optional<double> per = seconds_per(t->unit);
        if (per)
            seconds = t->value * *per;
        else
            unit_problem += std::string(time_name) + " has the unit \"" + t->unit + "\", not a time unit; ";
    } else {
        missing += std::string(missing.empty() ? "" : ", ") + std::string(time_name);
    }

    if (!missing.empty()) return {std::nullopt, "no roofline point for " + launch_name(k) + ": it lacks " + missing};
    if (!unit_problem.empty())
        return {std::nullopt, "no roofline point for " + launch_name(k) + ": " + unit_problem.substr(0, unit_problem.size() - 2)};
    if (!(bytes > 0))
        return {std::nullopt, "no roofline point for " + launch_name(k) + ": it moved no DRAM bytes, so its arithmetic "
                              "intensity has no finite value"};
    if (!(seconds > 0))
        return {std::nullopt, "no roofline point for " + launch_name(k) + ": its GPU time is not > 0"};

    RooflinePoint p;
    p.kernel = k.kernel;
    p.launch = k.launch;
    const bool fp64 = f64 && (!f32 || *f64 > *f32);
    p.precision = fp64 ? "fp64" : "fp32";
    p.flops = fp64 ? *f64 : *f32;
    p.dram_bytes = bytes;
    p.seconds = seconds;
    p.intensity = arithmetic_intensity(p.flops, bytes);
    p.achieved_flops_per_second = rate_per_second(p.flops, seconds);
    const double compute_peak = !peaks ? std::nan("") : fp64 ? peaks->fp64_flops_per_second : peaks->fp32_flops_per_second;
    const double memory_peak = peaks ? peaks->dram_bytes_per_second : std::nan("");
    if (compute_peak > 0 && memory_peak > 0) {
        p.attainable_flops_per_second = attainable_flops_per_second(p.intensity, compute_peak, memory_peak);
        p.bound = p.intensity * memory_peak < compute_peak ? "memory" : "compute";
        return {std::move(p), {}};
    }
    return {std::move(p), "roofline point for " + launch_name(k) + " without roofs: " +
                              (!peaks ? std::string("the result carries no device peaks")
                                      : std::string("the device's ") + (memory_peak > 0 ? "" : "DRAM ") +
                                            (compute_peak > 0 ? "" : (fp64 ? "FP64 " : "FP32 ")) +
                                            "peak is not known (" + peaks->source + ")")};
}

}  // namespace

std::vector<std::string_view> roofline_metric_names() {
    const auto names = metric_names(MetricSet::roofline);  // the catalogue's "roofline" set: one list
    return {names.begin(), names.end()};
}

std::vector<RooflinePoint> roofline_points(const MetricsResult& result) {
    std::vector<RooflinePoint> out;
    for (const KernelMetrics& k : result.kernels)
        if (Outcome o = point_of(k, result.peaks); o.point) out.push_back(std::move(*o.point));
    return out;
}

std::vector<std::string> roofline_point_notes(const MetricsResult& result) {
    std::vector<std::string> out;
    for (const KernelMetrics& k : result.kernels)
        if (Outcome o = point_of(k, result.peaks); !o.note.empty()) out.push_back(std::move(o.note));
    return out;
}

void add_roofline(MetricsResult& result) {
    result.roofline = roofline_points(result);
    for (std::string& n : roofline_point_notes(result)) result.notes.push_back(std::move(n));
}

}  // namespace gpuchrono::metrics
