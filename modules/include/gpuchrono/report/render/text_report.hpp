// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The readable report: what a person sees on the terminal and in report.txt. The device and its clocks
// first (figures mean little without them), then per experiment its results, samples, per-block
// summaries and sweeps as aligned tables with a unit chosen per column, its findings with their fixes, and
// the explanation of what the numbers show. The text is always UTF-8: bytes of a name that are not
// (names come from users) print as U+FFFD.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <string>

namespace gpuchrono::report {

// Lines wrap at this many columns.
inline constexpr std::size_t text_width = 100;

// "Device 0: NVIDIA H100 80GB HBM3, compute 9.0, 132 SMs ..." (several lines).
std::string render_device_text(const DeviceInfo& device);

// One experiment; `number` > 0 prefixes its title ("2. ...").
std::string render_experiment_text(const Experiment& experiment, int number = 0);

// The findings as "[warning] code: message" with the fix indented below; empty string for none.
std::string render_findings_text(const Findings& findings, const std::string& indent = "  ");

// Device, every experiment, run notes.
std::string render_text(const Report& report);

// One line per experiment: its first metrics and how many findings it raised. The tour's closing table.
std::string render_summary_text(const Report& report);

}  // namespace gpuchrono::report
