// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How many samples measure()'s next batch takes. Each batch costs a wait for the GPU and, with the kernel method, a
// CUPTI buffer flush (0.05-2.4 ms on an H100), so measure() wants few batches; the samples of the batch that reaches
// the target beyond those it needed are spent for nothing, so it wants them few too. The width of the median's
// interval shrinks about as 1/sqrt(n): n (width / target)^2 samples are expected to reach the target. The next
// batch takes what that expectation lacks and a fifth more, at least a quarter of the samples taken (the width of a
// small sample is a rough guide), within the samples that fit the batch's time budget and those the budget leaves.
// Internal.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace gpuchrono::detail {

inline constexpr double batch_margin = 1.2;

// `taken`: samples the rule has seen; `relative_width`: of their interval now (NaN or infinite when unknown);
// `fit_in_time`: samples that fit one batch's time; `left`: samples the budget still allows. At least 1 while
// `left` is above 0.
inline std::size_t next_batch_samples(std::size_t taken, double relative_width, double target_relative_width,
                                      std::size_t fit_in_time, std::size_t left) {
    if (left == 0) return 0;
    double planned = std::ceil(static_cast<double>(taken) / 4.0);
    if (std::isfinite(relative_width) && relative_width > 0 && target_relative_width > 0 && taken > 0) {
        const double ratio = relative_width / target_relative_width;
        const double expected = static_cast<double>(taken) * ratio * ratio;
        planned = std::max(planned, std::ceil(batch_margin * expected) - static_cast<double>(taken));
    }
    const double most = static_cast<double>(std::min(std::max<std::size_t>(fit_in_time, 1), left));
    return static_cast<std::size_t>(std::clamp(planned, 1.0, most));
}

}  // namespace gpuchrono::detail
