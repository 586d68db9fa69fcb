// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reductions over per-block samples that must see every sample before they can answer (makespan,
// concurrency, group_by_sm; they work as calls and at the end of a pipe, like summarize), and waves(), which is
// arithmetic on the launch shape and needs no samples. Host only (range-v3; see stats.hpp).
#pragma once

#include <gpuchrono/stats/block_sample_range.hpp>

#include <range/v3/functional/pipeable.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpuchrono {

// First start to last stop, max(stop_ns) - min(start_ns), of the samples given (filter by region first if
// the kernel has several); NaN for no samples. For the whole kernel this is the span on the GPU, without
// the launch latency that host and event timers include.
struct makespan_fn : ranges::pipeable_base {
    template <detail::block_sample_range Range>
    Duration operator()(Range&& samples) const {
        std::uint64_t first_start_ns = std::numeric_limits<std::uint64_t>::max();
        std::uint64_t last_stop_ns = 0;
        bool any = false;
        for (const BlockSample& sample : samples) {
            any = true;
            first_start_ns = std::min(first_start_ns, sample.start_ns);
            last_stop_ns = std::max(last_stop_ns, sample.stop_ns);
        }
        if (!any) return Duration::from_ns(std::numeric_limits<double>::quiet_NaN());
        return Duration::from_ns(detail::signed_difference_ns(last_stop_ns, first_start_ns));
    }
};
inline constexpr makespan_fn makespan{};

// Concurrency limits the number of bins: a bin size that would need more is almost certainly a unit
// mistake (1 ns bins over a 1 s kernel), and the count vector would take gigabytes.
inline constexpr std::size_t max_concurrency_bins = std::size_t{1} << 24;

namespace detail {

inline void require_usable_bin(Duration bin) {
    if (!(bin.is_finite() && bin.ns() > 0.0))
        throw std::invalid_argument("gpuchrono::concurrency: the bin width must be a finite duration > 0, got " +
                                    to_string(bin));
}

// A bin count as a whole number; a double because a tiny bin can need more than 2^64 bins (or inf).
inline std::string whole_number(double value) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(0) << value;
    return out.str();
}

}  // namespace detail

// How many samples were running in each time bin: element i counts the samples whose interval
// [start_ns, stop_ns) overlaps bin i = [t0 + i * bin, t0 + (i + 1) * bin), t0 being the earliest start.
// The bins cover first start to last stop (at least one bin); a sample with stop <= start counts as an
// instant in the bin of its start. Empty input gives an empty vector. With one sample per block and region,
// filter by region first, or a block is counted once per region.
// Throws std::invalid_argument for a bin that is not finite and > 0, or that needs more than
// max_concurrency_bins bins.
template <detail::block_sample_range Range>
std::vector<std::size_t> concurrency(Range&& samples, Duration bin) {
    detail::require_usable_bin(bin);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals;  // one pass: input ranges suffice
    std::uint64_t first_start_ns = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t last_end_ns = 0;
    for (const BlockSample& sample : samples) {
        const std::uint64_t end_ns = std::max(sample.stop_ns, sample.start_ns);
        intervals.emplace_back(sample.start_ns, end_ns);
        first_start_ns = std::min(first_start_ns, sample.start_ns);
        last_end_ns = std::max(last_end_ns, end_ns);
    }
    if (intervals.empty()) return {};

    const double bin_ns = bin.ns();
    const double bins_needed = std::max(1.0, std::ceil(static_cast<double>(last_end_ns - first_start_ns) / bin_ns));
    if (bins_needed > static_cast<double>(max_concurrency_bins))
        throw std::invalid_argument("gpuchrono::concurrency: a bin of " + to_string(bin) + " over " +
                                    to_string(Duration::from_ns(static_cast<double>(last_end_ns - first_start_ns))) +
                                    " needs " + detail::whole_number(bins_needed) + " bins, more than the limit of " +
                                    std::to_string(max_concurrency_bins) + "; use a wider bin");
    const auto bin_count = static_cast<std::size_t>(bins_needed);

    // Difference array: +1 at the first bin a sample occupies, -1 after its last, then a running sum.
    std::vector<std::ptrdiff_t> change(bin_count + 1, 0);
    for (const auto& [start_ns, end_ns] : intervals) {
        const auto offset = [first_start_ns](std::uint64_t t) { return static_cast<double>(t - first_start_ns); };
        const auto first_bin = std::min(static_cast<std::size_t>(offset(start_ns) / bin_ns), bin_count - 1);
        std::size_t last_bin = first_bin;
        if (end_ns > start_ns)  // the half-open interval ends in the bin holding end_ns - epsilon
            last_bin = std::clamp(static_cast<std::size_t>(std::ceil(offset(end_ns) / bin_ns)) - 1, first_bin,
                                  bin_count - 1);
        ++change[first_bin];
        --change[last_bin + 1];
    }
    std::vector<std::size_t> running(bin_count);
    std::ptrdiff_t now_running = 0;
    for (std::size_t i = 0; i < bin_count; ++i) {
        now_running += change[i];
        running[i] = static_cast<std::size_t>(now_running);
    }
    return running;
}

