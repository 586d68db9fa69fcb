// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_device_clock.hpp>
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/stats/views.hpp>

#include "core/fixed_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {
std::string block_text(const BlockSample& s) {
    return "block " + std::to_string(s.block) + " region " + std::to_string(s.region);
}

double median_of(std::vector<double> values) {
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    double m = values[mid];
    if (values.size() % 2 == 0) m = (m + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
    return m;
}
}  // namespace

std::optional<Finding> check_clock_monotonic(std::span<const BlockSample> samples) {
    std::size_t backwards = 0;
    const BlockSample* first = nullptr;
    for (const BlockSample& s : samples) {
        const bool ns_back = s.stop_ns < s.start_ns;
        const bool cycles_back = s.sm_start == s.sm_stop && s.stop_cycles < s.start_cycles;
        if (!ns_back && !cycles_back) continue;
        ++backwards;
        if (!first) first = &s;
    }
    if (backwards == 0) return std::nullopt;
    const bool ns_back = first->stop_ns < first->start_ns;
    return make_finding(codes::clock_went_backwards,
                        std::to_string(backwards) + " of " + std::to_string(samples.size()) +
                            " device-clock samples end before they start (first: " + block_text(*first) + ", " +
                            (ns_back ? "%globaltimer " + std::to_string(first->start_ns) + " -> " + std::to_string(first->stop_ns)
                                     : "clock64 " + std::to_string(first->start_cycles) + " -> " +
                                           std::to_string(first->stop_cycles) + " on SM " + std::to_string(first->sm_start)) +
                            "): these times are not usable",
                        {{"samples_backwards", static_cast<double>(backwards)}});
}

std::optional<Finding> check_cycle_span(const BlockSample& from, const BlockSample& to) {
    if (from.sm_start == to.sm_stop) return std::nullopt;
    return make_finding(codes::cycles_across_sms,
                        "cycles from " + block_text(from) + "'s start (SM " + std::to_string(from.sm_start) + ") to " +
                            block_text(to) + "'s stop (SM " + std::to_string(to.sm_stop) +
                            ") subtract clock64 values of two SMs, whose counters are not aligned",
                        {{"sm_from", static_cast<double>(from.sm_start)}, {"sm_to", static_cast<double>(to.sm_stop)}});
}

std::optional<Finding> check_waves(std::uint64_t blocks, std::uint64_t sm_count, std::uint64_t resident_blocks_per_sm) {
    if (blocks == 0 || sm_count == 0 || resident_blocks_per_sm == 0) return std::nullopt;
    const Waves shape = waves(blocks, sm_count, resident_blocks_per_sm);
    // Under one wave every block runs at once: the launch is small, not late.
    if (!shape.partial_last_wave || shape.full_waves == 0) return std::nullopt;
    const double slots = static_cast<double>(shape.full_waves + 1) * static_cast<double>(shape.blocks_per_wave);
    const double idle = slots - static_cast<double>(blocks);
    const double share = idle / slots;
    if (share <= idle_slot_share_threshold) return std::nullopt;
    return make_finding(
        codes::partial_last_wave,
        std::to_string(blocks) + " blocks on " + std::to_string(sm_count) + " SMs x " +
            std::to_string(resident_blocks_per_sm) + " resident = " + std::to_string(shape.blocks_per_wave) +
            " per wave: " + detail::fixed_text(shape.waves, 2) + " waves, the last holds " + std::to_string(shape.blocks_in_last_wave) +
            " blocks and " + detail::fixed_text(share * 100, 1) + "% of the launch's block slots stay idle",
        {{"waves", shape.waves},
         {"blocks_in_last_wave", static_cast<double>(shape.blocks_in_last_wave)},
         {"idle_slot_share", share}});
}

std::optional<Finding> check_block_start_spread(std::span<const BlockSample> region_samples, std::uint64_t slots) {
    if (region_samples.size() < 2 || slots == 0 || region_samples.size() > slots) return std::nullopt;
    std::uint64_t first_start = region_samples.front().start_ns, last_start = first_start;
    std::vector<double> lengths;
    lengths.reserve(region_samples.size());
    for (const BlockSample& s : region_samples) {
        first_start = std::min(first_start, s.start_ns);
        last_start = std::max(last_start, s.start_ns);
        lengths.push_back(s.stop_ns >= s.start_ns ? static_cast<double>(s.stop_ns - s.start_ns) : 0.0);
    }
    const double length = median_of(std::move(lengths));
    const double spread = static_cast<double>(last_start - first_start);
    if (!(length > 0) || spread <= start_spread_threshold * length) return std::nullopt;
    return make_finding(codes::block_start_spread,
                        "the " + std::to_string(region_samples.size()) + " blocks of region " +
                            std::to_string(region_samples.front().region) + " started over " +
                            to_string(Duration::from_ns(spread)) + ", against a median region length of " +
                            to_string(Duration::from_ns(length)) +
                            ", although the GPU could hold them all at once: they did not run side by side",
                        {{"start_spread_ns", spread}, {"median_region_ns", length}});
}

