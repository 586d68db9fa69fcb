// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_device_clock.hpp>
#include <gpuchrono/policies/device_clock/decode.hpp>

#include "core/fixed_text.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpuchrono::device_clock {

namespace {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string list_names(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(i) + " " + quoted(names[i]);
    }
    return out;
}

std::string where(const ProbeRecord& r, const std::vector<std::string>& names) {
    return "block " + std::to_string(r.block) + ", region " + quoted(names[r.region]);
}

double median(std::vector<double> v) {
    const std::size_t n = v.size();
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (n % 2 == 1) return *mid;
    const double upper = *mid;
    const double lower = *std::max_element(v.begin(), mid);
    return lower + (upper - lower) / 2;
}

// The kernel-side refusals, checked before any sample is built. Empty when the records can be used.
std::string refusal(const ProbeHeader& header, std::span<const ProbeRecord> records,
                    const std::vector<std::string>& names) {
    const std::size_t regions = names.size();
    if (header.invalid_region_uses != 0)
        return "the kernel used region id " + std::to_string(header.max_invalid_region) + " (" +
               std::to_string(header.invalid_region_uses) + " record(s) refused), but this timer names only " +
               std::to_string(regions) + " region(s): " + list_names(names) +
               ". Region ids index DeviceClockPolicy::Options::regions";

    std::size_t rewritten = 0;
    const ProbeRecord* first_rewritten = nullptr;
    std::vector<std::uint64_t> grid_ids;
    for (std::size_t slot = 0; slot < records.size(); ++slot) {
        const ProbeRecord& r = records[slot];
        if (r.writes == 0) continue;
        if (r.block != slot / regions || r.region != slot % regions)
            return "probe slot " + std::to_string(slot) + " holds block " + std::to_string(r.block) + ", region " +
                   std::to_string(r.region) + " instead of block " + std::to_string(slot / regions) + ", region " +
                   std::to_string(slot % regions) + ": the probe memory was overwritten by something else";
        if (r.count == 0 || r.stop_ns < r.start_ns || r.accumulated_ns > r.stop_ns - r.start_ns)
            return "the record of block " + std::to_string(r.block) + ", region " + quoted(names[r.region]) +
                   " is inconsistent (count " + std::to_string(r.count) + ", start " + std::to_string(r.start_ns) +
                   " ns, stop " + std::to_string(r.stop_ns) + " ns, accumulated " + std::to_string(r.accumulated_ns) +
                   " ns): the probe memory was overwritten by something else";
        if (r.writes > 1) {
            if (!first_rewritten) first_rewritten = &r;
            ++rewritten;
        }
        if (std::find(grid_ids.begin(), grid_ids.end(), r.grid_id) == grid_ids.end()) grid_ids.push_back(r.grid_id);
    }
    if (rewritten != 0)
        return std::to_string(rewritten) + " record(s) were written more than once (first: " +
               where(*first_rewritten, names) + ", " + std::to_string(first_rewritten->writes) +
               " times): the probe was passed to more than one launch, or a region was constructed more than once "
               "in a block. One DeviceClockPolicy scope records one launch: use one timer per launch, and time "
               "repeated code with one gpuchrono::ProbeLoop constructed outside the loop";
    if (grid_ids.size() > 1)
        return "the records come from " + std::to_string(grid_ids.size()) +
               " different launches (%gridid " + std::to_string(grid_ids[0]) + " and " + std::to_string(grid_ids[1]) +
               "): the probe was passed to more than one launch. One DeviceClockPolicy scope records one "
               "launch: use one timer per launch";
    return {};
}

}  // namespace