// `samples | concurrency(bin)`. The bin is checked here, where the pipe is built.
struct concurrency_in_bins_of : ranges::pipeable_base {
    Duration bin;

    template <detail::block_sample_range Range>
    std::vector<std::size_t> operator()(Range&& samples) const {
        return concurrency(std::forward<Range>(samples), bin);
    }
};

inline concurrency_in_bins_of concurrency(Duration bin) {
    detail::require_usable_bin(bin);
    return concurrency_in_bins_of{{}, bin};
}

// The samples that started on one SM, in input order.
struct SmSamples {
    std::uint32_t sm = 0;
    std::vector<BlockSample> samples;
};

// The samples grouped by the SM they started on (sm_start), in ascending SM order, each group in input
// order; SMs without samples are absent. Copies the samples, so the result outlives the input.
struct group_by_sm_fn : ranges::pipeable_base {
    template <detail::block_sample_range Range>
    std::vector<SmSamples> operator()(Range&& samples) const {
        std::map<std::uint32_t, std::vector<BlockSample>> by_sm;
        for (const BlockSample& sample : samples) by_sm[sample.sm_start].push_back(sample);
        std::vector<SmSamples> groups;
        groups.reserve(by_sm.size());
        for (auto& [sm, on_that_sm] : by_sm) groups.push_back({sm, std::move(on_that_sm)});
        return groups;
    }
};
inline constexpr group_by_sm_fn group_by_sm{};

// How a launch of block_count blocks fills a GPU that holds sm_count * resident_blocks_per_sm blocks at a
// time (docs/pitfalls-catalog.md row 24): a partial last wave costs as long as a full one while most SMs idle.
struct Waves {
    double waves = 0.0;                   // block_count / blocks_per_wave, e.g. 1.0076 for 133 blocks on 132 slots
    std::size_t full_waves = 0;           // floor of that
    std::size_t blocks_in_last_wave = 0;  // blocks of the last wave that runs: blocks_per_wave when it is full, 0 for no blocks
    bool partial_last_wave = false;       // the last wave leaves slots idle
    std::size_t blocks_per_wave = 0;      // sm_count * resident_blocks_per_sm
};

// resident_blocks_per_sm is the occupancy of the kernel (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
// Throws std::invalid_argument if sm_count or resident_blocks_per_sm is 0, or their product overflows.
inline Waves waves(std::size_t block_count, std::size_t sm_count, std::size_t resident_blocks_per_sm) {
    if (sm_count == 0)
        throw std::invalid_argument("gpuchrono::waves: sm_count must be > 0, got 0");
    if (resident_blocks_per_sm == 0)
        throw std::invalid_argument(
            "gpuchrono::waves: resident_blocks_per_sm must be > 0, got 0 (the kernel cannot run: check its "
            "occupancy, e.g. shared memory or registers per block)");
    if (resident_blocks_per_sm > std::numeric_limits<std::size_t>::max() / sm_count)
        throw std::invalid_argument("gpuchrono::waves: sm_count " + std::to_string(sm_count) +
                                    " x resident_blocks_per_sm " + std::to_string(resident_blocks_per_sm) +
                                    " overflows");
    Waves shape;
    shape.blocks_per_wave = sm_count * resident_blocks_per_sm;
    shape.waves = static_cast<double>(block_count) / static_cast<double>(shape.blocks_per_wave);
    shape.full_waves = block_count / shape.blocks_per_wave;
    const std::size_t remainder = block_count % shape.blocks_per_wave;
    shape.partial_last_wave = remainder != 0;
    shape.blocks_in_last_wave = remainder != 0 ? remainder : block_count == 0 ? 0 : shape.blocks_per_wave;
    return shape;
}

}  // namespace gpuchrono
