// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One call from measurements to report files:
//
//     gpuchrono::SeriesSet series;
//     ...                                                     // time things into series["saxpy"], ...
//     gpuchrono::write_report(series, "out/");                // out/report.txt, report.json, CSV, SVG, ...
//
// It builds the Report a program would otherwise assemble by hand (new_report, describe_device, one
// Experiment, make_series per series, a per-block timeline per device-clock series) and writes every file of
// write_report_files (report_files.hpp) into the folder. Series made without a GPU (host clocks, or
// Measurements built by hand) need no device: the report then names the device "no device".
//
// The series-level findings (summary.hpp) are reported at the caller's line, once per series and code: a
// summary() the caller made of the same series earlier has reported them already.
#pragma once

#include <gpuchrono/core/series.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/report_files.hpp>

#include <filesystem>
#include <source_location>
#include <vector>

namespace gpuchrono {

// Every series of the set, in name order, as one experiment. Throws CudaError when the device the
// measurements ran on cannot be described, std::runtime_error naming the file that could not be written.
std::vector<report::WrittenFile> write_report(const SeriesSet& series, const std::filesystem::path& folder,
                                              std::source_location where = std::source_location::current());

// The same for one series.
std::vector<report::WrittenFile> write_report(const Series& series, const std::filesystem::path& folder,
                                              std::source_location where = std::source_location::current());

}  // namespace gpuchrono
