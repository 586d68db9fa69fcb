// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// When measure() has taken enough samples: a distribution-free confidence interval of the median, from
// order statistics, and the decision to stop. Pure functions over sample values, so CPU tests can feed them
// synthetic samples with known answers.
//
// Why this interval: kernel times are skewed with a long right tail (docs/pitfalls-catalog.md #26), so an interval built
// on the mean and a normal approximation says little about the median people read. For any continuous
// distribution, the number of samples below the true median is Binomial(n, 1/2); so the order statistics
// x_(l) and x_(n+1-l) (1-based) cover the median with probability 1 - 2 P(Bin(n, 1/2) <= l - 1), whatever the
// distribution (Hoefler & Belli, SC'15, section 3.2). l is the largest rank keeping that at or above the
// requested confidence. Ties (times that step by 32 ns) only make the interval more conservative.
// Below 6 samples no pair of order statistics reaches 95%: the interval is then [min, max] with the coverage
// it has, and it never counts as converged.
#pragma once

#include <gpuchrono/core/duration.hpp>

#include <cstddef>
#include <span>
#include <string_view>

namespace gpuchrono {

// P(Bin(n, 1/2) <= k): exact (log-space terms) up to n = 2000, a normal approximation with continuity
// correction above (its error there is below 1e-3 of the tail probability that matters here).
double binomial_half_cdf(std::size_t n, std::size_t k);

// The z with P(Z > z) = upper_tail for a standard normal Z (upper_tail in (0, 1)); std::invalid_argument
// otherwise.
double normal_upper_quantile(double upper_tail);

// The 1-based ranks (lower, upper = n + 1 - lower) of the order statistics bounding the median at
// `confidence`, and the coverage they reach. n == 0: ranks 0 and coverage 0.
struct MedianRanks {
    std::size_t lower = 0;
    std::size_t upper = 0;
    double coverage = 0.0;
    bool reaches_confidence = false;  // false below 6 samples at 95%: [min, max] is all there is
};
MedianRanks median_ranks(std::size_t n, double confidence);

// The interval itself, over samples in any order (they are copied; NaN is refused with
// std::invalid_argument). For n == 0 every value is NaN.
struct MedianInterval {
    double median_ns = 0.0;  // the R-7 median, as Stats reports it
    double low_ns = 0.0;
    double high_ns = 0.0;
    std::size_t samples = 0;
    double coverage = 0.0;
    bool reaches_confidence = false;

    // (high - low) / |median|: 0 when all samples are equal (a median of 0 included), +inf when the median
    // is 0 and the interval is not, NaN without samples.
    double relative_width() const noexcept;
};
MedianInterval median_interval(std::span<const double> samples_ns, double confidence = 0.95);

// What measure() stops on. Checked by validate(): each field is named in the std::invalid_argument.
struct StoppingRule {
    double target_relative_width = 0.01;  // of the interval, relative to the median
    double confidence = 0.95;
    std::size_t min_samples = 10;          // nvbench's --min-samples
    std::size_t max_samples = 100000;
    Duration min_time = Duration{};
    Duration max_time = Duration::from_s(2);

    void validate() const;
};

enum class StopReason { running, converged, max_samples, max_time };

// "running", "converged", "max-samples", "max-time".
const char* to_string(StopReason r) noexcept;

struct StopDecision {
    bool stop = false;
    StopReason reason = StopReason::running;
    bool converged = false;  // the interval reaches the confidence and is narrow enough
    MedianInterval interval;
};

// Stop when (at least min_samples and min_time) the interval is narrow enough; otherwise when max_samples
// or max_time is reached. `elapsed` is the time spent sampling so far.
StopDecision decide(const StoppingRule& rule, std::span<const double> samples_ns, Duration elapsed);

}  // namespace gpuchrono
