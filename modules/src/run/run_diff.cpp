// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "run/run_diff.hpp"

#include "run/run_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace gpuchrono::run {

namespace {

struct Named {
    const report::SampleSeries* series;
    std::uint64_t calls;
};

std::vector<std::pair<std::string, Named>> named_series(const report::Report& r, const std::string& id) {
    std::map<std::string, std::uint64_t> calls;
    for (const TableRow& row : table_rows(r, id)) calls[row.name] = row.calls;
    std::vector<std::pair<std::string, Named>> out;
    for (const report::Experiment& e : r.experiments)
        if (e.id == id)
            for (const report::SampleSeries& s : e.series) out.push_back({s.name, {&s, calls[s.name]}});
    std::stable_sort(out.begin(), out.end(), [&](const auto& x, const auto& y) {
        return x.second.series->stats.median.ns() * static_cast<double>(x.second.calls) >
               y.second.series->stats.median.ns() * static_cast<double>(y.second.calls);
    });
    return out;
}

std::vector<double> positive_ns(const report::SampleSeries& s) {
    std::vector<double> v;
    v.reserve(s.samples.size());
    // compare_samples works on log durations: a record of 0 ns (a kernel shorter than the clock's step) is
    // raised to the step, 1 ns.
    for (const Duration& d : s.samples)
        if (std::isfinite(d.ns())) v.push_back(std::max(d.ns(), 1.0));
    return v;
}

}  // namespace

std::size_t RunDiff::slower() const {
    return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const DiffRow& r) { return r.comparison.verdict == Verdict::slower; }));
}

std::size_t RunDiff::faster() const {
    return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const DiffRow& r) { return r.comparison.verdict == Verdict::faster; }));
}

RunDiff diff_runs(const report::Report& a, const report::Report& b, const DiffOptions& options) {
    RunDiff d;
    d.strict = options.strict;
    if (!run_complete(a)) d.notes.push_back("A did not run to its end (run status: incomplete): it holds part of the run");
    if (!run_complete(b)) d.notes.push_back("B did not run to its end (run status: incomplete): it holds part of the run");
    std::vector<std::string> tables = {kernels_experiment};
    if (options.ranges) tables.push_back(ranges_experiment);
    struct Pair {
        std::string table;
        std::string name;
        Named a, b;
    };
    std::vector<Pair> pairs;
    for (const std::string& table : tables) {
        const auto in_a = named_series(a, table);
        const auto in_b = named_series(b, table);
        std::map<std::string, Named> b_by_name(in_b.begin(), in_b.end());
        std::map<std::string, Named> a_by_name(in_a.begin(), in_a.end());
        const std::string prefix = table == ranges_experiment ? "nvtx: " : "";
        for (const auto& [name, x] : in_a) {
            const auto it = b_by_name.find(name);
            if (it == b_by_name.end()) {
                d.removed.push_back(prefix + name);
                continue;
            }
            if (x.series->samples.size() < 2 || it->second.series->samples.size() < 2) {
                d.not_compared.push_back(prefix + name + ": fewer than 2 samples in one run");
                continue;
            }
            pairs.push_back({table, name, x, it->second});
        }
        for (const auto& [name, y] : in_b)
            if (!a_by_name.count(name)) d.added.push_back(prefix + name);
    }
    d.compared = pairs.size();
    d.per_comparison_confidence = pairs.empty() ? options.confidence
                                                : 1.0 - (1.0 - options.confidence) / static_cast<double>(pairs.size());
    CompareOptions co;
    co.threshold = options.threshold;
    co.confidence = d.per_comparison_confidence;
    for (const Pair& p : pairs) {
        DiffRow row;
        row.table = p.table;
        row.name = p.name;
        row.calls_a = p.a.calls;
        row.calls_b = p.b.calls;
        const std::vector<double> xa = positive_ns(*p.a.series), xb = positive_ns(*p.b.series);
        row.comparison = compare_samples(xa, xb, co);
        row.comparison.name_a = row.comparison.name_b = p.name;
        d.rows.push_back(std::move(row));
    }
    return d;
}

std::string render_diff(const RunDiff& d, const DiffOptions& options) {
    std::string out;
    char line[768];
    std::snprintf(line, sizeof line,
                  "%zu names compared; each at %.4g%% confidence (Bonferroni: %.3g%% over %zu comparisons), "
                  "threshold %.3g%%\n",
                  d.compared, 100 * d.per_comparison_confidence, 100 * options.confidence, d.compared, 100 * options.threshold);
    out += line;
    std::snprintf(line, sizeof line, "%-13s %10s %10s %9s %21s %9s  %s\n", "verdict", "median A", "median B", "change",
                  "CI of change", "p", "name");
    out += line;
    for (const DiffRow& r : d.rows) {
        const Comparison& c = r.comparison;
        char ci[64];
        std::snprintf(ci, sizeof ci, "%+.2f%% .. %+.2f%%", 100 * c.change_low, 100 * c.change_high);
        const std::string name = (r.table == ranges_experiment ? "nvtx: " : "") +
                                 (r.name.size() > 80 ? r.name.substr(0, 77) + "..." : r.name);
        std::snprintf(line, sizeof line, "%-13s %10s %10s %+8.2f%% %21s %9.2g  %s\n", to_string(c.verdict),
                      format_ns(c.median_a.ns()).c_str(), format_ns(c.median_b.ns()).c_str(), 100 * c.change, ci,
                      c.p_value, name.c_str());
        out += line;
    }
    for (const std::string& n : d.added) out += "added (only in B):   " + n + "\n";
    for (const std::string& n : d.removed) out += "removed (only in A): " + n + "\n";
    for (const std::string& n : d.not_compared) out += "not compared:        " + n + "\n";
    for (const std::string& n : d.notes) out += "note: " + n + "\n";
    std::snprintf(line, sizeof line, "%zu slower, %zu faster, %zu added, %zu removed\n", d.slower(), d.faster(),
                  d.added.size(), d.removed.size());
    out += line;
    return out;
}

int diff_exit_code(const RunDiff& d) {
    if (d.compared == 0) return 2;
    if (d.slower() > 0) return 1;
    if (!d.added.empty() || !d.removed.empty() || (d.strict && !d.not_compared.empty())) return 3;
    return 0;
}

std::string nothing_compared_reason(const RunDiff& d) {
    if (d.compared > 0) return {};
    std::string why = "nothing was compared: ";
    if (!d.not_compared.empty())
        why += std::to_string(d.not_compared.size()) + " name(s) are in both runs but were called too rarely to compare";
    else if (!d.added.empty() || !d.removed.empty())
        why += "the two runs have no kernel or NVTX range in common";
    else
        why += "neither run recorded a kernel or NVTX range";
    return why + ", so the diff cannot say whether anything got slower";
}

}  // namespace gpuchrono::run
