// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/distributed/clock_alignment.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gpuchrono::distributed {

const char* to_string(JobClock c) noexcept {
    return c == JobClock::reference_steady ? "reference-steady" : "system";
}

LinearClockMap fit_clock_map(std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1, double error_ns) {
    LinearClockMap m;
    m.x0 = x0;
    m.y0 = y0;
    m.error_ns = error_ns;
    if (x1 != x0) m.rate = static_cast<double>(y1 - y0) / static_cast<double>(x1 - x0);
    return m;
}

RankClockMaps clock_maps_for(const RankSection& rank, JobClock clock) {
    if (rank.anchors.empty())
        throw std::invalid_argument("rank " + std::to_string(rank.identity.rank) + " has no clock anchor: its times cannot be placed");
    RankClockMaps maps;
    const ClockAnchor& first = rank.anchors.front();
    const ClockAnchor& last = rank.anchors.back();
    if (clock == JobClock::reference_steady) {
        if (rank.reference_offsets.empty())
            throw std::invalid_argument("rank " + std::to_string(rank.identity.rank) + " has no reference offset");
        auto offsets = rank.reference_offsets;
        std::sort(offsets.begin(), offsets.end(), [](const auto& a, const auto& b) { return a.at_steady_ns < b.at_steady_ns; });
        const ReferenceOffset& a = offsets.front();
        const ReferenceOffset& b = offsets.back();
        const double error = static_cast<double>(std::max(a.error_ns, b.error_ns));
        maps.steady_to_job = fit_clock_map(a.at_steady_ns, a.at_steady_ns + a.offset_ns, b.at_steady_ns, b.at_steady_ns + b.offset_ns, error);
        maps.note = offsets.size() > 1 ? "offset and drift from " + std::to_string(offsets.size()) + " ping-pong estimates to rank " +
                                             std::to_string(a.reference_rank)
                                       : "offset from one ping-pong estimate to rank " + std::to_string(a.reference_rank) + " (no drift correction)";
    } else {
        const double error = static_cast<double>(std::max(first.read_width_ns, last.read_width_ns)) / 2.0;
        maps.steady_to_job = fit_clock_map(first.steady_ns, first.system_ns, last.steady_ns, last.system_ns, error);
        maps.note = rank.anchors.size() > 1 ? "steady to system clock through the start and end anchors"
                                            : "steady to system clock through one anchor (no drift correction)";
    }
    // CUPTI's clock through the first and last anchors that read it: a report started by new_report() before
    // CUPTI was loaded has it in its end anchor only (one pair: offset, no drift correction).
    const auto with_cupti = [](const ClockAnchor& a) { return a.cupti_ns.has_value(); };
    const auto c0 = std::find_if(rank.anchors.begin(), rank.anchors.end(), with_cupti);
    const auto c1 = std::find_if(rank.anchors.rbegin(), rank.anchors.rend(), with_cupti);
    if (c0 != rank.anchors.end())
        maps.cupti_to_steady = fit_clock_map(*c0->cupti_ns, c0->steady_ns, *c1->cupti_ns, c1->steady_ns,
                                             static_cast<double>(std::max(c0->read_width_ns, c1->read_width_ns)) / 2.0);
    return maps;
}

}  // namespace gpuchrono::distributed
