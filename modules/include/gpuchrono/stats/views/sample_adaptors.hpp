// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The adaptors the views over per-block samples are made of: a transform or a filter of the samples by a
// named function object. Named function objects rather than lambdas or function pointers: the view types stay
// nameable and default-constructible, and the same entity is seen by every translation unit and by the module.
//
// The views take their input by reference when it is an lvalue container (range-v3's views::all), so the
// samples must outlive the view; a temporary container is refused at compile time, as in range-v3.
#pragma once

#include <gpuchrono/stats/block_sample_range.hpp>

#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/view.hpp>

#include <utility>

namespace gpuchrono::detail {

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

}  // namespace gpuchrono::detail
