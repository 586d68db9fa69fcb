// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "run/run_report.hpp"

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/stats/stopping_rule.hpp>
#include <gpuchrono/report/render/units.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

namespace gpuchrono::run {

namespace {

constexpr const char* separator = " | ";

std::string metric_name(const std::string& row, const char* what) { return row + separator + what; }

// One experiment of rows: a series per name (the sample), exact figures as metrics.
report::Experiment table_experiment(const std::vector<DurationTable>& rows, const char* id, const char* title,
                                    double all_kernels_ns, Findings& findings, double floor_ns, bool kernels) {
    report::Experiment e;
    e.id = id;
    e.title = title;
    std::vector<const DurationTable*> order;
    for (const DurationTable& r : rows) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->total_ns > b->total_ns; });
    for (const DurationTable* r : order) {
        std::vector<Duration> samples;
        samples.reserve(r->sample.values().size());
        for (double v : r->sample.values()) samples.push_back(Duration::from_ns(v));
        report::SampleSeries s = report::make_series(r->name, run_policy, std::move(samples));
        report::MeasureSummary m;
        m.method = "cupti-activity";
        m.method_note = r->sample.complete() ? "every call's CUPTI record"
                                             : "a uniform sample of " + std::to_string(r->sample.values().size()) +
                                                   " of the " + std::to_string(r->calls) + " calls' CUPTI records";
        m.calls_per_sample = 1;
        const MedianInterval ci = median_interval(r->sample.values(), 0.95);
        m.ci_low_ns = ci.low_ns;
        m.ci_high_ns = ci.high_ns;
        m.ci_coverage = ci.coverage;
        s.measure = m;
        if (kernels) {
            if (auto f = check_cold_first_call(r->name, r->calls, r->first_ns, s.stats.median.ns()))
                s.findings.push_back(std::move(*f));
            if (auto f = check_kernel_above_floor(r->name, s.stats.median.ns(), floor_ns)) s.findings.push_back(std::move(*f));
        }
        e.series.push_back(std::move(s));
        e.metrics.push_back({metric_name(r->name, "calls"), static_cast<double>(r->calls), "", ""});
        e.metrics.push_back({metric_name(r->name, "total"), r->total_ns, "ns", ""});
        e.metrics.push_back({metric_name(r->name, "share"), all_kernels_ns > 0 ? 100.0 * r->total_ns / all_kernels_ns : 0.0, "%", ""});
        e.metrics.push_back({metric_name(r->name, "min"), r->min_ns, "ns", ""});
        e.metrics.push_back({metric_name(r->name, "max"), r->max_ns, "ns", ""});
    }
    (void)findings;
    return e;
}

std::string copy_title(const std::string& kind) { return kind == "memset" ? kind : "memcpy " + kind; }

}  // namespace