Findings check_block_samples(const BlockSamples& samples) {
    Findings out;
    if (auto f = check_clock_monotonic(samples.samples)) out.push_back(std::move(*f));
    const std::uint64_t blocks = samples.grid_blocks;
    const auto sm_count = static_cast<std::uint64_t>(std::max(samples.sm_count, 0));
    const auto resident = static_cast<std::uint64_t>(std::max(samples.resident_blocks_per_sm, 0));
    if (auto f = check_waves(blocks, sm_count, resident)) out.push_back(std::move(*f));
    // Any kernel that can launch holds at least one block per SM.
    const std::uint64_t slots = sm_count * std::max<std::uint64_t>(resident, 1);
    std::map<std::uint32_t, std::vector<BlockSample>> by_region;
    for (const BlockSample& s : samples.samples) by_region[s.region].push_back(s);
    // A launch of more blocks than the GPU holds runs in waves, and later waves start later by design.
    if (blocks <= slots)
        for (const auto& [region, region_samples] : by_region)
            if (auto f = check_block_start_spread(region_samples, slots)) out.push_back(std::move(*f));
    return out;
}

std::optional<Finding> check_sm_changed(const BlockSamples& s, std::string_view first_where, std::uint32_t sm_start,
                                    std::uint32_t sm_stop) {
    if (s.sm_changed == 0) return std::nullopt;
    return make_finding(
        codes::device_clock_sm_changed,
        std::to_string(s.sm_changed) + " of " + std::to_string(s.samples.size()) +
            " samples began and ended on different SMs (first: " + std::string(first_where) + ", SM " +
            std::to_string(sm_start) + " -> " + std::to_string(sm_stop) +
            "); their cycles are not used and their net_ns comes from %globaltimer",
        {{"samples_sm_changed", static_cast<double>(s.sm_changed)},
         {"samples", static_cast<double>(s.samples.size())}});
}

std::optional<Finding> check_records_dropped(const BlockSamples& s) {
    if (s.dropped == 0) return std::nullopt;
    return make_finding(
        codes::device_clock_records_dropped,
        std::to_string(s.dropped) + " record(s) dropped: the launch had " + std::to_string(s.grid_blocks) +
            " blocks and the probe holds " + std::to_string(s.capacity_blocks) +
            "; the kernel-level duration still covers them, their per-block samples are missing",
        {{"records_dropped", static_cast<double>(s.dropped)},
         {"grid_blocks", static_cast<double>(s.grid_blocks)},
         {"capacity_blocks", static_cast<double>(s.capacity_blocks)}},
        "set DeviceClockPolicy::Options::max_blocks to at least " + std::to_string(s.grid_blocks));
}

Findings check_timer_resolution(const BlockSamples& samples) {
    Findings out;
    const double step = samples.timer_step.ns();
    if (!(step > 0)) return out;
    const double floor_ns = min_timer_steps * step;
    std::size_t coarse = 0;
    for (const BlockSample& s : samples.samples)
        if (s.count != 0 && static_cast<double>(s.accumulated_ns) / static_cast<double>(s.count) < floor_ns) ++coarse;
    const std::string floor_text = detail::fixed_text(min_timer_steps, 0) + " %globaltimer steps (" + to_string(samples.timer_step) +
                                   " each, " + to_string(Duration::from_ns(floor_ns)) + ")";
    if (samples.kernel_duration().ns() < floor_ns)
        out.push_back(make_finding(codes::device_clock_kernel_below_timer_resolution,
                                   "the kernel-level duration " + to_string(samples.kernel_duration()) +
                                       " spans fewer than " + floor_text + ": it is quantised by up to " +
                                       detail::fixed_text(100.0 * step / std::max(samples.kernel_duration().ns(), step), 0) + "%",
                                   {{"kernel_ns", samples.kernel_duration().ns()}, {"timer_step_ns", step}}));
    if (coarse != 0)
        out.push_back(make_finding(codes::device_clock_regions_below_timer_resolution,
                                   std::to_string(coarse) + " of " + std::to_string(samples.samples.size()) +
                                       " samples last less than " + floor_text +
                                       " per interval: their ns times are coarse",
                                   {{"samples_coarse", static_cast<double>(coarse)},
                                    {"samples", static_cast<double>(samples.samples.size())},
                                    {"timer_step_ns", step}}));
    return out;
}

}  // namespace gpuchrono
