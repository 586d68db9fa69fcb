// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What every view and reduction over per-block samples (BlockSample) rests on: the ranges they accept, and
// the time of one sample. Host only (range-v3; see stats.hpp). stats/views.hpp includes every view.
//
// Time arithmetic: %globaltimer stamps are about 1.7e18 ns, beyond the 2^53 that a double holds exactly, so
// every difference is taken in 64-bit integers first and converted afterwards. Differences are signed: a
// record whose stop precedes its start yields a negative duration, which stands out in a summary, instead of
// an unsigned wrap-around to 1.8e19 ns.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/block_samples.hpp>

#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include <concepts>
#include <cstdint>
#include <limits>

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

}  // namespace gpuchrono
