// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::views::launch_skew: when each sample started, after the earliest start.
#pragma once

#include <gpuchrono/stats/views/sample_adaptors.hpp>

#include <range/v3/view/all.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace gpuchrono {

namespace detail {

struct start_after {
    std::uint64_t earliest_start_ns;
    constexpr Duration operator()(const BlockSample& sample) const noexcept {
        return Duration::from_ns(signed_difference_ns(sample.start_ns, earliest_start_ns));
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

// Per sample, in input order, how long after the earliest start among the input samples it started:
// start_ns - min(start_ns). Blocks do not start in blockIdx order (docs/pitfalls-catalog.md row 25), so this is the
// measured launch spread. Needs a forward range (it reads the input twice).
inline constexpr ranges::views::view_closure<detail::launch_skew_of> launch_skew{};

}  // namespace views

}  // namespace gpuchrono