report::Report build_report(const Aggregate& a, const RunInfo& info) {
    report::Report r = report::new_report();
    if (!info.devices.empty()) r.device = info.devices.front();
    if (r.distributed) {
        auto named = [&](int index) {
            return std::any_of(r.distributed->devices.begin(), r.distributed->devices.end(),
                               [&](const distributed::DeviceIdentity& d) { return d.index == index; });
        };
        for (const distributed::DeviceIdentity& d : info.identities)
            if (!named(d.index)) r.distributed->devices.push_back(d);
        std::vector<int> used;
        for (const auto& [device, t] : a.devices()) used.push_back(device);
        for (const KernelActivity& k : info.trace) used.push_back(k.device);
        for (const report::DeviceInfo& d : info.devices) used.push_back(d.index);
        for (const int index : used)
            if (index >= 0 && !named(index)) r.distributed->devices.push_back({index, "device " + std::to_string(index), "", ""});
    }
    r.notes.push_back(info.complete ? std::string("run status: complete")
                                    : "run status: incomplete (" +
                                          (info.status_note.empty() ? std::string("the program had not ended") : info.status_note) + ")");
    if (!info.command.empty()) r.notes.push_back("run command: " + info.command);
    for (const std::string& n : info.notes) r.notes.push_back(n);
    for (std::size_t i = 1; i < info.devices.size(); ++i)
        r.notes.push_back("also ran on device " + std::to_string(info.devices[i].index) + ": " + info.devices[i].name);

    Findings run_findings;
    const double all_ns = a.kernel_time_ns();
    report::Experiment kernels = table_experiment(a.kernels(), kernels_experiment, "Kernels", all_ns, run_findings,
                                                  info.timer_floor_ns, true);
    kernels.explanation.push_back(std::to_string(a.kernel_calls()) + " kernel launches of " +
                                  std::to_string(a.kernels().size()) + " names, " + format_ns(all_ns) +
                                  " of GPU time in all, each timed by its CUPTI activity record.");
    if (auto f = check_cuda_work(info.cuda_started, a.kernel_calls(), a.transfers().size(), a.filtered()))
        run_findings.push_back(std::move(*f));
    std::vector<DroppedRecords> dropped;
    for (const auto& [kind, count] : a.dropped()) dropped.push_back({kind, count});
    if (auto f = check_run_records_dropped(a.dropped_total(), dropped)) run_findings.push_back(std::move(*f));
    std::vector<CuptiOverhead> overhead;
    for (const auto& [kind, t] : a.overhead()) overhead.push_back({kind, t.count, t.total_ns});
    if (auto f = check_cupti_overhead(overhead)) run_findings.push_back(std::move(*f));
    for (const auto& [device, t] : a.devices())
        if (auto f = check_device_idle(device, t.idle_ns, t.span_ns(), t.largest_gap_ns)) run_findings.push_back(std::move(*f));
    for (const auto& [device, t] : a.devices())
        if (auto f = check_device_overlap(device, t.activity_ns, t.busy_ns)) run_findings.push_back(std::move(*f));
    if (info.trace_left_out > 0)
        r.notes.push_back("the trace keeps the first " + std::to_string(info.trace.size()) + " activities; " +
                          std::to_string(info.trace_left_out) + " more are in the summary only");
    kernels.activities = info.trace;
    kernels.findings = run_findings;
    r.experiments.push_back(std::move(kernels));

    if (!a.ranges().empty()) {
        Findings none;
        report::Experiment ranges = table_experiment(a.ranges(), ranges_experiment, "NVTX ranges", all_ns, none,
                                                     info.timer_floor_ns, false);
        ranges.explanation.push_back("Each kernel counts in the innermost NVTX range open on the thread that launched it.");
        r.experiments.push_back(std::move(ranges));
    }
    if (!a.transfers().empty()) {
        report::Experiment t;
        t.id = "transfers";
        t.title = "Memory copies and sets";
        for (const auto& [kind, x] : a.transfers()) {
            const std::string name = copy_title(kind);
            t.metrics.push_back({metric_name(name, "calls"), static_cast<double>(x.count), "", ""});
            t.metrics.push_back({metric_name(name, "bytes"), static_cast<double>(x.bytes), "B", ""});
            t.metrics.push_back({metric_name(name, "total"), x.total_ns, "ns", ""});
            t.metrics.push_back({metric_name(name, "bandwidth"), x.gigabytes_per_second(), "GB/s", ""});
        }
        r.experiments.push_back(std::move(t));
    }
    if (!a.devices().empty()) {
        report::Experiment d;
        d.id = "devices";
        d.title = "GPU busy and idle";
        for (const auto& [device, t] : a.devices()) {
            const std::string name = "device " + std::to_string(device);
            const double span = t.span_ns();
            d.metrics.push_back({metric_name(name, "busy"), t.busy_ns, "ns", ""});
            d.metrics.push_back({metric_name(name, "span"), span, "ns", "first activity's start to last one's end"});
            d.metrics.push_back({metric_name(name, "busy share"), span > 0 ? 100 * t.busy_ns / span : 0.0, "%", ""});
            d.metrics.push_back({metric_name(name, "idle"), t.idle_ns, "ns", ""});
            d.metrics.push_back({metric_name(name, "largest gap"), t.largest_gap_ns, "ns", ""});
        }
        // Busy share over time: one curve per device, a point per bucket.
        report::Sweep busy;
        busy.name = "busy-over-time";
        busy.title = "GPU busy over time";
        busy.x_label = "time since the device's first activity [s]";
        busy.y_label = "busy";
        busy.y_unit = "%";
        busy.band_label = "";
        for (const auto& [device, t] : a.devices()) {
            report::SweepCurve c;
            c.name = "device " + std::to_string(device);
            const double width = static_cast<double>(t.bucket_ns);
            for (std::size_t i = 0; i < t.busy_per_bucket.size(); ++i)
                c.points.push_back({(static_cast<double>(i) + 0.5) * width / 1e9, 100.0 * std::min(1.0, t.busy_per_bucket[i] / width)});
            if (!c.points.empty()) busy.curves.push_back(std::move(c));
        }
        if (!busy.curves.empty()) d.sweeps.push_back(std::move(busy));
        d.explanation.push_back("Busy is the union of the device's kernels, copies and sets; idle the gaps between them. "
                                "The curve gives the busy share per time bucket (the last bucket may be partly past the end).");
        r.experiments.push_back(std::move(d));
    }
    return r;
}

report::Report no_cuda_report(const std::string& command, const std::string& why) {
    Aggregate empty;
    RunInfo info;
    info.complete = true;
    info.command = command;
    info.cuda_started = false;
    info.status_note = why;
    report::Report r = build_report(empty, info);
    r.notes.push_back(why);
    return r;
}

