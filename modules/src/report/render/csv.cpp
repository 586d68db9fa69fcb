// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/csv.hpp"

#include <gpuchrono/stats/views.hpp>

#include "csv_fields.hpp"
#include "json/utf8.hpp"

#include <charconv>
#include <cmath>
#include <initializer_list>

namespace gpuchrono::report {

namespace {

using gpuchrono::detail::csv::number;
using gpuchrono::detail::csv::row;
std::string number(std::uint64_t v) { return std::to_string(v); }

std::string codes(const Findings& findings) {
    std::string out;
    for (const Finding& f : findings)
        if (out.find(f.code) == std::string::npos) out += (out.empty() ? "" : " ") + f.code;
    return out;
}

}  // namespace

const char* to_string(CsvTable table) noexcept {
    switch (table) {
        case CsvTable::samples: return "samples";
        case CsvTable::stats: return "stats";
        case CsvTable::blocks: return "blocks";
        case CsvTable::sweeps: return "sweeps";
        case CsvTable::metrics: return "metrics";
    }
    return "unknown";
}

std::string csv_field(std::string_view raw) {
    const std::string text = json::valid_utf8(raw);  // spreadsheets read CSV as UTF-8; stray bytes become U+FFFD
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return text;
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string render_csv(const Report& report, CsvTable table) {
    std::string out;
    switch (table) {
        case CsvTable::samples:
            row(out, {"experiment", "series", "policy", "index", "duration_ns"});
            for (const Experiment& e : report.experiments)
                for (const SampleSeries& s : e.series)
                    for (std::size_t i = 0; i < s.samples.size(); ++i)
                        row(out, {csv_field(e.id), csv_field(s.name), csv_field(s.policy), std::to_string(i),
                                  number(s.samples[i].ns())});
            break;
        case CsvTable::stats:
            row(out, {"experiment", "series", "policy", "count", "failed", "rejected_non_finite", "min_ns", "p5_ns",
                      "p25_ns", "median_ns", "mean_ns", "p75_ns", "p95_ns", "p99_ns", "max_ns", "stddev_ns", "mad_ns",
                      "cv", "findings", "method", "cache_state", "stop_reason", "ci_low_ns", "ci_high_ns", "warmup_ns",
                      "bytes_per_second", "fraction_of_peak_bandwidth"});
            for (const Experiment& e : report.experiments)
                for (const SampleSeries& s : e.series) {
                    const Stats& st = s.stats;
                    row(out, {csv_field(e.id), csv_field(s.name), csv_field(s.policy), number(std::uint64_t{st.count}),
                              number(std::uint64_t{s.failed}), number(std::uint64_t{st.rejected_non_finite}),
                              number(st.min.ns()), number(st.p5.ns()), number(st.p25.ns()), number(st.median.ns()),
                              number(st.mean.ns()), number(st.p75.ns()), number(st.p95.ns()), number(st.p99.ns()),
                              number(st.max.ns()), number(st.stddev.ns()), number(st.mad.ns()), number(st.cv),
                              csv_field(codes(s.findings)),
                              csv_field(s.measure ? s.measure->method : s.policy),
                              csv_field(s.measure ? s.measure->cache_state : std::string()),
                              csv_field(s.measure ? s.measure->stop_reason : std::string()),
                              number(s.measure ? s.measure->ci_low_ns : not_measured),
                              number(s.measure ? s.measure->ci_high_ns : not_measured),
                              number(s.measure ? s.measure->warmup_ns : not_measured),
                              number(s.measure ? s.measure->bytes_per_second : not_measured),
                              number(s.measure ? s.measure->bytes_per_second / s.measure->peak_bytes_per_second
                                               : not_measured)});
                }
            break;
        case CsvTable::blocks:
            row(out, {"experiment", "timeline", "block", "region", "region_name", "sm_start", "sm_stop", "start_ns",
                      "stop_ns", "duration_ns", "cycles", "count", "accumulated_ns", "net_ns"});
            for (const Experiment& e : report.experiments)
                for (const Timeline& t : e.timelines)
                    for (const BlockSample& b : t.samples)
                        row(out, {csv_field(e.id), csv_field(t.name), number(std::uint64_t{b.block}),
                                  number(std::uint64_t{b.region}), csv_field(region_name(t, b.region)),
                                  number(std::uint64_t{b.sm_start}), number(std::uint64_t{b.sm_stop}), number(b.start_ns),
                                  number(b.stop_ns), number(block_duration(b).ns()), number(sample_cycles(b)),
                                  number(b.count), number(b.accumulated_ns), number(b.net_ns)});
            break;
        case CsvTable::sweeps:
            row(out, {"experiment", "sweep", "curve", "x", "y", "low", "high", "y_unit"});
            for (const Experiment& e : report.experiments)
                for (const Sweep& s : e.sweeps)
                    for (const SweepCurve& c : s.curves)
                        for (const SweepPoint& p : c.points)
                            row(out, {csv_field(e.id), csv_field(s.name), csv_field(c.name), number(p.x), number(p.y),
                                      number(p.low), number(p.high), csv_field(s.y_unit)});
            break;
        case CsvTable::metrics:
            row(out, {"experiment", "name", "value", "unit", "note"});
            for (const Experiment& e : report.experiments)
                for (const Metric& m : e.metrics)
                    row(out, {csv_field(e.id), csv_field(m.name), number(m.value), csv_field(m.unit), csv_field(m.note)});
            break;
    }
    return out;
}

}  // namespace gpuchrono::report
