// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono-compare --html: a comparison of two saved reports as a page (html_page.hpp's look): which files,
// devices and options, the verdicts counted, then one row per series with both medians, the change with its
// interval, the p-value and the verdict as a word (its colour only repeats it), and the text rendering folded.
#pragma once

#include "report/compare/report_comparison.hpp"

#include <string>

namespace gpuchrono {

struct ComparisonPageInput {
    std::string base_file, next_file;  // as given on the command line
    const report::Report* base = nullptr;
    const report::Report* next = nullptr;
    std::string command;
};

std::string render_comparison_html(const ReportComparison& c, const ComparisonPageInput& input, const CompareOptions& options = {});

}  // namespace gpuchrono
