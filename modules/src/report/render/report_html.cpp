// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/report_html.hpp"

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/stats/stopping_rule.hpp>
#include "report/render/html_page.hpp"
#include "report/render/roofline_svg.hpp"
#include <gpuchrono/report/render/units.hpp>

#include "throughput_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono::report {

namespace {

using html::escape;

// One column of durations in one unit (chosen from its values, as the text report does); the unit goes into
// the header, the exact ns into each cell's data-value.
struct TimeColumn {
    std::string header;
    std::vector<std::string> cells;
};

TimeColumn time_column(const std::string& header, const std::string& key, const std::vector<double>& ns) {
    const TimeUnit unit = time_unit_for(ns);
    std::vector<double> scaled;
    for (const double v : ns) scaled.push_back(v / unit.ns_per_unit);
    const int decimals = decimals_for(scaled, unit);
    TimeColumn c{"<th scope=\"col\" data-unit=\"" + std::string(unit.name) + "\">" + escape(header) + " [" + unit.name + "]</th>", {}};
    // A figure too long for a cell (a corrupt or synthetic sample of 1e300 ns) reads in exponent form.
    for (std::size_t i = 0; i < ns.size(); ++i)
        c.cells.push_back(html::number_cell(key, ns[i], std::fabs(scaled[i]) >= 1e9 ? format_number(scaled[i], 4) : format_fixed(scaled[i], decimals)));
    return c;
}

// A table built column by column, like the text report's: text columns and duration columns mixed.
class Table {
public:
    explicit Table(std::string caption, std::string cls = {}) : caption_(std::move(caption)), class_(std::move(cls)) {}
    void text(const std::string& header, const std::vector<std::string>& cells) {
        std::vector<std::string> tds;
        for (const auto& c : cells) tds.push_back("<td>" + escape(c) + "</td>");
        columns_.push_back({"<th scope=\"col\">" + escape(header) + "</th>", std::move(tds)});
    }
    void raw(const std::string& header, std::vector<std::string> tds) {
        columns_.push_back({"<th scope=\"col\">" + escape(header) + "</th>", std::move(tds)});
    }
    void times(const std::string& header, const std::string& key, const std::vector<double>& ns) {
        TimeColumn c = time_column(header, key, ns);
        columns_.push_back({std::move(c.header), std::move(c.cells)});
    }
    void numbers(const std::string& header, const std::string& key, const std::vector<double>& values, int significant = 3) {
        std::vector<std::string> tds;
        for (const double v : values) tds.push_back(html::number_cell(key, v, format_number(v, significant)));
        columns_.push_back({"<th scope=\"col\">" + escape(header) + "</th>", std::move(tds)});
    }
    // Attributes for each row's <tr> (data-experiment, data-series), so a script finds the row's source.
    void row_attributes(std::vector<std::string> attributes) { rows_ = std::move(attributes); }

