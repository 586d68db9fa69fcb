// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a Timeline's per-block records add up to, region by region: the figures the text report prints
// and the plots annotate (makespan, block durations, cycles, launch spread, SMs used).
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuchrono::report {

struct RegionSummary {
    std::uint32_t region = 0;
    std::string name;
    std::size_t samples = 0;
    std::size_t blocks = 0;       // distinct blocks that recorded this region
    std::size_t sms = 0;          // distinct SMs those blocks started on
    std::size_t sm_changed = 0;   // samples whose %smid differed between start and stop
    std::uint64_t iterations = 0; // sum of count: > samples for a loop-accumulating region
    Stats durations;              // per sample: block_duration (accumulated total for loop regions)
    Stats per_iteration;          // per sample: block_duration / count
    Stats net;                    // per sample: net_ns (cycles at the measured clock, probe cost off); count 0 if none has one
    Duration makespan = Duration::from_ns(not_measured);       // first start to last stop
    Duration launch_spread = Duration::from_ns(not_measured);  // last start - first start
    double cycles_min = not_measured;     // clock64 differences of samples that stayed on one SM
    double cycles_median = not_measured;
    double cycles_mean = not_measured;
    double cycles_max = not_measured;
};

// One summary per region id that occurs in the samples, in ascending id order.
std::vector<RegionSummary> summarize_timeline(const Timeline& t);

// The earliest start_ns among the samples (0 for none): the origin plots measure time from.
std::uint64_t first_start_ns(const Timeline& t) noexcept;

}  // namespace gpuchrono::report
