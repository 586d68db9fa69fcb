// Views and reductions over the per-block samples (BlockSample) that DeviceClockPolicy reads back from a
// kernel: what each block did, where it ran, when it started, and how the launch filled the GPU.
//
// Host only (range-v3; see stats.hpp). The split follows range-v3's own:
//   gpuchrono::views::  lazy, composable views, one element out per sample in (or fewer, for the filters):
//                       block_durations, iteration_durations, launch_skew, for_region, on_sm, sm_changed.
//   gpuchrono::         reductions that must see every sample before they can answer: makespan, concurrency,
//                       group_by_sm; they work as calls and at the end of a pipe, like summarize. And waves(),
//                       which is arithmetic on the launch shape and needs no samples.
//
//     Stats per_block = samples | views::for_region(0) | views::block_durations | summarize;
//     Duration kernel = samples | views::for_region(0) | makespan;
//     auto busy = samples | concurrency(1us);
//     for (const auto& [sm, on_that_sm] : samples | group_by_sm) ...
//
// The views take their input by reference when it is an lvalue container (range-v3's views::all), so the
// samples must outlive the view; a temporary container is refused at compile time, as in range-v3.
//
// Time arithmetic: %globaltimer stamps are about 1.7e18 ns, beyond the 2^53 that a double holds exactly, so
// every difference is taken in 64-bit integers first and converted afterwards. Differences are signed: a
// record whose stop precedes its start yields a negative duration, which stands out in a summary, instead of
// an unsigned wrap-around to 1.8e19 ns.
#pragma once

#include <gpuchrono/device_clock/block_samples.hpp>
#include <gpuchrono/core/duration.hpp>

#include <range/v3/functional/pipeable.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/all.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/view.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
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

namespace detail {

template <class Range>
concept block_sample_range =
    ranges::input_range<Range> && std::same_as<ranges::range_value_t<Range>, BlockSample>;

// What a lazy view can be built on: a view, or an lvalue container it can refer to.
template <class Range>
concept viewable_block_sample_range = block_sample_range<Range> && ranges::viewable_range<Range>;

// later - earlier in ns: exact integer subtraction, then the two's-complement reading of the result, so
// that a negative difference stays negative (well defined since C++20).
constexpr double signed_difference_ns(std::uint64_t later, std::uint64_t earlier) noexcept {
    return static_cast<double>(static_cast<std::int64_t>(later - earlier));
}

}  // namespace detail

// The time the region took in this block: for an accumulating region (a ProbeLoop, or any record with
// count > 1) the total over its iterations, accumulated_ns; otherwise stop_ns - start_ns. A loop that ran
// once still reports accumulated_ns: its stop - start also spans the loop's own overhead.
constexpr Duration block_duration(const BlockSample& sample) noexcept {
    if (sample.accumulating || sample.count > 1) return Duration::from_ns(static_cast<double>(sample.accumulated_ns));
    return Duration::from_ns(detail::signed_difference_ns(sample.stop_ns, sample.start_ns));
}

// The mean time of one iteration: block_duration / count. NaN when count is 0 (a region that never ran
// has no time per iteration), which summarize then counts in rejected_non_finite instead of averaging a 0.
constexpr Duration iteration_duration(const BlockSample& sample) noexcept {
    if (sample.count == 0) return Duration::from_ns(std::numeric_limits<double>::quiet_NaN());
    return block_duration(sample) / static_cast<double>(sample.count);
}

namespace detail {

// Named function objects rather than lambdas or function pointers: the view types stay nameable and
// default-constructible, and the same entity is seen by every translation unit and by the module.
struct block_duration_of {
    constexpr Duration operator()(const BlockSample& sample) const noexcept { return block_duration(sample); }
};

struct iteration_duration_of {
    constexpr Duration operator()(const BlockSample& sample) const noexcept { return iteration_duration(sample); }
};

struct region_is {
    std::uint32_t region;
    constexpr bool operator()(const BlockSample& sample) const noexcept { return sample.region == region; }
};

struct started_on_sm {
    std::uint32_t sm;
    constexpr bool operator()(const BlockSample& sample) const noexcept { return sample.sm_start == sm; }
};

struct sm_differs {
    constexpr bool operator()(const BlockSample& sample) const noexcept {
        return sample.sm_start != sample.sm_stop;
    }
};

struct start_after {
    std::uint64_t earliest_start_ns;
    constexpr Duration operator()(const BlockSample& sample) const noexcept {
        return Duration::from_ns(signed_difference_ns(sample.start_ns, earliest_start_ns));
    }
};

template <class Projection>
struct transform_samples {
    template <viewable_block_sample_range Range>
    auto operator()(Range&& samples) const {
        return ranges::views::transform(std::forward<Range>(samples), Projection{});
    }
};

template <class Predicate>
struct filter_samples {
    Predicate keep;

    template <viewable_block_sample_range Range>
    auto operator()(Range&& samples) const {
        return ranges::views::filter(std::forward<Range>(samples), keep);
    }
};

// Two passes: the earliest start first, then the offsets. The earliest start is taken when the pipe is
// applied, so it is that of the samples as they were then.
struct launch_skew_of {
    template <viewable_block_sample_range Range>
        requires ranges::forward_range<Range>
    auto operator()(Range&& samples) const {
        auto all = ranges::views::all(std::forward<Range>(samples));
        std::uint64_t earliest_start_ns = std::numeric_limits<std::uint64_t>::max();
        for (const BlockSample& sample : all) earliest_start_ns = std::min(earliest_start_ns, sample.start_ns);
        return ranges::views::transform(std::move(all), start_after{earliest_start_ns});
    }
};

}  // namespace detail

namespace views {

// Duration per sample: block_duration() of each.
inline constexpr ranges::views::view_closure<detail::transform_samples<detail::block_duration_of>> block_durations{};

// Duration of one iteration per sample: iteration_duration() of each (NaN where count is 0).
inline constexpr ranges::views::view_closure<detail::transform_samples<detail::iteration_duration_of>>
    iteration_durations{};

// Only the samples of region `region`.
inline constexpr auto for_region(std::uint32_t region) {
    return ranges::make_view_closure(detail::filter_samples<detail::region_is>{{region}});
}

// Only the samples whose region started on SM `sm` (sm_start; where the block finished may differ, see
// sm_changed).
inline constexpr auto on_sm(std::uint32_t sm) {
    return ranges::make_view_closure(detail::filter_samples<detail::started_on_sm>{{sm}});
}

// Only the samples whose %smid differed between the start and the stop read (PITFALLS.md row 18): their
// cycle counts come from two unaligned clocks and must not be subtracted.
inline constexpr ranges::views::view_closure<detail::filter_samples<detail::sm_differs>> sm_changed{};

// Per sample, in input order, how long after the earliest start among the input samples it started:
// start_ns - min(start_ns). Blocks do not start in blockIdx order (PITFALLS.md row 25), so this is the
// measured launch spread. Needs a forward range (it reads the input twice).
inline constexpr ranges::views::view_closure<detail::launch_skew_of> launch_skew{};

}  // namespace views

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
// time (PITFALLS.md row 24): a partial last wave costs as long as a full one while most SMs idle.
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
