// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::views::iteration_durations: the Duration of one iteration of each sample (iteration_duration).
#pragma once

#include <gpuchrono/stats/views/sample_adaptors.hpp>

#include <cstdint>

namespace gpuchrono {

namespace detail {

struct iteration_duration_of {
    constexpr Duration operator()(const BlockSample& sample) const noexcept { return iteration_duration(sample); }
};

}  // namespace detail

namespace views {

// Duration of one iteration per sample: iteration_duration() of each (NaN where count is 0).
inline constexpr ranges::views::view_closure<detail::transform_samples<detail::iteration_duration_of>>
    iteration_durations{};

}  // namespace views

}  // namespace gpuchrono
