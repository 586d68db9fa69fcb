// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::views::on_sm: only the samples that started on one SM.
#pragma once

#include <gpuchrono/stats/views/sample_adaptors.hpp>

#include <cstdint>

namespace gpuchrono {

namespace detail {

struct started_on_sm {
    std::uint32_t sm;
    constexpr bool operator()(const BlockSample& sample) const noexcept { return sample.sm_start == sm; }
};

}  // namespace detail

namespace views {

// Only the samples whose region started on SM `sm` (sm_start; where the block finished may differ, see
// sm_changed).
inline constexpr auto on_sm(std::uint32_t sm) {
    return ranges::make_view_closure(detail::filter_samples<detail::started_on_sm>{{sm}});
}

}  // namespace views

}  // namespace gpuchrono