Decoded decode(const ProbeHeader& header, std::span<const ProbeRecord> records,
               const std::vector<std::string>& region_names, std::uint32_t capacity_blocks) {
    if (region_names.empty()) throw std::invalid_argument("gpuchrono::device_clock::decode: no region names");
    if (records.size() != static_cast<std::size_t>(capacity_blocks) * region_names.size())
        throw std::invalid_argument("gpuchrono::device_clock::decode: " + std::to_string(records.size()) +
                                    " record slots for " + std::to_string(capacity_blocks) + " blocks x " +
                                    std::to_string(region_names.size()) + " regions");
    Decoded out;
    out.error = refusal(header, records, region_names);
    if (!out.ok()) return out;

    BlockSamples& s = out.samples;
    s.region_names = region_names;
    s.capacity_blocks = capacity_blocks;
    s.grid_blocks = header.grid_blocks;
    s.block_threads = header.block_threads;
    s.dropped = header.dropped;

    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t last = 0;
    const ProbeRecord* first_moved = nullptr;
    for (const ProbeRecord& r : records) {
        if (r.writes == 0) continue;
        BlockSample b;
        b.block = r.block;
        b.region = r.region;
        b.sm_start = r.sm_start;
        b.sm_stop = r.sm_stop;
        b.start_ns = r.start_ns;
        b.stop_ns = r.stop_ns;
        b.start_cycles = r.start_cycles;
        b.stop_cycles = r.stop_cycles;
        b.count = r.count;
        b.accumulated_ns = r.accumulated_ns;
        b.accumulating = (r.flags & probe_flag_accumulating) != 0;
        if (b.accumulating) {
            // Per-iteration differences, each on one SM; an iteration that changed SM is not in the sum.
            b.cycles_valid = (r.flags & probe_flag_sm_changed) == 0;
            b.accumulated_cycles = r.accumulated_cycles;
        } else {
            // Recomputed here rather than trusted: the one subtraction that must never cross SMs.
            b.cycles_valid = r.sm_start == r.sm_stop && r.stop_cycles >= r.start_cycles;
            b.accumulated_cycles = b.cycles_valid ? r.stop_cycles - r.start_cycles : 0;
        }
        if (r.sm_start != r.sm_stop || (r.flags & probe_flag_sm_changed) != 0) {
            ++s.sm_changed;
            if (!first_moved) first_moved = &r;
        }
        first = std::min(first, r.start_ns);
        last = std::max(last, r.stop_ns);
        s.grid_id = r.grid_id;
        s.samples.push_back(b);
    }
    if (header.dropped != 0 && header.dropped_first_start_inverted != 0) {
        first = std::min<std::uint64_t>(first, ~header.dropped_first_start_inverted);
        last = std::max<std::uint64_t>(last, header.dropped_last_stop);
    }
    if (s.samples.empty() && header.dropped == 0) {
        out.error =
            "no region was recorded: pass t.policy().probe() to a kernel launched on the timer's stream between "
            "start and stop, and construct a gpuchrono::ProbeRegion or ProbeLoop in it (every thread of the block)";
        return out;
    }
    if (first > last) first = last = 0;  // only dropped records, and none carried a time: no span
    s.first_start_ns = first;
    s.last_stop_ns = last;

    if (s.sm_changed != 0)
        if (auto f = check_sm_changed(s, where(*first_moved, region_names), first_moved->sm_start, first_moved->sm_stop))
            out.findings.push_back(std::move(*f));
    if (auto f = check_records_dropped(s)) out.findings.push_back(std::move(*f));
    return out;
}

std::optional<SmClock> clock_from_samples(std::span<const BlockSample> samples, Duration timer_step) {
    if (!(timer_step.ns() > 0))
        throw std::invalid_argument("gpuchrono::device_clock::clock_from_samples: timer step must be > 0, got " +
                                    to_string(timer_step));
    struct Read {
        std::uint64_t ns, cycles;
    };
    struct Extent {
        Read earliest, latest;
    };
    std::map<std::uint32_t, Extent> by_sm;
    auto add = [&](std::uint32_t sm, Read r) {
        auto [it, fresh] = by_sm.try_emplace(sm, Extent{r, r});
        if (fresh) return;
        if (r.ns < it->second.earliest.ns) it->second.earliest = r;
        if (r.ns > it->second.latest.ns) it->second.latest = r;
    };
    for (const BlockSample& s : samples) {
        add(s.sm_start, {s.start_ns, s.start_cycles});
        add(s.sm_stop, {s.stop_ns, s.stop_cycles});
    }
    SmClock c;
    c.source = ClockSource::kernel_samples;
    std::uint64_t ns = 0;
    for (const auto& [sm, e] : by_sm) {
        if (e.latest.ns <= e.earliest.ns || e.latest.cycles <= e.earliest.cycles) continue;
        ns += e.latest.ns - e.earliest.ns;
        c.cycles += e.latest.cycles - e.earliest.cycles;
        ++c.sms;
    }
    if (ns == 0) return std::nullopt;
    c.baseline = Duration::from_ns(static_cast<double>(ns));
    c.hz = static_cast<double>(c.cycles) / static_cast<double>(ns) * 1e9;
    c.uncertainty = c.sms * timer_step.ns() / static_cast<double>(ns);
    return c;
}

