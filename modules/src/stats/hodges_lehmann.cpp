// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "stats/hodges_lehmann.hpp"
#include "stats/rank_sum_test.hpp"
#include <gpuchrono/stats/stopping_rule.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

// Pairs with b_j - a_i <= t. Both ascending; for a fixed i the difference grows with j, and the j where it
// passes t only moves right as a_i grows, so one pass over each set suffices.
double count_at_most(std::span<const double> a, std::span<const double> b, double t) {
    double count = 0.0;
    std::size_t j = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {  // a ascending: the boundary in b only moves right
        while (j < b.size() && b[j] - a[i] <= t) ++j;
        count += static_cast<double>(j);
    }
    return count;
}

// The smallest difference above t (+inf when none is).
double smallest_above(std::span<const double> a, std::span<const double> b, double t) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t j = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        while (j < b.size() && b[j] - a[i] <= t) ++j;
        if (j < b.size()) best = std::min(best, b[j] - a[i]);
    }
    return best;
}

std::vector<double> sorted_checked(std::span<const double> v, const char* which) {
    if (v.empty()) throw std::invalid_argument(std::string("gpuchrono::hodges_lehmann: set ") + which + " is empty");
    std::vector<double> s(v.begin(), v.end());
    for (std::size_t i = 0; i < s.size(); ++i)
        if (std::isnan(s[i]))
            throw std::invalid_argument(std::string("gpuchrono::hodges_lehmann: set ") + which + ", sample " +
                                        std::to_string(i) + " is NaN");
    std::sort(s.begin(), s.end());
    return s;
}

}  // namespace

double kth_pairwise_difference(std::span<const double> a, std::span<const double> b, double k) {
    const double pairs = static_cast<double>(a.size()) * static_cast<double>(b.size());
    if (!(k >= 1.0 && k <= pairs))
        throw std::invalid_argument("gpuchrono::kth_pairwise_difference: k = " + std::to_string(k) +
                                    " is outside [1, " + std::to_string(pairs) + "]");
    // Invariant: the k-th difference lies in (low, high]. Each round tries the smallest difference above low
    // (done if it is the k-th), then halves the range.
    double low = -std::numeric_limits<double>::infinity();
    double high = b.back() - a.front();
    for (int round = 0; round < 4096; ++round) {
        const double candidate = smallest_above(a, b, low);
        if (count_at_most(a, b, candidate) >= k) return candidate;
        low = candidate;  // the k-th is above it
        const double mid = low + (high - low) / 2.0;
        if (mid <= low || mid >= high) continue;  // adjacent doubles: the next candidate settles it
        if (count_at_most(a, b, mid) >= k)
            high = mid;
        else
            low = mid;
    }
    throw std::logic_error("gpuchrono::kth_pairwise_difference did not converge");  // cannot happen: see invariant
}

ShiftEstimate hodges_lehmann(std::span<const double> a_in, std::span<const double> b_in, double confidence) {
    if (!(confidence > 0.0 && confidence < 1.0))
        throw std::invalid_argument("gpuchrono::hodges_lehmann: confidence must be in (0, 1), got " +
                                    std::to_string(confidence));
    const std::vector<double> a = sorted_checked(a_in, "a");
    const std::vector<double> b = sorted_checked(b_in, "b");
    const std::size_t m = a.size(), n = b.size();
    const double pairs = static_cast<double>(m) * static_cast<double>(n);

    ShiftEstimate s;
    const double middle = (pairs + 1.0) / 2.0;  // the median's rank; x.5 averages the two around it
    if (std::floor(middle) == middle)
        s.estimate = kth_pairwise_difference(a, b, middle);
    else
        s.estimate = std::midpoint(kth_pairwise_difference(a, b, std::floor(middle)),
                                   kth_pairwise_difference(a, b, std::ceil(middle)));

    // C: the largest rank with P(U <= C - 1) <= alpha / 2 under no shift.
    const double half_alpha = (1.0 - confidence) / 2.0;
    std::vector<double> merged(a);
    merged.insert(merged.end(), b.begin(), b.end());
    std::sort(merged.begin(), merged.end());
    double tie_term = 0.0;
    for (std::size_t i = 0; i < merged.size();) {
        std::size_t j = i;
        while (j < merged.size() && merged[j] == merged[i]) ++j;
        const double run = static_cast<double>(j - i);
        tie_term += run * run * run - run;
        i = j;
    }
    double c = 0.0;
    if (tie_term == 0.0 && m <= exact_rank_test_limit && n <= exact_rank_test_limit) {
        const std::vector<double> counts = u_counts(m, n);
        const double all_orders = std::accumulate(counts.begin(), counts.end(), 0.0);
        double below = 0.0;  // P(U <= c - 1) * all_orders
        while (c < pairs / 2.0 && (below + counts[static_cast<std::size_t>(c)]) / all_orders <= half_alpha) {
            below += counts[static_cast<std::size_t>(c)];
            c += 1.0;
        }
        s.coverage = 1.0 - 2.0 * below / all_orders;
    } else {
        const double dN = static_cast<double>(m + n);
        const double variance = pairs / 12.0 * ((dN + 1.0) - tie_term / (dN * (dN - 1.0)));
        const double sd = std::sqrt(std::max(variance, 0.0));
        const double z = normal_upper_quantile(half_alpha);
        c = std::clamp(std::floor(pairs / 2.0 + 0.5 - z * sd), 0.0, std::floor((pairs + 1.0) / 2.0));
        s.coverage = sd > 0.0 ? 1.0 - std::erfc((pairs / 2.0 - (c - 0.5)) / sd / std::sqrt(2.0)) : 1.0;
    }
    s.reaches_confidence = c >= 1.0;
    if (s.reaches_confidence) {
        s.low = kth_pairwise_difference(a, b, c);
        s.high = kth_pairwise_difference(a, b, pairs + 1.0 - c);
    } else {
        s.low = -std::numeric_limits<double>::infinity();
        s.high = std::numeric_limits<double>::infinity();
    }
    return s;
}

}  // namespace gpuchrono