    std::string render() const {
        if (columns_.empty() || columns_.front().cells.empty()) return {};
        std::string out = "<div class=\"scroll\"><table" + (class_.empty() ? "" : " class=\"" + class_ + "\"") + ">";
        if (!caption_.empty()) out += "<caption>" + escape(caption_) + "</caption>";
        out += "\n<thead><tr>";
        for (const auto& c : columns_) out += c.header;
        out += "</tr></thead>\n<tbody>\n";
        for (std::size_t r = 0; r < columns_.front().cells.size(); ++r) {
            out += "<tr" + (r < rows_.size() ? rows_[r] : std::string()) + ">";
            for (const auto& c : columns_) out += c.cells[r];
            out += "</tr>\n";
        }
        return out + "</tbody></table></div>\n";
    }

private:
    struct Column {
        std::string header;
        std::vector<std::string> cells;
    };
    std::string caption_, class_;
    std::vector<Column> columns_;
    std::vector<std::string> rows_;
};

std::string series_attributes(const Experiment& e, const SampleSeries& s) {
    return " data-experiment=\"" + escape(e.id) + "\" data-series=\"" + escape(s.name) + "\"";
}

// The confidence interval of the median: measure()'s own, else the same order-statistics interval over the
// saved samples.
struct MedianCi {
    double low = not_measured, high = not_measured, coverage = not_measured;
    bool from_measure = false;
};

MedianCi median_ci(const SampleSeries& s) {
    if (s.measure && std::isfinite(s.measure->ci_low_ns))
        return {s.measure->ci_low_ns, s.measure->ci_high_ns, s.measure->ci_coverage, true};
    std::vector<double> ns;
    for (const Duration d : s.samples)
        if (!std::isnan(d.ns())) ns.push_back(d.ns());
    if (ns.empty()) return {};
    const MedianInterval i = median_interval(ns, 0.95);
    return {i.low_ns, i.high_ns, i.coverage, false};
}

// The median with its confidence interval as three table columns, under the same headings and data keys in the
// summary and in each experiment's series table, so that the page reads (and its checks find) them alike.
struct MedianCiColumns {
    std::vector<double> median, low, high;
    void add(const SampleSeries& s, const MedianCi& ci) {
        median.push_back(s.stats.median.ns());
        low.push_back(ci.low);
        high.push_back(ci.high);
    }
    void put(Table& t) const {
        t.times("median", "median_ns", median);
        t.times("CI low", "ci_low_ns", low);
        t.times("CI high", "ci_high_ns", high);
    }
};

std::string percent(double ratio) {
    return std::isfinite(ratio) ? format_fixed(ratio * 100.0, ratio < 0.1 ? 2 : 1) + "%" : std::string("-");
}

const char* worst_class(const Findings& findings) {
    bool warning = false, info = false;
    for (const Finding& f : findings) {
        if (f.severity == Severity::error) return "sev-error";
        warning |= f.severity == Severity::warning;
        info |= f.severity == Severity::info;
    }
    return warning ? "sev-warning" : info ? "sev-info" : "";
}

std::string codes_cell(const Findings& findings, const std::map<const Finding*, std::string>& anchors) {
    if (findings.empty()) return "<td>-</td>";
    std::string out = std::string("<td class=\"") + worst_class(findings) + "\">";
    for (std::size_t i = 0; i < findings.size(); ++i) {
        const auto a = anchors.find(&findings[i]);
        out += (i ? ", " : "") + (a == anchors.end() ? escape(findings[i].code)
                                                       : "<a href=\"#" + a->second + "\">" + escape(findings[i].code) + "</a>");
    }
    return out + "</td>";
}

// A finding as one line with its severity as a word, unfolding to what it means, the fix, where it was seen
// and the numbers behind it.
std::string finding_html(const Finding& f, const std::string& anchor, const std::string& context) {
    const char* severity = to_string(f.severity);
    std::string out = "<li class=\"sev-" + std::string(severity) + "\"><details class=\"finding\" id=\"" + anchor +
                      "\"><summary><span class=\"badge\">" + severity + "</span> <code>" + escape(f.code) + "</code> " +
                      (context.empty() ? "" : "<span class=\"muted\">" + escape(context) + ":</span> ") + escape(f.message) +
                      "</summary>\n<div>";
    if (const FindingKind* kind = find_finding_kind(f.code)) {
        out += "<p><strong>What it means:</strong> " + escape(kind->summary);
        if (kind->pitfall_row > 0) out += " (docs/pitfalls-catalog.md, row " + std::to_string(kind->pitfall_row) + ")";
        out += "</p>";
    }
    if (!f.fix.empty()) out += "<p><strong>Fix:</strong> " + escape(f.fix) + "</p>";
    if (!f.where.empty()) out += "<p><strong>Where:</strong> <code>" + escape(f.where) + "</code></p>";
    if (!f.evidence.empty()) {
        out += "<p><strong>Evidence:</strong> ";
        for (std::size_t i = 0; i < f.evidence.size(); ++i)
            out += (i ? ", " : "") + escape(f.evidence[i].name) + " = <span data-value=\"" + html::exact(f.evidence[i].value) +
                   "\">" + escape(format_number(f.evidence[i].value, 6)) + "</span>";
        out += "</p>";
    }
    return out + "</div></details></li>\n";
}

// Every finding of the report with the anchor its line gets and where it came from, errors first.
struct FindingRef {
    const Finding* finding;
    std::string anchor;
    std::string context;  // "experiment / series"
};

std::vector<FindingRef> all_findings(const Report& report) {
    std::vector<FindingRef> refs;
    for (const Experiment& e : report.experiments) {
        for (const Finding& f : e.findings) refs.push_back({&f, "", e.title});
        for (const SampleSeries& s : e.series)
            for (const Finding& f : s.findings) refs.push_back({&f, "", e.title + " / " + s.name});
    }
    for (std::size_t i = 0; i < refs.size(); ++i) refs[i].anchor = "finding-" + std::to_string(i + 1);
    std::stable_sort(refs.begin(), refs.end(), [](const FindingRef& a, const FindingRef& b) {
        return static_cast<int>(a.finding->severity) > static_cast<int>(b.finding->severity);
    });
    return refs;
}

std::string section_id(const Experiment& e, std::size_t index) { return "exp-" + std::to_string(index + 1) + "-" + slug(e.id); }

// What a heading or a table calls an experiment: its title, else its id, else its place.
std::string experiment_name(const Experiment& e, std::size_t index) {
    return !e.title.empty() ? e.title : !e.id.empty() ? e.id : "Experiment " + std::to_string(index + 1);
}

std::string summary_table(const Report& report, const std::map<const Finding*, std::string>& anchors) {
    Table t("Results: the median of every series with the 95% confidence interval of the median", "summary");
    std::vector<std::string> experiments, names, counts, ci_cov, finding_cells, rows;
    MedianCiColumns median_columns;
    for (const Experiment& e : report.experiments)
        for (const SampleSeries& s : e.series) {
            const MedianCi ci = median_ci(s);
            experiments.push_back(e.title.empty() ? e.id : e.title);
            names.push_back(s.name);
            counts.push_back(html::number_cell("count", static_cast<double>(s.stats.count), std::to_string(s.stats.count)));
            median_columns.add(s, ci);
            ci_cov.push_back(percent(ci.coverage) + (ci.from_measure ? " (measure)" : std::isnan(ci.low) ? "" : " (samples)"));
            finding_cells.push_back(codes_cell(s.findings, anchors));
            rows.push_back(series_attributes(e, s));
        }
    if (names.empty()) return "<p class=\"muted\">This report holds no timed series.</p>\n";
    t.text("experiment", experiments);
    t.text("series", names);
    t.raw("n", counts);
    median_columns.put(t);
    t.text("coverage", ci_cov);
    t.raw("findings", finding_cells);
    t.row_attributes(rows);
    return t.render();
}

std::string metrics_table(const std::vector<const Experiment*>& experiments, bool with_experiment) {
    std::vector<std::string> exp, names, values, notes, rows;
    for (const Experiment* e : experiments)
        for (const Metric& m : e->metrics) {
            exp.push_back(e->title.empty() ? e->id : e->title);
            names.push_back(m.name);
            values.push_back(html::number_cell("value", m.value, format_with_unit(m.value, m.unit)));
            notes.push_back(m.note);
            rows.push_back(" data-experiment=\"" + escape(e->id) + "\" data-metric=\"" + escape(m.name) + "\"");
        }
    if (names.empty()) return {};
    Table t("Results");
    if (with_experiment) t.text("experiment", exp);
    t.text("result", names);
    t.raw("value", values);
    t.text("note", notes);
    t.row_attributes(rows);
    return t.render();
}

std::string series_table(const Experiment& e, const std::map<const Finding*, std::string>& anchors) {
    if (e.series.empty()) return {};
    Table t("Series: every timed scope's statistics");
    std::vector<std::string> names, policies, counts, failed, finding_cells, rows;
    MedianCiColumns median_columns;
    std::vector<double> min, mean, p95, max, cv;
    for (const SampleSeries& s : e.series) {
        const MedianCi ci = median_ci(s);
        names.push_back(s.name);
        policies.push_back(s.policy);
        counts.push_back(html::number_cell("count", static_cast<double>(s.stats.count), std::to_string(s.stats.count)));
        failed.push_back(html::number_cell("failed", static_cast<double>(s.failed), std::to_string(s.failed)));
        median_columns.add(s, ci);
        min.push_back(s.stats.min.ns());
        mean.push_back(s.stats.mean.ns());
        p95.push_back(s.stats.p95.ns());
        max.push_back(s.stats.max.ns());
        cv.push_back(s.stats.cv * 100.0);
        finding_cells.push_back(codes_cell(s.findings, anchors));
        rows.push_back(series_attributes(e, s));
    }
    t.text("series", names);
    t.text("policy", policies);
    t.raw("n", counts);
    t.raw("failed", failed);
    median_columns.put(t);
    t.times("min", "min_ns", min);
    t.times("mean", "mean_ns", mean);
    t.times("p95", "p95_ns", p95);
    t.times("max", "max_ns", max);
    t.numbers("cv [%]", "cv_percent", cv, 2);
    t.raw("findings", finding_cells);
    t.row_attributes(rows);
    return t.render();
}

// measure()'s record of how each series was taken, one line each.
std::string measure_list(const Experiment& e) {
    std::string out;
    for (const SampleSeries& s : e.series) {
        if (!s.measure) continue;
        const MeasureSummary& m = *s.measure;
        std::string line = "method " + m.method + (m.calls_per_sample > 1 ? " (" + std::to_string(m.calls_per_sample) + " calls per sample)" : "") +
                           ", " + m.cache_state + " L2" + (m.method_note.empty() ? "" : " (" + m.method_note + ")") + "; warm-up " +
                           to_string(Duration::from_ns(m.warmup_ns)) + ", " + std::to_string(m.warmup_calls) + " calls: " +
                           m.warmup_ended + "; stopped: " + m.stop_reason + " after " + to_string(Duration::from_ns(m.sampling_ns));
        if (m.flagged > 0) line += "; " + std::to_string(m.flagged) + " samples under a low or capped SM clock";
        line += throughput_text(m, percent);
        out += "<li><strong>" + escape(s.name) + "</strong>: " + escape(line) + "</li>\n";
    }
    return out.empty() ? out : "<h3>How measure() took them</h3>\n<ul>\n" + out + "</ul>\n";
}

// Hardware metrics: one table per series, a row per kernel launch, a column per metric (its unit in the header).
std::string kernel_metrics_tables(const Experiment& e) {
    std::string out;
    for (const SampleSeries& s : e.series) {
        if (!s.kernel_metrics || s.kernel_metrics->kernels.empty()) continue;
        const metrics::MetricsResult& r = *s.kernel_metrics;
        std::vector<std::pair<std::string, std::string>> columns;  // (name, unit) in first-seen order
        for (const auto& k : r.kernels)
            for (const auto& v : k.values)
                if (std::find_if(columns.begin(), columns.end(), [&](const auto& c) { return c.first == v.name; }) == columns.end())
                    columns.emplace_back(v.name, v.unit);
        std::string table = "<div class=\"scroll\"><table class=\"kernel-metrics\"><caption>Hardware metrics: " + escape(s.name) +
                            "</caption>\n<thead><tr><th scope=\"col\">kernel</th><th scope=\"col\">launch</th>";
        for (const auto& [name, unit] : columns)
            table += "<th scope=\"col\">" + escape(name) + (unit.empty() ? "" : " [" + escape(unit) + "]") + "</th>";
        table += "</tr></thead>\n<tbody>\n";
        for (const auto& k : r.kernels) {
            table += "<tr data-series=\"" + escape(s.name) + "\"><td>" + escape(k.kernel) + "</td>" +
                     html::number_cell("launch", static_cast<double>(k.launch), std::to_string(k.launch));
            for (const auto& [name, unit] : columns) {
                const metrics::MetricValue* v = k.find(name);
                const double value = v ? v->value : not_measured;
                table += html::number_cell(name, value, format_number(value, 4));
            }
            table += "</tr>\n";
        }
        out += table + "</tbody></table></div>\n";
        for (const std::string& note : r.notes) out += "<p class=\"muted\">" + escape(note) + "</p>\n";
    }
    return out;
}

std::string findings_list(const std::vector<FindingRef>& refs) {
    std::string out = "<ul class=\"findings\">\n";
    for (const FindingRef& r : refs) out += finding_html(*r.finding, r.anchor, r.context);
    return out + "</ul>\n";
}

std::string device_table(const DeviceInfo& d) {
    std::vector<std::pair<std::string, std::string>> rows = {
        {"name", d.name},
        {"index", d.index >= 0 ? std::to_string(d.index) : ""},
        {"compute capability", d.compute_major ? std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor) : ""},
        {"SMs", d.sm_count ? std::to_string(d.sm_count) : ""},
        {"SM clock (nominal)", std::isnan(d.sm_clock_nominal_mhz) ? "" : format_fixed(d.sm_clock_nominal_mhz, 0) + " MHz"},
        {"SM clock (measured)", std::isnan(d.sm_clock_measured_mhz) ? "" : format_fixed(d.sm_clock_measured_mhz, 0) + " MHz"},
        {"memory clock", std::isnan(d.memory_clock_mhz) ? "" : format_fixed(d.memory_clock_mhz, 0) + " MHz"},
        {"memory bus", d.memory_bus_bits ? std::to_string(d.memory_bus_bits) + " bits" : ""},
        {"global memory", d.global_memory_bytes ? format_bytes(static_cast<double>(d.global_memory_bytes)) : ""},
        {"L2", d.l2_bytes ? format_bytes(static_cast<double>(d.l2_bytes)) : ""},
        {"%globaltimer step", std::isnan(d.globaltimer_step_ns) ? "" : format_number(d.globaltimer_step_ns) + " ns"},
        {"driver", d.driver_version ? cuda_version_string(d.driver_version) : ""},
        {"runtime", d.runtime_version ? cuda_version_string(d.runtime_version) : ""},
    };
    std::string out = "<div class=\"scroll\"><table class=\"device\"><tbody>\n";
    for (const auto& [name, value] : rows)
        if (!value.empty()) out += "<tr><th scope=\"row\">" + escape(name) + "</th><td>" + escape(value) + "</td></tr>\n";
    return out + "</tbody></table></div>\n";
}

