// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/testing/metric_checks.hpp>

#include <gpuchrono/measure/measure_record.hpp>

#include <charconv>
#include <cmath>
#include <system_error>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

// Shortest form that reads back the same double ("268445184", "0.5", "1e+300"), so the message carries the
// exact figure a test compared.
std::string exact(double v) {
    char buf[40];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

std::string with_unit(double v, const std::string& unit) { return unit.empty() ? exact(v) : exact(v) + " " + unit; }

bool within(double v, MetricBound b, double limit) {
    switch (b) {
        case MetricBound::less_than: return v < limit;
        case MetricBound::less_equal: return v <= limit;
        case MetricBound::greater_than: return v > limit;
        case MetricBound::greater_equal: return v >= limit;
    }
    return false;
}

std::string quoted_list(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + ("\"" + n + "\"");
    return out;
}

}  // namespace

const char* to_string(MetricBound bound) noexcept {
    switch (bound) {
        case MetricBound::less_than: return "<";
        case MetricBound::less_equal: return "<=";
        case MetricBound::greater_than: return ">";
        case MetricBound::greater_equal: return ">=";
    }
    return "?";
}

CheckResult check_metric(const metrics::MetricsResult& result, std::string_view metric, MetricBound bound, double limit,
                         std::string_view kernel) {
    const std::string wanted = std::string(metric) + " " + to_string(bound) + " " + exact(limit);
    if (std::isnan(limit)) return {false, "metric check " + std::string(metric) + ": the bound is NaN"};
    if (result.kernels.empty())
        return {false, "metric check " + wanted + ": no kernel was profiled (the result holds no kernel metrics" +
                           (result.notes.empty() ? std::string(")") : "; notes: " + result.notes.front() + ")")};
    std::vector<std::string> names;
    for (const metrics::KernelMetrics& k : result.kernels) {
        bool seen = false;
        for (const std::string& n : names) seen = seen || n == k.kernel;
        if (!seen) names.push_back(k.kernel);
    }
    std::string name(kernel);
    if (name.empty()) {
        if (names.size() > 1)
            return {false, "metric check " + wanted + ": the result holds " + std::to_string(names.size()) +
                               " kernels (" + quoted_list(names) + "); name the one to check"};
        name = names.front();
    }

    std::string lines;
    bool passed = true;
    std::size_t launches = 0;
    for (const metrics::KernelMetrics& k : result.kernels) {
        if (k.kernel != name) continue;
        ++launches;
        const std::string where = "kernel \"" + k.kernel + "\" launch " + std::to_string(k.launch);
        const metrics::MetricValue* v = k.find(metric);
        if (!v) {
            std::string collected;
            for (const metrics::MetricValue& c : k.values) collected += (collected.empty() ? "" : ", ") + c.name;
            return {false, "metric check " + wanted + ": " + std::string(metric) + " was not collected for " + where +
                               "; collected: " + (collected.empty() ? std::string("nothing") : collected)};
        }
        if (std::isnan(v->value)) {
            passed = false;
            lines += "\n  " + where + ": " + v->name + " is NaN (the device could not evaluate it)";
            continue;
        }
        const bool ok = within(v->value, bound, limit);
        passed = passed && ok;
        lines += "\n  " + where + ": " + v->name + " = " + with_unit(v->value, v->unit) + (ok ? ", " : ", not ") +
                 to_string(bound) + " " + with_unit(limit, v->unit);
    }
    if (launches == 0)
        return {false, "metric check " + wanted + ": kernel \"" + name + "\" was not profiled; the result holds " +
                           quoted_list(names)};
    return {passed, "metric check " + wanted + ": " + (passed ? "passed" : "failed") + lines};
}

CheckResult check_metric(const Series& series, std::string_view metric, MetricBound bound, double limit,
                         std::string_view kernel) {
    const auto& record = series.measure_record();
    if (!record)
        return {false, "metric check " + std::string(metric) + ": series \"" + series.name() +
                           "\" was not taken by measure(), so it carries no hardware metrics (use the MetricsResult "
                           "of a metrics scope)"};
    if (!record->kernel_metrics)
        return {false, "metric check " + std::string(metric) + ": series \"" + series.name() +
                           "\" was measured without hardware metrics (ask for them with MeasureOptions::metrics)"};
    return check_metric(*record->kernel_metrics, metric, bound, limit, kernel);
}

}  // namespace gpuchrono
