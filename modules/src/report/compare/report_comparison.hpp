// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Two saved reports side by side: compare() for every series the two have in common (matched by experiment id
// and series name), as gpuchrono-compare prints it and CI jobs gate on it. Host only (the report model).
#pragma once

#include <gpuchrono/measure/compare.hpp>
#include "report/compare/metric_comparison.hpp"
#include <gpuchrono/report/model/report.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuchrono {

struct SeriesComparison {
    std::string experiment;  // experiment id
    std::string series;      // series name
    std::optional<Comparison> comparison;  // empty when it could not be compared
    std::string problem;     // why not: "only in the base report", "refused: ...", "no samples in ..."
    // When both series carry hardware metrics: how each kernel's metrics moved (metric_comparison.hpp).
    std::optional<MetricComparison> metrics;
};

struct ReportComparison {
    std::vector<SeriesComparison> rows;  // the base report's order, then series only in the new one

    std::size_t slower() const noexcept;
    std::size_t problems() const noexcept;  // rows without a comparison
};

// Where a saved series came from (method: its measure() method if recorded, else its policy; cache state:
// "unknown" unless recorded; device: the report's device name and index).
SeriesOrigin origin_of(const report::Report& r, const report::SampleSeries& s);

ReportComparison compare_reports(const report::Report& base, const report::Report& next, const CompareOptions& options = {});

// One row per series: median before, after, change with its interval, p-value, verdict; then the notes and
// problems, and under them the hardware-metric changes of series whose reports both carry metrics (changes of
// 1% or more, or 1 point for percentages). Ends with a line counting the verdicts.
std::string render_comparison(const ReportComparison& c, const CompareOptions& options = {});

}  // namespace gpuchrono
