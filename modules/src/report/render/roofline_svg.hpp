// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A roofline chart as SVG: log-log, arithmetic intensity (FLOP per DRAM byte) across, FLOP/s up; the DRAM
// roof (slope = the DRAM peak) meeting the FP32 roof and, when known, the FP64 roof (dashed) at their ridge
// points; one labelled point per kernel launch, coloured by kernel, at its achieved FLOP/s. The roofs come
// from MetricsResult::peaks, the points from MetricsResult::roofline (metrics/roofline_points.hpp).
#pragma once

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <string>

namespace gpuchrono::report {

struct RooflineSvgOptions {
    std::string title;  // default: "Roofline"
    int width = 900;
    int height = 560;
};

// Whether render_roofline_svg can draw the result: it has points and peaks with a DRAM and an FP32 or FP64 roof.
bool can_draw_roofline(const metrics::MetricsResult& result) noexcept;

// Throws std::invalid_argument saying what is missing when !can_draw_roofline(result).
std::string render_roofline_svg(const metrics::MetricsResult& result, const RooflineSvgOptions& options = {});

}  // namespace gpuchrono::report
