// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "job/job_html.hpp"

#include "report/render/lateness_svg.hpp"
#include "job/straggler_text.hpp"
#include "report/render/html_page.hpp"
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/units.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace gpuchrono::distributed {

namespace {

namespace html = report::html;
using html::escape;

std::string ms_cell(const std::string& key, double ns) { return html::number_cell(key, ns, report::format_fixed(ns / 1e6, 3)); }

std::string scope_id(const ScopeStragglers& s, std::size_t i) { return "scope-" + std::to_string(i + 1) + "-" + report::slug(s.name); }

// "rank 2 was last in 3 of 10 steps, 9.000 ms late in all"; empty when no rank was ever last.
std::string straggler_line(const ScopeStragglers& s) {
    if (s.times_last.empty()) return {};
    const auto most = std::max_element(s.times_last.begin(), s.times_last.end());
    if (*most == 0) return "no rank ended last more often than the others (" + std::to_string(s.steps.size()) + " steps)";
    const std::size_t i = static_cast<std::size_t>(most - s.times_last.begin());
    return "rank " + std::to_string(s.ranks[i]) + " ended last in " + std::to_string(*most) + " of " + std::to_string(s.steps.size()) +
           " steps, " + report::format_fixed(static_cast<double>(s.total_lateness_ns[i]) / 1e6, 3) + " ms late in all";
}

}  // namespace

std::string render_job_html(const MergedJob& job, const std::string& command) {
    std::string out = html::begin_page(
        "gpuchrono job " + job.job_id,
        {{"Job", job.job_id},
         {"Ranks", std::to_string(job.ranks.size()) + " of world size " + std::to_string(job.world_size)},
         {"Job clock", to_string(job.clock)},
         {"Alignment error bound", report::format_fixed(job.alignment_error_ns / 1e3, 1) + " us"},
         {"Command", command}});

    out += "<nav class=\"toc\" aria-label=\"Contents\"><strong>Contents</strong><ol>\n<li><a href=\"#summary\">Summary</a></li>\n"
           "<li><a href=\"#ranks\">Ranks</a></li>\n";
    for (std::size_t i = 0; i < job.stragglers.size(); ++i)
        out += "<li><a href=\"#" + scope_id(job.stragglers[i], i) + "\">Scope " + escape(job.stragglers[i].name) + "</a></li>\n";
    if (!job.collectives.empty()) out += "<li><a href=\"#collectives\">Collectives</a></li>\n";
    out += "<li><a href=\"#text-report\">Text report</a></li>\n</ol></nav>\n";

    out += "<section id=\"summary\"><h2>Summary</h2>\n<p>" + escape(job.alignment_note) + "</p>\n<ul>\n";
    for (const ScopeStragglers& s : job.stragglers) out += "<li>Scope <code>" + escape(s.name) + "</code>: " + escape(straggler_line(s)) + "</li>\n";
    out += "</ul>\n";
    for (const std::string& n : job.notes) out += "<p class=\"muted\">" + escape(n) + "</p>\n";
    out += "</section>\n";

    out += "<section id=\"ranks\"><h2>Ranks</h2>\n<div class=\"scroll\"><table class=\"ranks\"><caption>Each rank's clock on the job "
           "clock and what it recorded</caption>\n<thead><tr><th scope=\"col\">rank</th><th scope=\"col\">host</th><th scope=\"col\">pid</th>"
           "<th scope=\"col\">file</th><th scope=\"col\">offset [ms]</th><th scope=\"col\">drift [ppm]</th><th scope=\"col\">error [us]</th>"
           "<th scope=\"col\">scopes</th><th scope=\"col\">activities</th><th scope=\"col\">comm/compute overlap</th></tr></thead>\n<tbody>\n";
    for (const MergedRank& r : job.ranks) {
        const double overlap = r.overlap.fraction();
        out += "<tr data-rank=\"" + std::to_string(r.identity.rank) + "\">" + html::number_cell("rank", r.identity.rank, std::to_string(r.identity.rank)) +
               "<td>" + escape(r.identity.host) + "</td>" + html::number_cell("pid", static_cast<double>(r.identity.pid), std::to_string(r.identity.pid)) +
               "<td>" + escape(r.file) + "</td>" + ms_cell("offset_ns", r.offset_ns) +
               html::number_cell("drift_ppm", r.drift_ppm, report::format_fixed(r.drift_ppm, 3)) +
               html::number_cell("error_ns", r.error_ns, report::format_fixed(r.error_ns / 1e3, 2)) +
               html::number_cell("scopes", static_cast<double>(r.scopes), std::to_string(r.scopes)) +
               html::number_cell("activities", static_cast<double>(r.activities), std::to_string(r.activities)) +
               html::number_cell("overlap", overlap, std::isnan(overlap) ? "-" : report::format_fixed(overlap * 100, 1) + "%") + "</tr>\n";
    }
    out += "</tbody></table></div>\n</section>\n";

    for (std::size_t i = 0; i < job.stragglers.size(); ++i) {
        const ScopeStragglers& s = job.stragglers[i];
        out += "<section id=\"" + scope_id(s, i) + "\"><h2>Scope " + escape(s.name) + "</h2>\n<p>" + escape(straggler_line(s)) + "</p>\n";
        if (!s.note.empty()) out += "<p class=\"muted\">" + escape(s.note) + "</p>\n";
        out += "<div class=\"scroll\"><table class=\"stragglers\"><caption>Per rank over " + std::to_string(s.steps.size()) +
               " steps</caption>\n<thead><tr><th scope=\"col\">rank</th><th scope=\"col\">times last</th><th scope=\"col\">total lateness [ms]</th>"
               "</tr></thead>\n<tbody>\n";
        for (std::size_t k = 0; k < s.ranks.size(); ++k)
            out += "<tr data-scope=\"" + escape(s.name) + "\" data-rank=\"" + std::to_string(s.ranks[k]) + "\">" +
                   html::number_cell("rank", s.ranks[k], std::to_string(s.ranks[k])) +
                   html::number_cell("times_last", k < s.times_last.size() ? s.times_last[k] : report::not_measured,
                                     k < s.times_last.size() ? std::to_string(s.times_last[k]) : "-") +
                   ms_cell("total_lateness_ns", k < s.total_lateness_ns.size() ? static_cast<double>(s.total_lateness_ns[k]) : report::not_measured) +
                   "</tr>\n";
        out += "</tbody></table></div>\n";
        const std::string caption = "Lateness heat map of " + s.name + ": one row per rank, one column per step, darker is later";
        out += "<figure>" + html::picture("", render_lateness_svg(s), caption) + "<figcaption>" + escape(caption) + "</figcaption></figure>\n</section>\n";
    }

    if (!job.collectives.empty()) {
        out += "<section id=\"collectives\"><h2>Collectives</h2>\n<div class=\"scroll\"><table class=\"collectives\"><caption>NCCL "
               "kernels: time waiting for the last rank versus transferring, per rank, summed over the calls</caption>\n<thead><tr>"
               "<th scope=\"col\">collective</th><th scope=\"col\">calls</th><th scope=\"col\">rank</th><th scope=\"col\">wait [ms]</th>"
               "<th scope=\"col\">transfer [ms]</th></tr></thead>\n<tbody>\n";
        for (const CollectiveSplit& c : job.collectives)
            for (std::size_t k = 0; k < c.ranks.size(); ++k)
                out += "<tr><td>" + escape(c.collective) + "</td>" + html::number_cell("calls", static_cast<double>(c.calls), std::to_string(c.calls)) +
                       html::number_cell("rank", c.ranks[k], std::to_string(c.ranks[k])) +
                       ms_cell("wait_ns", k < c.wait_ns.size() ? static_cast<double>(c.wait_ns[k]) : report::not_measured) +
                       ms_cell("transfer_ns", k < c.transfer_ns.size() ? static_cast<double>(c.transfer_ns[k]) : report::not_measured) + "</tr>\n";
        out += "</tbody></table></div>\n</section>\n";
    }
    out += "<section id=\"text-report\"><h2>Text report</h2>\n" + html::folded_text("The job as gpuchrono merge prints it", render_job_text(job)) +
           "</section>\n";
    return out + html::end_page();
}

}  // namespace gpuchrono::distributed
