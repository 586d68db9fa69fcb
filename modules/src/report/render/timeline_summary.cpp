// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/timeline_summary.hpp"

#include <gpuchrono/stats/views.hpp>

#include <range/v3/algorithm/max_element.hpp>
#include <range/v3/range/conversion.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace gpuchrono::report {

std::uint64_t first_start_ns(const Timeline& t) noexcept {
    if (t.samples.empty()) return 0;
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    for (const BlockSample& s : t.samples) first = std::min(first, s.start_ns);
    return first;
}

std::vector<RegionSummary> summarize_timeline(const Timeline& t) {
    std::set<std::uint32_t> ids;
    for (const BlockSample& s : t.samples) ids.insert(s.region);

    std::vector<RegionSummary> out;
    for (const std::uint32_t id : ids) {
        const std::vector<BlockSample> samples = t.samples | views::for_region(id) | ranges::to<std::vector>();
        RegionSummary r;
        r.region = id;
        r.name = region_name(t, id);
        r.samples = samples.size();
        r.durations = samples | views::block_durations | summarize;
        r.per_iteration = samples | views::iteration_durations | summarize;
        std::vector<Duration> net;
        for (const BlockSample& s : samples)
            if (s.net_ns != 0.0) net.push_back(Duration::from_ns(s.net_ns));
        // All zero means the records carry no net time (hand-made or older files), not that it was 0.
        if (!net.empty()) {
            net.clear();
            for (const BlockSample& s : samples) net.push_back(Duration::from_ns(s.net_ns));
        }
        r.net = summarize(net);
        r.makespan = samples | makespan;
        const std::vector<Duration> skew = samples | views::launch_skew | ranges::to<std::vector>();
        if (!skew.empty()) r.launch_spread = *ranges::max_element(skew);
        r.sms = (samples | group_by_sm).size();

        std::set<std::uint32_t> blocks;
        std::vector<double> cycles;
        for (const BlockSample& s : samples) {
            blocks.insert(s.block);
            r.iterations += s.count;
            if (s.sm_start != s.sm_stop)
                ++r.sm_changed;
            else
                cycles.push_back(sample_cycles(s));
        }
        r.blocks = blocks.size();
        if (!cycles.empty()) {
            std::sort(cycles.begin(), cycles.end());
            const std::size_t n = cycles.size();
            r.cycles_min = cycles.front();
            r.cycles_max = cycles.back();
            r.cycles_median = n % 2 ? cycles[n / 2] : (cycles[n / 2 - 1] + cycles[n / 2]) / 2.0;
            double sum = 0;
            for (double c : cycles) sum += c;
            r.cycles_mean = sum / static_cast<double>(n);
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace gpuchrono::report
