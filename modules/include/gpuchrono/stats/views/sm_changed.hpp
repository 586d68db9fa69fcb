// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::views::sm_changed: only the samples whose %smid changed between start and stop.
#pragma once

#include <gpuchrono/stats/views/sample_adaptors.hpp>

#include <cstdint>

namespace gpuchrono {

namespace detail {

struct sm_differs {
    constexpr bool operator()(const BlockSample& sample) const noexcept {
        return sample.sm_start != sample.sm_stop;
    }
};

}  // namespace detail

namespace views {

// Only the samples whose %smid differed between the start and the stop read (docs/pitfalls-catalog.md row 18): their
// cycle counts come from two unaligned clocks and must not be subtracted.
inline constexpr ranges::views::view_closure<detail::filter_samples<detail::sm_differs>> sm_changed{};

}  // namespace views

}  // namespace gpuchrono
