// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/compare/report_comparison.hpp"

#include "measure/change_text.hpp"

#include "report/render/text_table.hpp"

#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpuchrono {

namespace {

std::vector<double> samples_ns(const report::SampleSeries& s) {
    std::vector<double> v;
    v.reserve(s.samples.size());
    for (const Duration d : s.samples) v.push_back(d.ns());
    return v;
}

}  // namespace

std::size_t ReportComparison::slower() const noexcept {
    std::size_t n = 0;
    for (const SeriesComparison& r : rows) n += r.comparison && r.comparison->verdict == Verdict::slower;
    return n;
}

std::size_t ReportComparison::problems() const noexcept {
    std::size_t n = 0;
    for (const SeriesComparison& r : rows) n += !r.comparison;
    return n;
}

SeriesOrigin origin_of(const report::Report& r, const report::SampleSeries& s) {
    SeriesOrigin o;
    o.method = s.measure ? s.measure->method : s.policy;
    o.cache = s.measure ? s.measure->cache_state : "unknown";
    o.device = r.device.name.empty() ? "device " + std::to_string(r.device.index)
                                     : r.device.name + " (device " + std::to_string(r.device.index) + ")";
    return o;
}

ReportComparison compare_reports(const report::Report& base, const report::Report& next, const CompareOptions& options) {
    options.validate();
    std::map<std::pair<std::string, std::string>, const report::SampleSeries*> in_next;
    for (const report::Experiment& e : next.experiments)
        for (const report::SampleSeries& s : e.series) in_next.emplace(std::pair{e.id, s.name}, &s);
    std::set<std::pair<std::string, std::string>> seen;

    ReportComparison out;
    for (const report::Experiment& e : base.experiments) {
        for (const report::SampleSeries& a : e.series) {
            SeriesComparison row{e.id, a.name, std::nullopt, {}, std::nullopt};
            const auto key = std::pair{e.id, a.name};
            if (!seen.insert(key).second) {
                row.problem = "the base report holds this series twice";
                out.rows.push_back(std::move(row));
                continue;
            }
            const auto found = in_next.find(key);
            if (found == in_next.end()) {
                row.problem = "only in the base report";
            } else if (a.samples.empty() || found->second->samples.empty()) {
                row.problem = std::string("no samples in the ") + (a.samples.empty() ? "base" : "new") + " report";
            } else {
                try {
                    std::vector<std::string> notes = check_comparable(origin_of(base, a), origin_of(next, *found->second), options);
                    Comparison c = compare_samples(samples_ns(a), samples_ns(*found->second), options);
                    c.name_a = c.name_b = a.name;
                    c.notes = std::move(notes);
                    row.comparison = std::move(c);
                    if (a.kernel_metrics && found->second->kernel_metrics)
                        row.metrics = compare_kernel_metrics(*a.kernel_metrics, *found->second->kernel_metrics);
                } catch (const std::exception& refused) {
                    row.problem = refused.what();
                }
            }
            out.rows.push_back(std::move(row));
        }
    }
    for (const report::Experiment& e : next.experiments)
        for (const report::SampleSeries& s : e.series)
            if (!seen.count({e.id, s.name}))
                out.rows.push_back({e.id, s.name, std::nullopt, "only in the new report", std::nullopt});
    return out;
}

std::string render_comparison(const ReportComparison& c, const CompareOptions& options) {
    report::TextTable table;
    table.column("series", report::TextTable::Align::left)
        .column("before")
        .column("after")
        .column("change [CI]")
        .column("p")
        .column("verdict", report::TextTable::Align::left);
    std::vector<std::string> remarks;
    std::size_t counts[4] = {};
    for (const SeriesComparison& r : c.rows) {
        const std::string name = r.experiment.empty() ? r.series : r.experiment + " / " + r.series;
        if (!r.comparison) {
            table.row({name, "", "", "", "", "not compared"});
            remarks.push_back(name + ": " + r.problem);
            continue;
        }
        const Comparison& x = *r.comparison;
        table.row({name, to_string(x.median_a), to_string(x.median_b),
                       detail::change_with_interval(x.change, x.change_low, x.change_high), detail::three_digits(x.p_value),
                       to_string(x.verdict)});
        ++counts[static_cast<int>(x.verdict)];
        for (const std::string& n : x.notes) remarks.push_back(name + ": " + n);
        if (r.metrics) {
            for (const MetricChange& m : r.metrics->changes)
                remarks.push_back(name + ", kernel " + m.kernel + (m.launch ? " #" + std::to_string(m.launch) : std::string()) +
                                  ": " + describe(m));
            if (r.metrics->unchanged)
                remarks.push_back(name + ": " + std::to_string(r.metrics->unchanged) + " other hardware metric" +
                                  (r.metrics->unchanged == 1 ? "" : "s") + " within 1%");
            for (const std::string& u : r.metrics->unmatched) remarks.push_back(name + ": metrics of " + u);
        }
    }
    std::string out = table.render("  ");
    for (const std::string& r : remarks) out += "  " + r + "\n";
    char summary[256];
    std::snprintf(summary, sizeof summary,
                  "%zu series: %zu slower, %zu faster, %zu no difference, %zu inconclusive, %zu not compared "
                  "(threshold %.3g%%, %.3g%% confidence)\n",
                  c.rows.size(), counts[static_cast<int>(Verdict::slower)], counts[static_cast<int>(Verdict::faster)],
                  counts[static_cast<int>(Verdict::no_difference)], counts[static_cast<int>(Verdict::inconclusive)],
                  c.problems(), options.threshold * 100, options.confidence * 100);
    return out + summary;
}

}  // namespace gpuchrono
