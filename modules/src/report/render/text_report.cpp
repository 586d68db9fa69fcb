// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/report/render/text_report.hpp>

#include "report/render/device_busy_text.hpp"
#include "report/render/kernel_metrics_text.hpp"
#include "report/render/text_table.hpp"
#include "report/render/timeline_summary.hpp"
#include <gpuchrono/report/render/units.hpp>

#include "throughput_text.hpp"
#include "json/utf8.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace gpuchrono::report {

namespace {

// Cells of one duration column in its own unit; the unit goes into the header.
struct DurationColumn {
    std::string header;
    std::vector<std::string> cells;
};

DurationColumn duration_column(const std::string& name, const std::vector<double>& ns) {
    const TimeUnit unit = time_unit_for(ns);
    std::vector<double> scaled;
    for (double v : ns) scaled.push_back(v / unit.ns_per_unit);
    const int decimals = decimals_for(scaled, unit);
    DurationColumn c{name + " [" + unit.name + "]", {}};
    for (double v : scaled) c.cells.push_back(format_fixed(v, decimals));
    return c;
}

// A table whose columns are filled column-wise: name columns and duration columns mixed.
class ColumnBuilder {
public:
    void text(std::string header, std::vector<std::string> cells, TextTable::Align align = TextTable::Align::left) {
        columns_.push_back({std::move(header), std::move(cells), align});
    }
    void durations(const std::string& header, const std::vector<double>& ns) {
        DurationColumn c = duration_column(header, ns);
        columns_.push_back({std::move(c.header), std::move(c.cells), TextTable::Align::right});
    }
    void numbers(std::string header, const std::vector<double>& values, int significant = 3) {
        std::vector<std::string> cells;
        for (double v : values) cells.push_back(format_number(v, significant));
        columns_.push_back({std::move(header), std::move(cells), TextTable::Align::right});
    }
    std::string render(const std::string& indent) const {
        if (columns_.empty() || columns_.front().cells.empty()) return {};
        TextTable t;
        for (const auto& c : columns_) t.column(c.header, c.align);
        for (std::size_t r = 0; r < columns_.front().cells.size(); ++r) {
            std::vector<std::string> row;
            for (const auto& c : columns_) row.push_back(c.cells[r]);
            t.row(std::move(row));
        }
        return t.render(indent);
    }

private:
    struct Col {
        std::string header;
        std::vector<std::string> cells;
        TextTable::Align align;
    };
    std::vector<Col> columns_;
};

std::string mhz(double v) { return std::isnan(v) ? "not measured" : format_fixed(v, 0) + " MHz"; }

std::string join_codes(const Findings& findings) {
    std::string out;
    std::set<std::string> seen;
    for (const Finding& f : findings)
        if (seen.insert(f.code).second) out += (out.empty() ? "" : ", ") + f.code;
    return out.empty() ? "-" : out;
}

std::string metrics_text(const Experiment& e, const std::string& indent) {
    if (e.metrics.empty()) return {};
    TextTable t;
    t.column("result", TextTable::Align::left).column("value").column("note", TextTable::Align::left);
    for (const Metric& m : e.metrics) t.row({m.name, format_with_unit(m.value, m.unit), m.note});
    return t.render(indent);
}

std::string series_text(const Experiment& e, const std::string& indent) {
    if (e.series.empty()) return {};
    ColumnBuilder b;
    std::vector<std::string> names, policies, counts, findings;
    std::vector<double> median, min, mean, max, p95, cv;
    for (const SampleSeries& s : e.series) {
        names.push_back(s.name);
        policies.push_back(s.policy);
        counts.push_back(std::to_string(s.stats.count) + (s.failed ? " (" + std::to_string(s.failed) + " failed)" : ""));
        median.push_back(s.stats.median.ns());
        min.push_back(s.stats.min.ns());
        mean.push_back(s.stats.mean.ns());
        max.push_back(s.stats.max.ns());
        p95.push_back(s.stats.p95.ns());
        cv.push_back(s.stats.cv * 100.0);
        findings.push_back(join_codes(s.findings));
    }
    b.text("series", names);
    b.text("policy", policies);
    b.text("n", counts, TextTable::Align::right);
    b.durations("median", median);
    b.durations("min", min);
    b.durations("mean", mean);
    b.durations("p95", p95);
    b.durations("max", max);
    b.numbers("cv [%]", cv, 2);
    b.text("findings", findings);
    return b.render(indent);
}

// For series taken by measure(): the method, cache state, warm-up, why sampling stopped and the confidence
// interval of the median, and the throughput when bytes were declared.
std::string measure_text(const Experiment& e, const std::string& indent) {
    std::string out;
    const auto percent = [](double ratio) { return format_fixed(ratio * 100.0, ratio < 0.1 ? 2 : 1) + "%"; };
    for (const SampleSeries& s : e.series) {
        if (!s.measure) continue;
        const MeasureSummary& m = *s.measure;
        std::string line = s.name + ": method " + m.method;
        if (m.calls_per_sample > 1) line += " (" + std::to_string(m.calls_per_sample) + " calls per sample)";
        line += ", " + m.cache_state + " L2";
        if (!m.method_note.empty()) line += " (" + m.method_note + ")";
        line += "; warm-up " + to_string(Duration::from_ns(m.warmup_ns)) + ", " + std::to_string(m.warmup_calls) +
                " calls: " + m.warmup_ended;
        const double width = (m.ci_high_ns - m.ci_low_ns) / s.stats.median.ns();
        line += "; stopped: " + m.stop_reason + ", " + percent(m.ci_coverage) + " CI of the median " +
                to_string(Duration::from_ns(m.ci_low_ns)) + " .. " + to_string(Duration::from_ns(m.ci_high_ns)) + " (" +
                percent(width) + (m.stop_reason == "converged" ? " <= " : ", target ") + percent(m.target_relative_width) +
                ") after " + to_string(Duration::from_ns(m.sampling_ns));
        if (m.flagged > 0)
            line += "; " + std::to_string(m.flagged) + " samples under a low or capped SM clock" +
                    (m.excluded > 0 ? " (" + std::to_string(m.excluded) + " excluded)" : std::string(" (kept)"));
        line += throughput_text(m, percent);
        out += wrap(line, text_width, indent);
    }
    return out;
}

// KernelPolicy's activities, one row per (kind, name) in order of first appearance: calls, total, median, min, max.
std::string activities_text(const Experiment& e, const std::string& indent) {
    if (e.activities.empty()) return {};
    std::vector<std::pair<std::string, std::vector<double>>> groups;  // "kind\tname" -> durations
    for (const KernelActivity& a : e.activities) {
        const std::string key = std::string(to_string(a.kind)) + "\t" + a.name;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
        if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
        it->second.push_back(static_cast<double>(a.duration_ns()));
    }
    ColumnBuilder b;
    std::vector<std::string> kinds, names, calls;
    std::vector<double> total, median, min, max;
    for (auto& [key, ns] : groups) {
        kinds.push_back(key.substr(0, key.find('\t')));
        names.push_back(key.substr(key.find('\t') + 1));
        calls.push_back(std::to_string(ns.size()));
        double sum = 0;
        for (double v : ns) sum += v;
        total.push_back(sum);
        std::sort(ns.begin(), ns.end());
        median.push_back(ns.size() % 2 ? ns[ns.size() / 2] : (ns[ns.size() / 2 - 1] + ns[ns.size() / 2]) / 2);
        min.push_back(ns.front());
        max.push_back(ns.back());
    }
    b.text("kind", kinds);
    b.text("name", names);
    b.text("calls", calls, TextTable::Align::right);
    b.durations("total", total);
    b.durations("median", median);
    b.durations("min", min);
    b.durations("max", max);
    return b.render(indent);
}

std::string timelines_text(const Experiment& e, const std::string& indent) {
    std::string out;
    for (const Timeline& t : e.timelines) {
        const std::vector<RegionSummary> regions = summarize_timeline(t);
        // A heading with the launch-wide figures, then one row per region.
        std::string head = t.name.empty() ? std::string("kernel") : t.name;
        std::string facts;
        auto fact = [&](const std::string& f) { facts += (facts.empty() ? "" : ", ") + f; };
        std::set<std::uint32_t> blocks, sms;
        for (const BlockSample& s : t.samples) {
            blocks.insert(s.block);
            sms.insert(s.sm_start);
        }
        fact(std::to_string(blocks.size()) + " blocks recorded on " + std::to_string(sms.size()) + " SMs");
        if (t.dropped) fact(std::to_string(t.dropped) + " records DROPPED (probe buffer too small)");
        if (!regions.empty()) fact("makespan " + to_string(regions.front().makespan));
        if (!std::isnan(t.sm_clock_mhz))
            fact("SM clock " + format_number(t.sm_clock_mhz, 4) + " MHz" +
                 (t.sm_clock_source.empty() ? std::string() : " (" + t.sm_clock_source + ")"));
        if (!std::isnan(t.overhead_region_cycles))
            fact("probe cost " + format_number(t.overhead_region_cycles, 3) + " cycles/region" +
                 (t.overhead_subtracted ? ", subtracted from net" : ""));
        out += wrap(head + ": " + facts, text_width, indent);

        ColumnBuilder b;
        std::vector<std::string> names, counts, notes;
        std::vector<double> spread, dmin, dmed, dmean, dmax, net, cycles;
        bool any_net = false;
        for (const RegionSummary& r : regions) {
            names.push_back(r.name + (r.iterations > r.samples ? " (loop)" : ""));
            counts.push_back(std::to_string(r.blocks));
            spread.push_back(r.launch_spread.ns());
            dmin.push_back(r.durations.min.ns());
            dmed.push_back(r.durations.median.ns());
            dmean.push_back(r.durations.mean.ns());
            dmax.push_back(r.durations.max.ns());
            net.push_back(r.net.median.ns());
            any_net = any_net || r.net.count > 0;
            cycles.push_back(r.cycles_median);
            std::string note;
            if (r.iterations > r.samples)
                note += std::to_string(r.iterations / std::max<std::size_t>(r.samples, 1)) + " iterations/block, " +
                        to_string(r.per_iteration.median) + " each";
            if (r.sm_changed) note += (note.empty() ? "" : "; ") + std::to_string(r.sm_changed) + " changed SM";
            notes.push_back(note.empty() ? "-" : note);
        }
        b.text("region", names);
        b.text("blocks", counts, TextTable::Align::right);
        b.durations("start spread", spread);
        b.durations("block min", dmin);
        b.durations("median", dmed);
        b.durations("mean", dmean);
        b.durations("max", dmax);
        if (any_net) b.durations("net median", net);
        b.numbers("cycles median", cycles, 5);
        b.text("notes", notes);
        out += b.render(indent);
    }
    return out;
}

std::string sweep_text(const Sweep& s, const std::string& indent) {
    // One row per distinct x over all curves.
    std::set<double> xs;
    for (const auto& c : s.curves)
        for (const auto& p : c.points) xs.insert(p.x);
    if (xs.empty()) return {};
    ColumnBuilder b;
    std::vector<double> xcol(xs.begin(), xs.end());
    b.numbers(s.x_label.empty() ? "x" : s.x_label, xcol, 6);
    const bool time = s.y_unit == "ns";
    auto add = [&](const std::string& header, const std::vector<double>& v) {
        if (time)
            b.durations(header, v);
        else
            b.numbers(header + (s.y_unit.empty() ? "" : " [" + s.y_unit + "]"), v, 4);
    };
    for (const auto& c : s.curves) {
        auto value_at = [&](double x, double SweepPoint::*field) {
            for (const auto& p : c.points)
                if (p.x == x) return p.*field;
            return not_measured;
        };
        std::vector<double> y, low, high;
        bool band = false;
        for (double x : xcol) {
            y.push_back(value_at(x, &SweepPoint::y));
            low.push_back(value_at(x, &SweepPoint::low));
            high.push_back(value_at(x, &SweepPoint::high));
            band = band || !std::isnan(low.back()) || !std::isnan(high.back());
        }
        add(c.name, y);
        if (band) {
            // "p5 .. p95 of the blocks" labels the columns p5 and p95; a label without " .. " gives low and high.
            const auto dots = s.band_label.find(" .. ");
            const std::string after = dots == std::string::npos ? std::string() : s.band_label.substr(dots + 4);
            add(dots == std::string::npos ? std::string("low") : s.band_label.substr(0, dots), low);
            add(dots == std::string::npos ? std::string("high") : after.substr(0, after.find(' ')), high);
        }
    }
    std::string out = indent + (s.title.empty() ? s.name : s.title) + "\n";
    out += b.render(indent);
    for (const auto& m : s.markers) out += indent + "  | at " + format_number(m.x, 6) + ": " + m.label + "\n";
    return out;
}

void section(std::string& out, const std::string& heading, const std::string& body) {
    if (body.empty()) return;
    out += "\n  " + heading + "\n" + body;
}

}  // namespace