std::string device_line(const DeviceInfo& d) {
    if (d.name.empty()) return "not recorded";
    std::string out = d.name;
    if (d.compute_major) out += ", sm_" + std::to_string(d.compute_major) + std::to_string(d.compute_minor);
    if (d.sm_count) out += ", " + std::to_string(d.sm_count) + " SMs";
    if (d.index >= 0) out += " (device " + std::to_string(d.index) + ")";
    return out;
}

}  // namespace

std::string render_report_html(const Report& report, const std::vector<HtmlPicture>& pictures, const std::string& text,
                               const HtmlPageOptions& options) {
    std::string out = html::begin_page("gpuchrono report", {{"Device", device_line(report.device)},
                                                            {"Date", report.created_utc},
                                                            {"Version", report.generator},
                                                            {"Host", report.host},
                                                            {"Command", options.command}});

    const std::vector<FindingRef> findings = all_findings(report);
    std::map<const Finding*, std::string> anchors;
    std::size_t by_severity[3] = {0, 0, 0};
    for (const FindingRef& r : findings) {
        anchors[r.finding] = r.anchor;
        ++by_severity[static_cast<int>(r.finding->severity)];
    }

    // Contents.
    out += "<nav class=\"toc\" aria-label=\"Contents\"><strong>Contents</strong><ol>\n<li><a href=\"#summary\">Summary</a></li>\n";
    for (std::size_t i = 0; i < report.experiments.size(); ++i) {
        const Experiment& e = report.experiments[i];
        out += "<li><a href=\"#" + section_id(e, i) + "\">" + escape(experiment_name(e, i)) + "</a></li>\n";
    }
    if (!report.notes.empty()) out += "<li><a href=\"#notes\">Notes</a></li>\n";
    out += "<li><a href=\"#device\">Device</a></li>\n<li><a href=\"#text-report\">Text report</a></li>\n</ol></nav>\n";

    // Summary: results first, then what to distrust.
    std::vector<const Experiment*> all;
    for (const Experiment& e : report.experiments) all.push_back(&e);
    out += "<section id=\"summary\"><h2>Summary</h2>\n";
    if (report.experiments.empty()) out += "<p class=\"muted\">This report holds no experiments.</p>\n";
    else out += summary_table(report, anchors) + metrics_table(all, true);
    out += "<h3>Findings</h3>\n";
    if (findings.empty()) {
        out += "<p>No findings: nothing seen that makes these numbers suspect.</p>\n";
    } else {
        out += "<p>" + std::to_string(by_severity[2]) + " error" + (by_severity[2] == 1 ? "" : "s") + ", " + std::to_string(by_severity[1]) +
               " warning" + (by_severity[1] == 1 ? "" : "s") + ", " + std::to_string(by_severity[0]) +
               " info. Click one to see what it means and the fix.</p>\n" + findings_list(findings);
    }
    out += "</section>\n";

    for (std::size_t i = 0; i < report.experiments.size(); ++i) {
        const Experiment& e = report.experiments[i];
        out += "<section id=\"" + section_id(e, i) + "\"><h2>" + escape(experiment_name(e, i)) + "</h2>\n";
        if (!e.reproduces.empty()) out += "<p class=\"muted\">Reproduces seed experiment " + escape(e.reproduces) + ".</p>\n";
        for (const std::string& p : e.explanation)
            if (!p.empty()) out += "<p>" + escape(p) + "</p>\n";
        if (e.metrics.empty() && e.series.empty() && e.timelines.empty() && e.sweeps.empty())
            out += "<p class=\"muted\">This experiment holds no results.</p>\n";
        out += metrics_table({&e}, false) + series_table(e, anchors) + measure_list(e) + kernel_metrics_tables(e);
        std::vector<FindingRef> own;
        for (const FindingRef& r : findings) {
            bool mine = std::any_of(e.findings.begin(), e.findings.end(), [&](const Finding& f) { return &f == r.finding; });
            for (const SampleSeries& s : e.series)
                mine |= std::any_of(s.findings.begin(), s.findings.end(), [&](const Finding& f) { return &f == r.finding; });
            if (mine) own.push_back(r);
        }
        if (!own.empty()) {
            out += "<h3>Findings</h3>\n<ul class=\"findings\">\n";
            for (const FindingRef& r : own)
                out += "<li class=\"sev-" + std::string(to_string(r.finding->severity)) + "\"><span class=\"badge\">" +
                       to_string(r.finding->severity) + "</span> <a href=\"#" + r.anchor + "\"><code>" + escape(r.finding->code) +
                       "</code></a> " + escape(r.finding->message) + "</li>\n";
            out += "</ul>\n";
        }
        for (const HtmlPicture& p : pictures) {
            if (p.experiment_id != e.id) continue;
            out += "<figure>" + (options.single_file ? html::picture(p.file, p.svg, p.caption)
                                                     : "<a href=\"" + escape(p.file) + "\">" + html::picture(p.file, "", p.caption) + "</a>") +
                   "<figcaption>" + escape(p.caption) + "</figcaption></figure>\n";
        }
        out += "</section>\n";
    }

    if (!report.notes.empty()) {
        out += "<section id=\"notes\"><h2>Notes</h2>\n<ul>\n";
        for (const std::string& n : report.notes)
            if (!n.empty()) out += "<li>" + escape(n) + "</li>\n";
        out += "</ul></section>\n";
    }
    out += "<section id=\"device\"><h2>Device</h2>\n" + device_table(report.device) + "</section>\n";
    out += "<section id=\"text-report\"><h2>Text report</h2>\n" + html::folded_text("The report as the terminal prints it", text);
    if (options.trace)
        out += "<p>Per-block records and GPU activities as a trace: open <code>trace.json</code> (beside this page) in "
               "<code>https://ui.perfetto.dev</code>.</p>\n";
    out += "</section>\n";
    return out + html::end_page();
}

}  // namespace gpuchrono::report
