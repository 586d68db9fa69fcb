// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/metrics/kernel_metrics.hpp>

namespace gpuchrono::metrics {

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

}  // namespace gpuchrono::metrics
