// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions about a series as a whole (docs/pitfalls-catalog.md #26): enough samples for the statistic asked, and a spread
// no larger than a stable GPU measurement shows. Host only: it reads a Stats (stats.hpp includes range-v3).
//
// Thresholds and where they come from:
//   min_samples 10      nvbench's --min-samples default: it never reports fewer.
//   percentile p        needs ceil(100 / min(p, 100 - p)) samples, or it is interpolated from the extreme
//                       sample (p99 of 20 samples lies between the two largest): p95 20, p99 100.
//   max_over_min 1.1    docs/pitfalls-catalog.md #26: one 114.5 us kernel, timed alone on an H100, spread 112.8..122.1 us
//                       (1.08) with a CV of 0.77%; beyond 1.1 something besides the kernel varied.
//   max_cv 5%           nvbench samples until the relative standard deviation is under 0.5% (--max-noise) and
//                       warns when it cannot get there; 10x that target is far outside anything a converged
//                       measurement shows (0.77% in docs/pitfalls-catalog.md #26).
#pragma once

#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/stats/stats.hpp>

#include <cstddef>
#include <optional>

namespace gpuchrono {

struct NoiseLimits {
    std::size_t min_samples = 10;
    double max_cv = 0.05;
    double max_over_min = 1.1;
};

// Samples a percentile p in [0, 100] needs (50 for the median; 0 and 100 are min and max): limits.min_samples,
// and ceil(100 / min(p, 100 - p)) for 0 < p < 100. Throws std::invalid_argument for p outside [0, 100].
std::size_t samples_needed(double percentile, const NoiseLimits& limits = {});

// Too few samples for the percentile asked (50: the median and the spread statistics beside it).
std::optional<Finding> check_sample_count(std::size_t count, double percentile, const NoiseLimits& limits = {});

// CV above limits.max_cv or max/min above limits.max_over_min (max/min only when min > 0). Needs 2 samples.
std::optional<Finding> check_variation(const Stats& stats, const NoiseLimits& limits = {});

}  // namespace gpuchrono
