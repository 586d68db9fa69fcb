// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_noise.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace gpuchrono {

namespace {
std::string statistic_name(double p) {
    if (p == 50.0) return "the median";
    if (p == 0.0) return "the minimum";
    if (p == 100.0) return "the maximum";
    char text[32];
    std::snprintf(text, sizeof text, "p%g", p);
    return text;
}

std::string significant(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}
}  // namespace

std::size_t samples_needed(double percentile, const NoiseLimits& limits) {
    if (!(percentile >= 0.0 && percentile <= 100.0))
        throw std::invalid_argument("gpuchrono::samples_needed: percentile must be in [0, 100], got " +
                                    std::to_string(percentile));
    const double tail = std::min(percentile, 100.0 - percentile);
    if (tail <= 0.0) return limits.min_samples;
    return std::max(limits.min_samples, static_cast<std::size_t>(std::ceil(100.0 / tail - 1e-9)));
}

std::optional<Finding> check_sample_count(std::size_t count, double percentile, const NoiseLimits& limits) {
    const std::size_t needed = samples_needed(percentile, limits);
    if (count >= needed) return std::nullopt;
    return make_finding(codes::too_few_samples,
                        std::to_string(count) + " sample(s) are too few for " + statistic_name(percentile) +
                            " and the spread around it: it needs at least " + std::to_string(needed),
                        {{"samples", static_cast<double>(count)}, {"samples_needed", static_cast<double>(needed)}},
                        "take at least " + std::to_string(needed) + " samples");
}

std::optional<Finding> check_variation(const Stats& s, const NoiseLimits& limits) {
    if (s.count < 2 || !(s.median.ns() > 0)) return std::nullopt;
    const double spread = s.mad / s.median;
    if (!std::isfinite(spread) || !(spread > limits.max_mad_over_median)) return std::nullopt;
    std::string message = "the " + std::to_string(s.count) + " samples spread by " + significant(spread * 100) +
                          "% of their median (median absolute deviation " + to_string(s.mad) + ", threshold " +
                          significant(limits.max_mad_over_median * 100) + "%): min " + to_string(s.min) +
                          ", median " + to_string(s.median) + ", max " + to_string(s.max);
    std::vector<Evidence> evidence{{"mad_over_median", spread}};
    if (std::isfinite(s.cv)) {
        message += ", cv " + significant(s.cv * 100) + "%";
        evidence.push_back({"cv", s.cv});
    }
    if (s.min.ns() > 0) evidence.push_back({"max_over_min", s.max / s.min});
    return make_finding(codes::high_variation, std::move(message), std::move(evidence));
}

}  // namespace gpuchrono
