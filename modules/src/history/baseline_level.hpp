// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The level of a stretch of runs at one level, and how far one run's median strays from it between processes:
// the two numbers every judgement of the change detector stands on. Values are log medians, so a spread is
// relative and a difference of levels is a log ratio.
#pragma once

#include <cstddef>
#include <span>

namespace gpuchrono::history::detail {

struct BaselineLevel {
    double level = 0;           // robust mean of the log medians
    double level_variance = 0;  // of `level` as an estimate of the stretch's true level
    double spread = 0;          // standard deviation of one run's log median about the level, between processes
};

// log_medians: the runs in commit order (successive differences need the order); at least 2.
// min_spread: the floor of `spread` (runs that agree exactly still differ by at least this much in truth).
BaselineLevel baseline_level(std::span<const double> log_medians, double min_spread);

// The residual of one run from a level, bounded at this many spreads: one run cannot weigh more than this,
// so a single outlier (a process that ran 1% slow once) cannot make a change on its own.
inline constexpr double residual_bound_spreads = 3.0;

}  // namespace gpuchrono::history::detail
