// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Benjamini and Hochberg (1995), "Controlling the false discovery rate", J. R. Stat. Soc. B 57: the step-up
// procedure. Of the changes reported across many series, the expected share that are noise stays at most q.
// Each change point is one hypothesis; m is the number of series tested (one look at the newest commit each, the
// gate's case) or the number of change points when they are more.
#include "history/change_detection.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono::history {

std::vector<SeriesChange> correct_for_many_series(std::vector<SeriesChange> candidates,
                                                  const DetectionOptions& options) {
    options.validate();
    std::vector<double> p_values;
    std::set<std::string> series;
    for (const SeriesChange& candidate : candidates) {
        if (candidate.change.new_baseline) {
            continue;
        }
        const double p = candidate.change.p_value;
        if (!(p >= 0 && p <= 1)) {
            throw std::invalid_argument("correct_for_many_series: series '" + candidate.series +
                                        "': p_value " + std::to_string(p) + " is not in [0, 1]");
        }
        p_values.push_back(p);
        series.insert(candidate.series);
    }
    const std::size_t tested = std::max({options.series_tested, series.size(), p_values.size()});
    // The largest k with p_(k) <= k q / m: every hypothesis with a p-value up to p_(k) is rejected.
    std::sort(p_values.begin(), p_values.end());
    double cutoff = -1;
    for (std::size_t k = p_values.size(); k >= 1; --k) {
        if (p_values[k - 1] <=
            static_cast<double>(k) * options.false_discovery_rate / static_cast<double>(tested)) {
            cutoff = p_values[k - 1];
            break;
        }
    }
    std::erase_if(candidates, [&](const SeriesChange& candidate) {
        return !candidate.change.new_baseline && candidate.change.p_value > cutoff;
    });
    return candidates;
}

}  // namespace gpuchrono::history
