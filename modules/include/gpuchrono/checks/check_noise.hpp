// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions about a series as a whole (docs/pitfalls-catalog.md #26): enough samples for the statistic asked, and a spread
// no larger than a stable GPU measurement shows. Host only: it reads a Stats (stats.hpp includes range-v3).
//
// Thresholds and where they come from:
//   min_samples 10      nvbench's --min-samples default: it never reports fewer.
//   percentile p        needs ceil(100 / min(p, 100 - p)) samples, or it is interpolated from the extreme
//                       sample (p99 of 20 samples lies between the two largest): p95 20, p99 100.
//   max_mad_over_median 3%   the median absolute deviation over the median: a spread that one outlier, or a
//                       hundred of 200, cannot move, and that does not grow with the number of samples as max/min
//                       does. On 320 A/A series of an H100 (8 workloads from 2 us spins to a 64 MiB copy, 10-215
//                       samples each, measure() to a 1% CI, one process each) it reached 1.7% at most, where
//                       max/min passed 1.1 in 17 of them (5.3%) and CV reached 2.4%; 3% leaves that margin and
//                       warns on none of them (docs/pitfalls.md, "high-variation").
#pragma once

#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/stats/stats.hpp>

#include <cstddef>
#include <optional>

namespace gpuchrono {

struct NoiseLimits {
    std::size_t min_samples = 10;
    double max_mad_over_median = 0.03;
};

// Samples a percentile p in [0, 100] needs (50 for the median; 0 and 100 are min and max): limits.min_samples,
// and ceil(100 / min(p, 100 - p)) for 0 < p < 100. Throws std::invalid_argument for p outside [0, 100].
std::size_t samples_needed(double percentile, const NoiseLimits& limits = {});

// Too few samples for the percentile asked (50: the median and the spread statistics beside it).
std::optional<Finding> check_sample_count(std::size_t count, double percentile, const NoiseLimits& limits = {});

// The median absolute deviation above limits.max_mad_over_median of the median (a positive median only). Needs 2
// samples. The message carries CV and max/min beside it, for the reader: they do not decide.
std::optional<Finding> check_variation(const Stats& stats, const NoiseLimits& limits = {});

}  // namespace gpuchrono
