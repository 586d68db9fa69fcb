// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Hodges-Lehmann estimate of the shift between two sets of samples, with its distribution-free
// confidence interval: the median of all m n differences b_j - a_i, bounded by the differences of ranks
// C and m n + 1 - C, where C comes from the null distribution of the Mann-Whitney U (exact for small untied
// sets, the tie-corrected normal approximation otherwise). It is the estimate that goes with the rank test:
// the interval excludes 0 exactly when the test rejects at the same level (up to the continuity correction).
//
// compare() applies it to log durations, so the shift is a log ratio and exp(shift) - 1 a relative change.
// All m n differences are never formed: the k-th smallest is selected in O((m + n) log) by bisection over the
// value with two-pointer counts, so 10^5 samples against 10^5 cost milliseconds, not 10^10 differences.
#pragma once

#include <cstddef>
#include <span>

namespace gpuchrono {

struct ShiftEstimate {
    double estimate = 0.0;  // median of b_j - a_i
    double low = 0.0;       // -inf / +inf when the sets are too small to reach the confidence
    double high = 0.0;
    double coverage = 0.0;  // what the chosen ranks reach
    bool reaches_confidence = false;  // false: too few samples for any pair of ranks; low/high are then -inf/+inf
};

// Throws std::invalid_argument when a set is empty, holds a NaN, or confidence is outside (0, 1).
ShiftEstimate hodges_lehmann(std::span<const double> a, std::span<const double> b, double confidence = 0.95);

// The k-th smallest (1-based) of the differences b_j - a_i of two ASCENDING sets; k in [1, m n].
double kth_pairwise_difference(std::span<const double> sorted_a, std::span<const double> sorted_b, double k);

}  // namespace gpuchrono