std::optional<SmClock> clock_from_span(const ClockSpan& span, Duration timer_step, ClockSource source) {
    if (!(timer_step.ns() > 0))
        throw std::invalid_argument("gpuchrono::device_clock::clock_from_span: timer step must be > 0, got " +
                                    to_string(timer_step));
    if (span.sm_start != span.sm_stop || span.stop_ns <= span.start_ns || span.stop_cycles <= span.start_cycles)
        return std::nullopt;
    SmClock c;
    c.source = source;
    c.sms = 1;
    c.cycles = span.stop_cycles - span.start_cycles;
    const double ns = static_cast<double>(span.stop_ns - span.start_ns);
    c.baseline = Duration::from_ns(ns);
    c.hz = static_cast<double>(c.cycles) / ns * 1e9;
    c.uncertainty = timer_step.ns() / ns;
    return c;
}

void apply_clock(BlockSamples& samples) {
    const double hz = samples.sm_clock.hz;
    if (!(hz > 0) || !std::isfinite(hz))
        throw std::invalid_argument("gpuchrono::device_clock::apply_clock: the SM clock must be > 0 Hz, got " +
                                    std::to_string(hz));
    const double ns_per_cycle = 1e9 / hz;
    for (BlockSample& s : samples.samples) {
        double own = s.cycles_valid ? static_cast<double>(s.accumulated_cycles) * ns_per_cycle
                                    : static_cast<double>(s.accumulated_ns);
        if (samples.overhead_subtracted) {
            const double per = s.accumulating ? samples.overhead.iteration_cycles : samples.overhead.region_cycles;
            own -= static_cast<double>(s.count) * per * ns_per_cycle;
        }
        s.net_ns = std::max(0.0, own);
    }
}

ProbeOverhead overhead_from_calibration(std::span<const BlockSample> samples, std::uint32_t plain_regions,
                                        std::uint32_t threads_per_block) {
    std::vector<double> region, iteration;
    for (const BlockSample& s : samples) {
        if (!s.cycles_valid) continue;
        if (s.accumulating) {
            if (s.count != 0) iteration.push_back(static_cast<double>(s.accumulated_cycles) / static_cast<double>(s.count));
        } else if (s.region >= 1 && s.region < plain_regions) {
            region.push_back(static_cast<double>(s.accumulated_cycles));
        }
    }
    if (region.empty() || iteration.empty())
        throw std::runtime_error("gpuchrono: the probe calibration produced " + std::to_string(region.size()) +
                                 " empty regions and " + std::to_string(iteration.size()) +
                                 " empty loops with valid cycles; it needs at least one of each");
    ProbeOverhead o;
    o.region_cycles = median(region);
    o.iteration_cycles = median(iteration);
    o.threads_per_block = threads_per_block;
    o.regions_measured = static_cast<std::uint32_t>(region.size());
    return o;
}

Findings measurement_findings(Findings decoded, const BlockSamples& samples) {
    Findings out = std::move(decoded);
    Findings resolution = check_timer_resolution(samples);
    out.insert(out.end(), resolution.begin(), resolution.end());
    Findings shape = check_block_samples(samples);
    out.insert(out.end(), shape.begin(), shape.end());
    return out;
}

}  // namespace gpuchrono::device_clock
