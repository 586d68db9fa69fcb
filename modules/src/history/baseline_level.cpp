// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "baseline_level.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace gpuchrono::history::detail {
namespace {

double median_of(std::vector<double>& values) {
    const std::size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
    const double upper = values[middle];
    if (values.size() % 2 == 1) {
        return upper;
    }
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
    return 0.5 * (lower + upper);
}

}  // namespace

double spread_from_differences(std::span<const double> absolute_differences, double min_spread) {
    if (absolute_differences.empty()) {
        throw std::invalid_argument("spread_from_differences: a spread needs at least one difference");
    }
    // For normal runs the difference of two has standard deviation sqrt(2) spread, so its mean absolute value is
    // 2 spread / sqrt(pi) and its root mean square sqrt(2) spread; the larger of the two is taken. Not the median
    // absolute difference: medians sit on a timestamp grain (a 5 us spin moves in 16 ns steps), and there it jumps
    // to a whole grain and overstates the spread by a third; where nearly every difference is 0 (a 2 us spin is
    // 2848 ns, once 2880) it says 0. The root mean square keeps the rare grain steps a history did show: a run one
    // grain off is then a few spreads off, not many.
    double absolute_sum = 0;
    double square_sum = 0;
    for (const double difference : absolute_differences) {
        absolute_sum += difference;
        square_sum += difference * difference;
    }
    const auto count = static_cast<double>(absolute_differences.size());
    const double from_mean = absolute_sum / count * std::sqrt(std::numbers::pi) / 2.0;
    const double from_squares = std::sqrt(square_sum / count / 2.0);
    return std::max({from_mean, from_squares, min_spread});
}

BaselineLevel level_with_spread(std::span<const double> log_medians, double spread, std::size_t differences) {
    if (log_medians.empty()) {
        throw std::invalid_argument("level_with_spread: a level needs at least one run");
    }
    // The mean of the runs with each residual from their median bounded, as the tests bound the runs they judge:
    // nearly as precise as the mean for normal runs, and one wild run moves it little.
    std::vector<double> values(log_medians.begin(), log_medians.end());
    const double centre = median_of(values);
    const double bound = residual_bound_spreads * spread;
    double residual_sum = 0;
    for (const double value : log_medians) {
        residual_sum += std::clamp(value - centre, -bound, bound);
    }
    const auto count = static_cast<double>(log_medians.size());
    return {centre + residual_sum / count, spread * spread / count, spread, differences};
}

BaselineLevel baseline_level(std::span<const double> log_medians, double min_spread) {
    if (log_medians.size() < 2) {
        throw std::invalid_argument("baseline_level: a baseline needs at least 2 runs");
    }
    std::vector<double> differences;
    differences.reserve(log_medians.size() - 1);
    for (std::size_t i = 1; i < log_medians.size(); ++i) {
        differences.push_back(std::abs(log_medians[i] - log_medians[i - 1]));
    }
    return level_with_spread(log_medians, spread_from_differences(differences, min_spread), differences.size());
}

}  // namespace gpuchrono::history::detail
