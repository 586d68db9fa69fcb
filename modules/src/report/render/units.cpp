// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/report/render/units.hpp>

#include <gpuchrono/core/duration.hpp>

#include "core/fixed_text.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpuchrono::report {

TimeUnit time_unit_for(std::span<const double> ns_values) {
    std::vector<double> magnitudes;
    for (double v : ns_values)
        if (std::isfinite(v)) magnitudes.push_back(std::fabs(v));
    if (magnitudes.empty()) return unit_ns;
    auto mid = magnitudes.begin() + static_cast<std::ptrdiff_t>(magnitudes.size() / 2);
    std::nth_element(magnitudes.begin(), mid, magnitudes.end());
    const double typical = *mid;
    if (typical < 1e3) return unit_ns;
    if (typical < 1e6) return unit_us;
    if (typical < 1e9) return unit_ms;
    return unit_s;
}

int decimals_for(std::span<const double> values, const TimeUnit& unit, int max_decimals) {
    if (unit.ns_per_unit == 1.0) return 0;
    double smallest = INFINITY;
    for (double v : values)
        if (std::isfinite(v) && v != 0.0) smallest = std::min(smallest, std::fabs(v));
    if (!std::isfinite(smallest)) return std::min(1, max_decimals);
    // Three significant digits of the smallest value: 123 -> 0, 12.3 -> 1, 1.23 -> 2, 0.123 -> 3.
    const int digits_before_point = static_cast<int>(std::floor(std::log10(smallest))) + 1;
    return std::clamp(3 - digits_before_point, 0, max_decimals);
}

std::string format_number(double value, int significant) { return detail::number_text(value, significant); }

std::string format_fixed(double value, int decimals) {
    if (std::isnan(value)) return "-";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return detail::fixed_text(value, decimals);
}

std::string format_with_unit(double value, const std::string& unit) {
    if (std::isnan(value)) return "-";
    if (unit == "ns") return to_string(Duration::from_ns(value));
    if (unit.empty()) return format_number(value);
    if (unit == "x" || unit == "%") return format_number(value) + unit;
    return format_number(value) + " " + unit;
}

std::string format_bytes(double bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (std::fabs(bytes) >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        ++u;
    }
    const double a = std::fabs(bytes);
    return format_fixed(bytes, u == 0 || a >= 100 ? 0 : a >= 10 ? 1 : 2) + " " + units[u];
}

}  // namespace gpuchrono::report
