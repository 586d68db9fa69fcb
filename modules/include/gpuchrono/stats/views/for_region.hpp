// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::views::for_region: only the samples of one region.
#pragma once

#include <gpuchrono/stats/views/sample_adaptors.hpp>

#include <cstdint>

namespace gpuchrono {

namespace detail {

struct region_is {
    std::uint32_t region;
    constexpr bool operator()(const BlockSample& sample) const noexcept { return sample.region == region; }
};

}  // namespace detail

namespace views {

// Only the samples of region `region`.
inline constexpr auto for_region(std::uint32_t region) {
    return ranges::make_view_closure(detail::filter_samples<detail::region_is>{{region}});
}

}  // namespace views

}  // namespace gpuchrono
