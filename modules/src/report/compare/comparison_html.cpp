// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/compare/comparison_html.hpp"

#include "report/render/html_page.hpp"
#include <gpuchrono/report/render/units.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

using report::html::escape;

std::string describe(const std::string& file, const report::Report* r) {
    if (!r) return file;
    std::string out = file + " (" + (r->device.name.empty() ? std::string("device not recorded") : r->device.name);
    if (!r->created_utc.empty()) out += ", " + r->created_utc;
    if (!r->generator.empty()) out += ", " + r->generator;
    return out + ")";
}

std::string percent_cell(const std::string& key, double ratio) {
    std::string shown = "-";
    if (std::isinf(ratio)) shown = ratio > 0 ? "+inf" : "-inf";
    else if (!std::isnan(ratio)) shown = (ratio >= 0 ? "+" : "") + report::format_fixed(ratio * 100.0, 2);
    return report::html::number_cell(key, ratio, shown);
}

// "no difference" -> "no-difference": the class that colours the verdict word.
std::string verdict_class(const std::string& verdict) {
    std::string out = "verdict-";
    for (const char c : verdict) out += c == ' ' ? '-' : c;
    return out;
}

}  // namespace

std::string render_comparison_html(const ReportComparison& c, const ComparisonPageInput& input, const CompareOptions& options) {
    std::string out = report::html::begin_page(
        "gpuchrono comparison",
        {{"Base", describe(input.base_file, input.base)},
         {"New", describe(input.next_file, input.next)},
         {"Threshold", report::format_fixed(options.threshold * 100, 2) + "% (smaller changes count as no difference)"},
         {"Confidence", report::format_fixed(options.confidence * 100, 1) + "%"},
         {"Command", input.command}});

    std::size_t counts[4] = {0, 0, 0, 0};  // faster, slower, no difference, inconclusive
    for (const SeriesComparison& r : c.rows)
        if (r.comparison) ++counts[static_cast<int>(r.comparison->verdict)];
    out += "<nav class=\"toc\" aria-label=\"Contents\"><strong>Contents</strong><ol><li><a href=\"#summary\">Summary</a></li>"
           "<li><a href=\"#series\">Series</a></li><li><a href=\"#text-report\">Text report</a></li></ol></nav>\n";
    out += "<section id=\"summary\"><h2>Summary</h2>\n<ul class=\"verdicts\">\n";
    out += "<li><span class=\"badge verdict-slower\">slower</span> " + std::to_string(counts[1]) + "</li>\n";
    out += "<li><span class=\"badge verdict-faster\">faster</span> " + std::to_string(counts[0]) + "</li>\n";
    out += "<li><span class=\"badge verdict-no-difference\">no difference</span> " + std::to_string(counts[2]) + "</li>\n";
    out += "<li><span class=\"badge verdict-inconclusive\">inconclusive</span> " + std::to_string(counts[3]) + "</li>\n";
    out += "<li><span class=\"badge verdict-not-compared\">not compared</span> " + std::to_string(c.problems()) + "</li>\n</ul>\n";
    out += std::string("<p>") + (c.slower() ? "Some series got slower: the gate fails." :
                                 c.problems() ? "Nothing got slower, but some series could not be compared." :
                                                "Nothing got slower.") + "</p>\n</section>\n";

    // One unit for both median columns, so before and after read side by side.
    std::vector<double> medians;
    for (const SeriesComparison& r : c.rows)
        if (r.comparison) {
            medians.push_back(r.comparison->median_a.ns());
            medians.push_back(r.comparison->median_b.ns());
        }
    const report::TimeUnit unit = report::time_unit_for(medians);
    std::vector<double> scaled;
    for (const double v : medians) scaled.push_back(v / unit.ns_per_unit);
    const int decimals = report::decimals_for(scaled, unit);
    const std::string u = unit.name;

    out += "<section id=\"series\"><h2>Series</h2>\n<div class=\"scroll\"><table class=\"comparison\"><caption>Change of NEW "
           "against BASE (Hodges-Lehmann) with its confidence interval, Mann-Whitney p-value</caption>\n<thead><tr>"
           "<th scope=\"col\">experiment</th><th scope=\"col\">series</th><th scope=\"col\" data-unit=\"" + u + "\">base median [" + u +
           "]</th><th scope=\"col\" data-unit=\"" + u + "\">new median [" + u + "]</th><th scope=\"col\">change [%]</th>"
           "<th scope=\"col\">CI low [%]</th><th scope=\"col\">CI high [%]</th><th scope=\"col\">p-value</th>"
           "<th scope=\"col\">verdict</th><th scope=\"col\">why</th></tr></thead>\n<tbody>\n";
    for (const SeriesComparison& r : c.rows) {
        out += "<tr data-experiment=\"" + escape(r.experiment) + "\" data-series=\"" + escape(r.series) + "\"><td>" + escape(r.experiment) +
               "</td><td>" + escape(r.series) + "</td>";
        if (!r.comparison) {
            out += "<td class=\"num\">-</td><td class=\"num\">-</td><td class=\"num\">-</td><td class=\"num\">-</td><td class=\"num\">-</td>"
                   "<td class=\"num\">-</td><td class=\"verdict verdict-not-compared\">not compared</td><td class=\"why\">" + escape(r.problem) + "</td></tr>\n";
            continue;
        }
        const Comparison& k = *r.comparison;
        const std::string verdict = to_string(k.verdict);
        std::string why = k.reason;
        for (const std::string& n : k.notes) why += "; " + n;
        out += report::html::number_cell("base_median_ns", k.median_a.ns(), report::format_fixed(k.median_a.ns() / unit.ns_per_unit, decimals)) +
               report::html::number_cell("new_median_ns", k.median_b.ns(), report::format_fixed(k.median_b.ns() / unit.ns_per_unit, decimals)) +
               percent_cell("change", k.change) + percent_cell("change_low", k.change_low) + percent_cell("change_high", k.change_high) +
               report::html::number_cell("p_value", k.p_value, report::format_number(k.p_value, 3)) + "<td class=\"verdict " +
               verdict_class(verdict) + "\">" + escape(verdict) + "</td><td class=\"why\">" + escape(why) + "</td></tr>\n";
    }
    out += "</tbody></table></div>\n</section>\n";
    out += "<section id=\"text-report\"><h2>Text report</h2>\n" +
           report::html::folded_text("The comparison as gpuchrono compare prints it, with the hardware-metric changes",
                                     render_comparison(c, options)) + "</section>\n";
    return out + report::html::end_page();
}

}  // namespace gpuchrono
