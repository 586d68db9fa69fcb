// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The per-block timeline as SVG: one row per SM (by the %smid the block started on), each block a bar from
// its start to its stop on %globaltimer, coloured by region, on a time axis measured from the first block's
// start. Blocks that overlap on one SM (several resident at once) get lanes within the SM's row, so
// residency is visible. Hovering a bar shows its block, region, SM, duration and cycles (<title>).
//
// This is the visualisation the nvperf README lists as a TODO: where blocks ran, when, and for how long.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <string>

namespace gpuchrono::report {

struct TimelineSvgOptions {
    int width = 1200;              // px; the height follows from the number of SM rows
    std::string device_name;       // shown in the subtitle when not empty
};

// A complete standalone SVG document. An empty timeline renders a document that says so.
std::string render_timeline_svg(const Timeline& timeline, const TimelineSvgOptions& options = {});

// Lane of each sample within its SM row (same order as timeline.samples) and lanes per SM: a block's
// regions share its lane, and a block takes the lowest lane free at its start. Exposed for tests.
struct TimelineLanes {
    std::vector<std::size_t> lane_of_sample;
    std::vector<std::pair<std::uint32_t, std::size_t>> lanes_per_sm;  // (sm, lanes), ascending sm
};
TimelineLanes assign_lanes(const Timeline& timeline);

}  // namespace gpuchrono::report