std::string render_device_text(const DeviceInfo& d) {
    std::string out = "Device " + (d.index >= 0 ? std::to_string(d.index) : std::string("?")) + ": " +
                      (d.name.empty() ? std::string("unknown") : d.name) + "\n";
    out += "  compute " + std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor) + ", " +
           std::to_string(d.sm_count) + " SMs (up to " + std::to_string(d.max_blocks_per_sm) + " blocks and " +
           std::to_string(d.max_threads_per_sm) + " threads each)\n";
    // Before the first device-clock measurement (the tour prints this block first) there is nothing measured
    // yet: say so in words that read as a sentence, not as "not measured measured".
    out += "  SM clock: " + mhz(d.sm_clock_nominal_mhz) + " nominal, " +
           (std::isnan(d.sm_clock_measured_mhz)
                ? std::string("not measured yet (the device-clock experiments measure it)")
                : mhz(d.sm_clock_measured_mhz) + " measured in this run (clock64 against %globaltimer)") +
           "\n";
    out += "  %globaltimer step: " +
           (std::isnan(d.globaltimer_step_ns) ? std::string("not measured yet")
                                              : to_string(Duration::from_ns(d.globaltimer_step_ns))) +
           "\n";
    out += "  memory: " + format_bytes(static_cast<double>(d.global_memory_bytes)) + ", " +
           std::to_string(d.memory_bus_bits) + "-bit bus at " + mhz(d.memory_clock_mhz) + "; L2 " +
           format_bytes(static_cast<double>(d.l2_bytes)) + "; shared memory " +
           format_bytes(static_cast<double>(d.shared_memory_per_sm_bytes)) + " per SM\n";
    out += "  CUDA: driver " + cuda_version_string(d.driver_version) + ", runtime " + cuda_version_string(d.runtime_version) + "\n";
    return json::valid_utf8(out);
}

