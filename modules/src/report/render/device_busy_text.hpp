// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Per-device busy time of the KernelPolicy series of an experiment as text: for a scope that launched on several
// devices, how long each device worked (the union of its activities' intervals) within its span (first start to
// last end there), as medians over the series' samples: the figures of SampleSeries::device_busy, in report.txt
// and on the terminal as in JSON.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <string>

namespace gpuchrono::report {

// One row per (series, device): series, device, busy, span, busy as % of span, activities. Empty string when no
// series of `e` carries device_busy. Every line starts with `indent`.
std::string render_device_busy_text(const Experiment& e, const std::string& indent = "    ");

}  // namespace gpuchrono::report
