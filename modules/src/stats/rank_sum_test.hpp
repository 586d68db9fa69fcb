// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Mann-Whitney U test (Wilcoxon rank-sum): does one set of samples tend to be larger than another?
// Distribution-free, so the long right tail of kernel times (docs/pitfalls-catalog.md #26) does not break it, and the test
// Google Benchmark's compare.py uses. Pure functions over sample values (any order, any unit).
//
// u counts the pairs (a_i, b_j) with b_j > a_i, plus half the tied pairs: u > m n / 2 says b tends to be larger.
// The p-value is two-sided. Exact (the distribution of U by counting arrangements) when there are no ties and
// both sets have at most exact_rank_test_limit samples; otherwise the normal approximation with the tie
// correction of the variance and a continuity correction, which is accurate from about 20 samples on.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace gpuchrono {

inline constexpr std::size_t exact_rank_test_limit = 20;

struct RankTest {
    double u = 0.0;
    double z = 0.0;        // the normal score of u (0 with the exact test)
    double p_value = 1.0;  // two-sided
    bool exact = false;
    bool ties = false;
};

// Throws std::invalid_argument when a set is empty or holds a NaN.
RankTest mann_whitney(std::span<const double> a, std::span<const double> b);

// The null distribution of U for sets of m and n untied samples: counts[u] = the number of the C(m+n, m)
// orderings giving U = u, for u = 0 .. m n (as doubles: exact up to m + n = 56). Used for exact p-values and
// the exact Hodges-Lehmann interval.
std::vector<double> u_counts(std::size_t m, std::size_t n);

}  // namespace gpuchrono