std::string render_findings_text(const Findings& findings, const std::string& indent) {
    std::string out;
    for (const Finding& f : findings) {
        out += wrap("[" + std::string(to_string(f.severity)) + "] " + f.code + ": " + f.message, text_width, indent);
        if (!f.fix.empty()) out += wrap("fix: " + f.fix, text_width, indent + "    ");
    }
    return json::valid_utf8(out);
}

std::string render_experiment_text(const Experiment& e, int number) {
    std::string title = (number > 0 ? std::to_string(number) + ". " : "") + (e.title.empty() ? e.id : e.title);
    if (!e.reproduces.empty()) title += "  [seed " + e.reproduces + "]";
    std::string out = title + "\n" + std::string(std::min<std::size_t>(display_width(title), text_width), '=') + "\n";
    const std::string indent = "    ";
    section(out, "Results", metrics_text(e, indent));
    section(out, "Samples (per series; units per column)", series_text(e, indent));
    section(out, "How measure() took them", measure_text(e, indent));
    for (const SampleSeries& s : e.series)
        if (s.kernel_metrics)
            section(out, "Hardware metrics of \"" + s.name + "\" (ncu's names: check any with ncu --metrics <name>)",
                    render_kernel_metrics_text(*s.kernel_metrics, indent));
    section(out, "Per-block records (times on %globaltimer; cycles on clock64 of the block's own SM; net = cycles at the measured clock)",
            timelines_text(e, indent));
    for (const Sweep& s : e.sweeps) section(out, "Sweep", sweep_text(s, indent));
    section(out, "GPU activities (KernelPolicy, timed by the GPU through CUPTI)", activities_text(e, indent));
    section(out, "Busy time per device (medians over the samples)", render_device_busy_text(e, indent));

    // Findings of the experiment and of its series, each (code, message) once.
    Findings all = e.findings;
    for (const SampleSeries& s : e.series)
        for (const Finding& f : s.findings) {
            bool seen = false;
            for (const Finding& g : all) seen = seen || (g.code == f.code && g.message == f.message);
            if (!seen) all.push_back(f);
        }
    section(out, "Findings", all.empty() ? indent + "none\n" : render_findings_text(all, indent));

    std::string explanation;
    for (const std::string& p : e.explanation) explanation += (explanation.empty() ? "" : "\n") + wrap(p, text_width, indent);
    section(out, "What this shows", explanation);
    return json::valid_utf8(out);
}

