// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The report folder's index.html: the page a user opens first and sends on.
//
//   header     device, date, gpuchrono version, host and the command that produced the report
//   contents   a link to every section
//   summary    every series' median with the confidence interval of the median (measure()) or its p5 .. p95,
//              every metric, and every finding by severity (errors first), each unfolding to what it
//              means and its fix
//   sections   one per experiment: the explanation, the results tables (units in the headers), the hardware
//              metrics, the findings, then the experiment's pictures (timelines, sweeps, rooflines) with alt text
//   notes, device, and the text report folded
//
// Number cells carry the exact value in data-value (html_page.hpp), so a script checks the page against
// report.json. With single_file the pictures are inlined: the page alone holds the whole report.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <string>
#include <vector>

namespace gpuchrono::report {

// A picture written beside the page: which experiment it belongs to, its file name, its caption (the alt text)
// and, to inline it, its SVG text.
struct HtmlPicture {
    std::string experiment_id;
    std::string file;
    std::string caption;
    std::string svg;
};

struct HtmlPageOptions {
    std::string command;       // the command line or program that made the report; empty: not shown
    bool single_file = false;  // inline the pictures (HtmlPicture::svg) instead of linking their files
    bool trace = false;        // the folder holds trace.json: say how to open it
};

// `text` is the terminal report (render_text), shown folded at the end.
std::string render_report_html(const Report& report, const std::vector<HtmlPicture>& pictures, const std::string& text,
                               const HtmlPageOptions& options = {});

}  // namespace gpuchrono::report
