// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::views::block_durations: the Duration of each sample (block_duration).
#pragma once

#include <gpuchrono/stats/views/sample_adaptors.hpp>

#include <cstdint>

namespace gpuchrono {

namespace detail {

struct block_duration_of {
    constexpr Duration operator()(const BlockSample& sample) const noexcept { return block_duration(sample); }
};

}  // namespace detail

namespace views {

// Duration per sample: block_duration() of each.
inline constexpr ranges::views::view_closure<detail::transform_samples<detail::block_duration_of>> block_durations{};

}  // namespace views

}  // namespace gpuchrono