std::string render_text(const Report& r) {
    std::string out = "gpuchrono report";
    if (!r.created_utc.empty()) out += ", taken " + r.created_utc;
    if (!r.host.empty()) out += " on " + r.host;
    if (!r.generator.empty()) out += " (" + r.generator + ")";
    out += "\n\n" + render_device_text(r.device);
    for (const std::string& n : r.notes) out += wrap("note: " + n, text_width, "  ");
    int number = 0;
    for (const Experiment& e : r.experiments) out += "\n" + render_experiment_text(e, ++number);
    return json::valid_utf8(out);
}

std::string render_summary_text(const Report& r) {
    TextTable t;
    t.column("#").column("experiment", TextTable::Align::left).column("key results", TextTable::Align::left).column("findings", TextTable::Align::left);
    int number = 0;
    for (const Experiment& e : r.experiments) {
        std::string key;
        for (std::size_t i = 0; i < e.metrics.size() && i < 2; ++i)
            key += (i ? "; " : "") + e.metrics[i].name + " " + format_with_unit(e.metrics[i].value, e.metrics[i].unit);
        Findings all = e.findings;
        for (const SampleSeries& s : e.series) all.insert(all.end(), s.findings.begin(), s.findings.end());
        t.row({std::to_string(++number), e.title.empty() ? e.id : e.title, key.empty() ? "-" : key, join_codes(all)});
    }
    return json::valid_utf8(t.render());
}

}  // namespace gpuchrono::report
