// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/distributed/clock_anchor.hpp>
#include <gpuchrono/distributed/rank_section.hpp>

#include "cupti/cupti_library.hpp"

#include <chrono>
#include <cmath>

namespace gpuchrono::distributed {

std::int64_t steady_now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {
std::int64_t system_now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

ClockAnchor take_clock_anchor(bool with_cupti) {
    const cupti::CuptiLibrary* lib = with_cupti ? &cupti::cupti_library() : nullptr;
    if (lib && !lib->loaded()) lib = nullptr;
    // The other clocks are read between two steady readings, and the steady time is their midpoint: the pair's
    // uncertainty is then half the width, and a preempted read shows as a wide anchor rather than a wrong one.
    // The narrowest of a few tries is kept.
    ClockAnchor best;
    best.read_width_ns = INT64_MAX;
    for (int attempt = 0; attempt < 5; ++attempt) {
        ClockAnchor a;
        const std::int64_t before = steady_now_ns();
        a.system_ns = system_now_ns();
        if (lib) {
            uint64_t t = 0;
            if (lib->get_timestamp(&t) == CUPTI_SUCCESS) a.cupti_ns = static_cast<std::int64_t>(t);
        }
        const std::int64_t after = steady_now_ns();
        a.steady_ns = before + (after - before) / 2;
        a.read_width_ns = after - before;
        if (a.read_width_ns < best.read_width_ns) best = a;
    }
    return best;
}

std::int64_t LinearClockMap::operator()(std::int64_t x) const noexcept {
    // The difference is taken in integers first: the absolute values (1e18 ns) do not fit a double exactly.
    const double dx = static_cast<double>(x - x0);
    return y0 + static_cast<std::int64_t>(std::llround(dx * rate));
}

}  // namespace gpuchrono::distributed
