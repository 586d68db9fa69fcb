// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How many blocks compare(fn_a, fn_b)'s next round queues (interleaved_compare.cpp). A round's blocks are queued
// back to back and read with one wait (and, with the kernel method, one CUPTI flush, 0.05-2.4 ms on an H100), so
// a comparison wants few rounds; the blocks of the deciding round after its verdict are run for nothing, so it
// wants them short. Each round after the pilot is as many blocks as the test expects to need
// (SequentialTest::blocks_to_decide) and a fifth more, at least 4 and at most `most`. In the CPU tests'
// simulations this queues 4-12% more blocks than the verdicts need, in 3-4 rounds; growing each round by half
// queued 25-75% more (medians) in as many. Internal.
#pragma once

#include <gpuchrono/stats/sequential_mean_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace gpuchrono::detail {

inline constexpr std::size_t least_round_blocks = 4;
inline constexpr double round_margin = 1.2;

inline std::size_t next_round_blocks(const SequentialTest& test, std::size_t most) {
    const double planned = std::ceil(round_margin * test.blocks_to_decide());
    if (!(planned < static_cast<double>(most))) return most;
    return std::min(most, std::max(least_round_blocks, static_cast<std::size_t>(planned)));
}

}  // namespace gpuchrono::detail
