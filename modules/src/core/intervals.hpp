// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unions of [start, end) intervals in integer ns, for busy times (device_busy.cpp) and the distributed
// merge's overlap figures (straggler_analysis.cpp). Internal.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpuchrono::detail {

using Interval = std::pair<std::int64_t, std::int64_t>;

// Sorted, merged intervals.
inline std::vector<Interval> union_of(std::vector<Interval> v) {
    std::sort(v.begin(), v.end());
    std::vector<Interval> out;
    for (const Interval& i : v) {
        if (!out.empty() && i.first <= out.back().second) out.back().second = std::max(out.back().second, i.second);
        else out.push_back(i);
    }
    return out;
}

inline std::int64_t length(const std::vector<Interval>& u) {
    std::int64_t sum = 0;
    for (const auto& [a, b] : u) sum += b - a;
    return sum;
}

// Both arguments sorted and merged (union_of).
inline std::int64_t intersection_length(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::int64_t sum = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const std::int64_t lo = std::max(a[i].first, b[j].first);
        const std::int64_t hi = std::min(a[i].second, b[j].second);
        if (hi > lo) sum += hi - lo;
        if (a[i].second < b[j].second) ++i;
        else ++j;
    }
    return sum;
}

}  // namespace gpuchrono::detail
