// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "stats/rank_sum_test.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpuchrono {

namespace {

void require_samples(std::span<const double> v, const char* which) {
    if (v.empty()) throw std::invalid_argument(std::string("gpuchrono::mann_whitney: set ") + which + " is empty");
    for (std::size_t i = 0; i < v.size(); ++i)
        if (std::isnan(v[i]))
            throw std::invalid_argument(std::string("gpuchrono::mann_whitney: set ") + which + ", sample " +
                                        std::to_string(i) + " is NaN");
}

}  // namespace

std::vector<double> u_counts(std::size_t m, std::size_t n) {
    // f(i, j, u) = f(i, j - 1, u - i) + f(i - 1, j, u): the largest of i + j values is either one of b (above
    // all i of a: i pairs) or one of a (above none of b). Row by row over i, each a vector over j of vectors over u.
    std::vector<std::vector<double>> previous(n + 1), current(n + 1);
    for (std::size_t j = 0; j <= n; ++j) previous[j] = {1.0};  // i = 0: one arrangement, U = 0
    for (std::size_t i = 1; i <= m; ++i) {
        current[0] = {1.0};
        for (std::size_t j = 1; j <= n; ++j) {
            std::vector<double> f(i * j + 1, 0.0);
            const std::vector<double>& b_last = current[j - 1];  // sizes i (j - 1) + 1
            for (std::size_t u = 0; u < b_last.size(); ++u) f[u + i] += b_last[u];
            const std::vector<double>& a_last = previous[j];    // sizes (i - 1) j + 1
            for (std::size_t u = 0; u < a_last.size(); ++u) f[u] += a_last[u];
            current[j] = std::move(f);
        }
        std::swap(previous, current);
    }
    return previous[n];
}

RankTest mann_whitney(std::span<const double> a, std::span<const double> b) {
    require_samples(a, "a");
    require_samples(b, "b");
    const std::size_t m = a.size(), n = b.size(), total = m + n;
    std::vector<std::pair<double, bool>> all;  // (value, from b)
    all.reserve(total);
    for (double v : a) all.emplace_back(v, false);
    for (double v : b) all.emplace_back(v, true);
    std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });

    double rank_sum_b = 0.0, tie_term = 0.0;
    bool ties = false;
    for (std::size_t i = 0; i < total;) {
        std::size_t j = i;
        while (j < total && all[j].first == all[i].first) ++j;
        const double run = static_cast<double>(j - i);
        const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
        for (std::size_t k = i; k < j; ++k)
            if (all[k].second) rank_sum_b += mid_rank;
        if (run > 1) {
            ties = true;
            tie_term += run * run * run - run;
        }
        i = j;
    }
    const double dm = static_cast<double>(m), dn = static_cast<double>(n), dN = static_cast<double>(total);
    RankTest t;
    t.ties = ties;
    t.u = rank_sum_b - dn * (dn + 1.0) / 2.0;

    if (!ties && m <= exact_rank_test_limit && n <= exact_rank_test_limit) {
        const std::vector<double> counts = u_counts(m, n);
        const double all_orders = std::accumulate(counts.begin(), counts.end(), 0.0);
        const auto u = static_cast<std::size_t>(std::llround(t.u));
        const double at_most = std::accumulate(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(u) + 1, 0.0);
        const double at_least = std::accumulate(counts.begin() + static_cast<std::ptrdiff_t>(u), counts.end(), 0.0);
        t.exact = true;
        t.p_value = std::min(1.0, 2.0 * std::min(at_most, at_least) / all_orders);
        return t;
    }
    const double mean = dm * dn / 2.0;
    const double variance = dm * dn / 12.0 * ((dN + 1.0) - (total > 1 ? tie_term / (dN * (dN - 1.0)) : 0.0));
    if (!(variance > 0.0)) {  // every value equal: nothing tells the sets apart
        t.p_value = 1.0;
        return t;
    }
    const double distance = std::max(0.0, std::fabs(t.u - mean) - 0.5);  // continuity correction
    t.z = std::copysign(distance / std::sqrt(variance), t.u - mean);
    t.p_value = std::min(1.0, std::erfc(std::fabs(t.z) / std::sqrt(2.0)));
    return t;
}

}  // namespace gpuchrono
