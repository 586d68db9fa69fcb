// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hardware metrics of the same kernel in two runs, side by side: what gpuchrono-compare prints under a
// series' time change when both reports carry metrics for it, so a "-45% time" reads next to its reason,
// e.g. "copy_kernel: dram__bytes_read.sum -48.00% (268 MB -> 140 MB): the new kernel reads about half as much".
// Pure arithmetic over two MetricsResults; host only.
#pragma once

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuchrono {

struct MetricChange {
    std::string kernel;
    std::uint64_t launch = 0;
    std::string metric;
    std::string unit;
    double before = 0;
    double after = 0;
    double change = 0;  // after / before - 1 (+inf from 0); for percentages the change in points is after - before
};

struct MetricComparison {
    std::vector<MetricChange> changes;  // metrics that moved by at least the threshold, in the base's order
    std::size_t unchanged = 0;          // metrics compared that moved less
    std::vector<std::string> unmatched; // launches or metrics only one side has, one line each
};

// Matches launches by (kernel name, launch number) and metrics by name; values that are NaN on either side are
// not compared. `threshold`: the relative change (or, for a percentage metric, the change in points / 100)
// below which a metric counts as unchanged.
MetricComparison compare_kernel_metrics(const metrics::MetricsResult& before, const metrics::MetricsResult& after,
                                        double threshold = 0.01);

// "dram__bytes_read.sum -48.00% (268435456 -> 139586437 byte): the new kernel reads about half as much";
// percentages in points: "lts__t_sector_hit_rate.pct 51.6 -> 80.2 % (+28.6 points)".
std::string describe(const MetricChange& change);

}  // namespace gpuchrono