std::vector<TableRow> table_rows(const report::Report& r, const std::string& id) {
    std::vector<TableRow> rows;
    for (const report::Experiment& e : r.experiments) {
        if (e.id != id) continue;
        std::map<std::string, double> metric;
        for (const report::Metric& m : e.metrics) metric[m.name] = m.value;
        auto get = [&](const std::string& row, const char* what, double otherwise) {
            const auto it = metric.find(metric_name(row, what));
            return it == metric.end() ? otherwise : it->second;
        };
        for (const report::SampleSeries& s : e.series) {
            TableRow t;
            t.name = s.name;
            t.samples = s.samples.size();
            t.calls = static_cast<std::uint64_t>(get(s.name, "calls", static_cast<double>(s.samples.size())));
            double sum = 0;
            for (const Duration& d : s.samples) sum += d.ns();
            t.total_ns = get(s.name, "total", sum);
            t.share = get(s.name, "share", 0);
            t.min_ns = get(s.name, "min", s.stats.min.ns());
            t.max_ns = get(s.name, "max", s.stats.max.ns());
            t.median_ns = s.stats.median.ns();
            t.p95_ns = s.stats.p95.ns();
            t.ci_low_ns = s.measure ? s.measure->ci_low_ns : report::not_measured;
            t.ci_high_ns = s.measure ? s.measure->ci_high_ns : report::not_measured;
            rows.push_back(t);
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const TableRow& a, const TableRow& b) { return a.total_ns > b.total_ns; });
    return rows;
}

bool run_complete(const report::Report& r) {
    return std::find(r.notes.begin(), r.notes.end(), "run status: complete") != r.notes.end();
}

std::string render_top(const report::Report& r, std::size_t top) {
    std::string out;
    const std::vector<TableRow> rows = table_rows(r, kernels_experiment);
    char line[512];
    if (!rows.empty() && top > 0) {
        std::snprintf(line, sizeof line, "%6s %10s %9s %10s %23s %10s %10s %10s  %s\n", "share", "total", "calls",
                      "median", "95% CI of median", "min", "p95", "max", "kernel");
        out += line;
        for (std::size_t i = 0; i < rows.size() && i < top; ++i) {
            const TableRow& t = rows[i];
            const std::string ci = format_ns(t.ci_low_ns) + " .. " + format_ns(t.ci_high_ns);
            std::string name = t.name.size() > 80 ? t.name.substr(0, 77) + "..." : t.name;
            std::snprintf(line, sizeof line, "%5.1f%% %10s %9llu %10s %23s %10s %10s %10s  %s\n", t.share,
                          format_ns(t.total_ns).c_str(), static_cast<unsigned long long>(t.calls),
                          format_ns(t.median_ns).c_str(), ci.c_str(), format_ns(t.min_ns).c_str(),
                          format_ns(t.p95_ns).c_str(), format_ns(t.max_ns).c_str(), name.c_str());
            out += line;
        }
        if (rows.size() > top) out += "  ... and " + std::to_string(rows.size() - top) + " more kernels in the report\n";
    }
    for (const report::Experiment& e : r.experiments) {
        for (const Finding& f : e.findings) out += to_short_string(f) + "\n";
        for (const report::SampleSeries& s : e.series)
            for (const Finding& f : s.findings) out += to_short_string(f) + "\n";
    }
    if (!run_complete(r))
        for (const std::string& n : r.notes)
            if (n.rfind("run status:", 0) == 0) out += n + "\n";
    return out;
}

std::string rows_csv(const std::vector<TableRow>& rows) {
    std::string out = "name,calls,total_ns,share_percent,median_ns,median_ci_low_ns,median_ci_high_ns,min_ns,p95_ns,max_ns,samples\n";
    for (const TableRow& t : rows) {
        std::string name = "\"";
        for (char c : t.name) name += c == '"' ? std::string("\"\"") : std::string(1, c);
        name += "\"";
        char buf[512];
        std::snprintf(buf, sizeof buf, ",%llu,%.17g,%.6g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%zu\n",
                      static_cast<unsigned long long>(t.calls), t.total_ns, t.share, t.median_ns, t.ci_low_ns,
                      t.ci_high_ns, t.min_ns, t.p95_ns, t.max_ns, t.samples);
        out += name + buf;
    }
    return out;
}

std::string report_file_name(const distributed::RankIdentity& id, bool root_process) {
    if (id.launcher != "none" && id.world_size > 1) return "report-rank" + std::to_string(id.rank) + ".json";
    if (root_process) return "report.json";
    return "report-pid" + std::to_string(id.pid) + ".json";
}

}  // namespace gpuchrono::run
