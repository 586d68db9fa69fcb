// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Simulated performance histories with the noise of real GPU runs, for the change detector's tests and bench.
// Each kind is fitted to one series of the H100 history in test/data/history/h100-2026-11-27.csv (40 processes,
// nothing changed but the two known steps): the spread of a run's median between processes, the heavy tail of
// the 16 MiB copy, the timestamp grain every median lands on (the records tick in 32 ns; a median of an even
// count can fall half-way) and the rare process that runs one or two grains slow (the 2 us spin once, 1.1%).
#pragma once

#include "history/change_detection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace gpuchrono::history::testing {

struct NoiseKind {
    const char* series;
    double level_ns;              // the A/A level
    double spread;                // relative standard deviation of the median's continuous noise between processes
    double tail_degrees = 0;      // 0: normal noise; else Student t with these degrees of freedom (same spread scale)
    double grain_ns = 16;         // medians land on multiples of this
    double outlier_rate = 0;      // a process this often runs slow by outlier_ns
    double outlier_ns = 0;
    double ci_half_width = 0;     // the run's own CI of its median, relative half-width
};

// Fitted to the A/A commits of each series (medians' successive differences and standard deviation, the CIs' median
// half-width, the grain the medians sit on).
inline const std::array<NoiseKind, 8>& noise_kinds() {
    static const std::array<NoiseKind, 8> kinds{{
        {"spin 2us", 2848, 0.00003, 0, 16, 0.025, 32, 0.00018},
        {"spin 5us", 5856, 0.0020, 0, 16, 0, 0, 0.0027},
        {"spin 20us", 20833, 0.0004, 0, 16, 0.05, 32, 0.00077},
        {"spin 100us", 100834, 0.00008, 0, 16, 0.05, 32, 0.00016},
        {"vscale 16MiB", 7488, 0.0055, 3, 32, 0, 0, 0.0043},
        {"vscale 64MiB", 57617, 0.0017, 0, 32, 0.025, 320, 0.0044},
        {"vscale 64MiB cold", 51385, 0.0022, 0, 32, 0, 0, 0.0047},
        {"cub sum 16M", 24288, 0.0019, 0, 32, 0, 0, 0.0040},
    }};
    return kinds;
}

// One history of `commits` runs; from commit `step_at` on the true level is (1 + step) times the A/A level.
inline std::vector<SeriesPoint> simulate_history(const NoiseKind& kind, std::size_t commits, std::size_t step_at,
                                                 double step, std::mt19937_64& random) {
    std::normal_distribution<double> normal(0.0, 1.0);
    std::student_t_distribution<double> student(kind.tail_degrees > 0 ? kind.tail_degrees : 1.0);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<SeriesPoint> points;
    points.reserve(commits);
    for (std::size_t i = 0; i < commits; ++i) {
        const double level = kind.level_ns * (i >= step_at ? 1 + step : 1.0);
        const double noise = kind.tail_degrees > 0 ? student(random) : normal(random);
        double median = level * (1 + kind.spread * noise);
        if (uniform(random) < kind.outlier_rate) {
            median += kind.outlier_ns;
        }
        median = std::max(kind.grain_ns, std::round(median / kind.grain_ns) * kind.grain_ns);
        SeriesPoint point;
        point.commit = "c" + std::to_string(i);
        point.fingerprint = "H100";
        point.median = median;
        point.ci_low = median * (1 - kind.ci_half_width);
        point.ci_high = median * (1 + kind.ci_half_width);
        point.n = 20;
        points.push_back(std::move(point));
    }
    return points;
}

// The spread between processes that a step is measured in: half the width of the band that holds the middle 95%
// of A/A runs' medians (grain and outliers included), as "the median moves by up to 3% between processes" says it.
// For normal noise it is 1.96 standard deviations; it is at least one grain.
//
// The band is taken with each median spread evenly over its grain (the mid-quantiles of a discrete distribution):
// the quantiles of medians that sit on a grain can only be whole grains, so where the noise's own 95% band ends
// between two grains the plain band rounds it to the grain below. The 5 us spin (noise of 12 ns on a 16 ns grain)
// shows it: 95% of its runs lie within one grain, though its noise's band reaches 1.5 grains, so the plain band
// said one grain, 1.3 standard deviations of its runs instead of 1.96, and a step of "twice the spread" was 2.5 of
// its standard deviations where every other series' is 3.9.
inline double spread_between_processes(const NoiseKind& kind) {
    std::mt19937_64 random(20261127);
    const std::vector<SeriesPoint> runs = simulate_history(kind, 20000, 20000, 0.0, random);
    std::uniform_real_distribution<double> within_grain(-0.5, 0.5);
    std::vector<double> relative;
    relative.reserve(runs.size());
    for (const SeriesPoint& run : runs) {
        relative.push_back((run.median + kind.grain_ns * within_grain(random)) / kind.level_ns - 1);
    }
    std::sort(relative.begin(), relative.end());
    const auto at = [&](double quantile) {
        return relative[static_cast<std::size_t>(quantile * static_cast<double>(relative.size() - 1))];
    };
    // A series whose runs nearly all agree to the grain (the 2 us spin) still cannot show a step below one grain.
    return std::max((at(0.975) - at(0.025)) / 2, kind.grain_ns / kind.level_ns);
}

}  // namespace gpuchrono::history::testing
