// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Every rendering of a report, written into one folder:
//
//   report.json                  every raw sample, Stats, device and findings (docs/report-json.md)
//   report.txt                   the terminal report
//   samples.csv stats.csv blocks.csv sweeps.csv metrics.csv   for spreadsheets (see csv.hpp)
//   timeline-<experiment>-<kernel>.svg   one per-block timeline per Timeline
//   trace.json                   all timelines as Chrome trace events (open in https://ui.perfetto.dev)
//   sweep-<experiment>-<sweep>.svg       one plot per Sweep
//   kernel_metrics.csv roofline.csv      hardware metrics, when a series carries them (kernel_metrics_csv.hpp)
//   roofline-<experiment>-<series>.svg   one roofline chart per series with roofline points and peaks
//   index.html                   the report as a page (report_html.hpp): summary, tables, findings, pictures;
//                                with single_file the pictures inlined, so the page alone can be sent
//
// `gpuchrono report` does the same from a saved report.json, so a run taken on a GPU machine renders anywhere.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace gpuchrono::report {

struct WrittenFile {
    std::filesystem::path path;
    std::string what;  // "per-block timeline of ...", for the closing list a program prints
};

// Creates `folder` if needed and writes the files above; returns them in the order written. Throws
// std::runtime_error naming the file that could not be written.
std::vector<WrittenFile> write_report_files(const Report& report, const std::filesystem::path& folder);

struct ReportFilesOptions {
    bool single_file = false;  // index.html with every picture inlined (the SVG files are written too)
    std::string command;       // shown in index.html's header; empty: this process's command line
};
std::vector<WrittenFile> write_report_files(const Report& report, const std::filesystem::path& folder, const ReportFilesOptions& options);

}  // namespace gpuchrono::report
