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
    std::size_t differences = 0;  // the successive differences `spread` was estimated from
};

// The spread between processes from successive differences of log medians (their absolute values): a step or a
// slow drift among the runs enters one difference only. At least min_spread (runs that agree exactly still differ
// by at least this much in truth). At least one difference.
double spread_from_differences(std::span<const double> absolute_differences, double min_spread);

// The level of runs whose spread is known (it may come from more runs than these: the spread is the series',
// the level is the current one's). At least one run.
BaselineLevel level_with_spread(std::span<const double> log_medians, double spread, std::size_t differences);

// Both from the same runs. log_medians: the runs in commit order; at least 2.
BaselineLevel baseline_level(std::span<const double> log_medians, double min_spread);

// The residual of one run from a level, bounded at this many spreads: one run cannot weigh more than this,
// so a single outlier (a process that ran 1% slow once) cannot make a change on its own.
inline constexpr double residual_bound_spreads = 3.0;

}  // namespace gpuchrono::history::detail
