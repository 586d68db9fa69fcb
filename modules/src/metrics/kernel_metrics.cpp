// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <cmath>
#include <cstdio>

namespace gpuchrono::metrics {

std::string MetricValue::note() const { return out_of_range_note(unit, value); }

const MetricValue* KernelMetrics::find(std::string_view name) const noexcept {
    for (const MetricValue& v : values)
        if (v.name == name) return &v;
    return nullptr;
}

const MetricValue* MetricsResult::find(std::string_view kernel, std::string_view metric) const noexcept {
    if (kernel.empty()) {
        if (kernels.empty()) return nullptr;
        for (const KernelMetrics& k : kernels)
            if (k.kernel != kernels.front().kernel) return nullptr;  // several names: the caller must say which
        return kernels.front().find(metric);
    }
    for (const KernelMetrics& k : kernels)
        if (k.kernel == kernel) return k.find(metric);
    return nullptr;
}

std::string out_of_range_note(std::string_view unit, double value) {
    if (std::isnan(value) || unit.empty()) return {};
    char number[64];
    std::snprintf(number, sizeof number, "%.6g", value);
    if (unit == "%") {
        if (value >= 0.0 && value <= 100.0) return {};
        return std::string(number) + "% is outside a percentage's range 0..100: the counters it is computed from "
               "are counted apart, so read it as " + (value > 100.0 ? "100%" : "0%") + ", not as a gain or a loss";
    }
    if (value >= 0.0) return {};
    return std::string(number) + " " + std::string(unit) + " is negative, which a count, size, time or rate cannot "
           "be: the counters it is computed from are counted apart, so treat it as 0";
}

}  // namespace gpuchrono::metrics
