// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A parameter sweep as an SVG line plot: one line per curve with a point per measurement, a shaded band
// where a curve has low/high values (e.g. the fastest and slowest block), dashed vertical markers at the
// x values that explain the shape (SM count, resident capacity), a time axis in the unit its values need,
// and a legend. Hovering a point shows its values.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <string>

namespace gpuchrono::report {

struct SweepSvgOptions {
    int width = 960;
    int height = 560;
    std::string device_name;  // shown in the subtitle when not empty
};

// A complete standalone SVG document; a sweep without points renders a document that says so.
// A "log" x_scale needs x > 0: points at x <= 0 are left out of the plot (and counted in the subtitle).
std::string render_sweep_svg(const Sweep& sweep, const SweepSvgOptions& options = {});

}  // namespace gpuchrono::report
