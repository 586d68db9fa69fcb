// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Writing a Report as JSON (docs/report-json.md); report_json_read.cpp reads it back.
#include <gpuchrono/report/json/report_json.hpp>

#include "json/json_writer.hpp"
#include "kernel_metrics_json.hpp"
#include "report/json/rank_section_json.hpp"

#include <gpuchrono/report/model/report_section.hpp>

#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <unordered_set>
#include <vector>

namespace gpuchrono::report {

using json::Json;
using json::object;

namespace {

Json ns(Duration d) { return Json(d.ns()); }

Json stats_json(const Stats& s) {
    return object({
        {"count", Json(static_cast<std::uint64_t>(s.count))},
        {"rejected_non_finite", Json(static_cast<std::uint64_t>(s.rejected_non_finite))},
        {"min_ns", ns(s.min)},
        {"p5_ns", ns(s.p5)},
        {"p25_ns", ns(s.p25)},
        {"median_ns", ns(s.median)},
        {"mean_ns", ns(s.mean)},
        {"p75_ns", ns(s.p75)},
        {"p95_ns", ns(s.p95)},
        {"p99_ns", ns(s.p99)},
        {"max_ns", ns(s.max)},
        {"stddev_ns", ns(s.stddev)},
        {"mad_ns", ns(s.mad)},
        {"cv", Json(s.cv)},
    });
}

Json findings_json(const Findings& findings) {
    Json out = Json::array();
    for (const Finding& f : findings) {
        Json evidence = Json::object();
        for (const Evidence& e : f.evidence) evidence[e.name] = e.value;
        out.push_back(object({{"code", f.code},
                              {"severity", to_string(f.severity)},
                              {"message", f.message},
                              {"fix", f.fix},
                              {"where", f.where},
                              {"evidence", std::move(evidence)}}));
    }
    return out;
}

Json strings_json(const std::vector<std::string>& strings) {
    Json out = Json::array();
    for (const auto& s : strings) out.push_back(s);
    return out;
}

Json device_json(const DeviceInfo& d) {
    return object({
        {"index", d.index},
        {"name", d.name},
        {"compute_capability", std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)},
        {"sm_count", d.sm_count},
        {"sm_clock_nominal_mhz", d.sm_clock_nominal_mhz},
        {"sm_clock_measured_mhz", d.sm_clock_measured_mhz},
        {"memory_clock_mhz", d.memory_clock_mhz},
        {"memory_bus_bits", d.memory_bus_bits},
        {"global_memory_bytes", d.global_memory_bytes},
        {"l2_bytes", d.l2_bytes},
        {"shared_memory_per_sm_bytes", d.shared_memory_per_sm_bytes},
        {"max_threads_per_sm", d.max_threads_per_sm},
        {"max_blocks_per_sm", d.max_blocks_per_sm},
        {"globaltimer_step_ns", d.globaltimer_step_ns},
        {"driver_version", cuda_version_string(d.driver_version)},
        {"runtime_version", cuda_version_string(d.runtime_version)},
    });
}

Json measure_json(const MeasureSummary& m) {
    return object({
        {"method", m.method},
        {"method_note", m.method_note},
        {"cache_state", m.cache_state},
        {"calls_per_sample", m.calls_per_sample},
        {"warmup_ns", m.warmup_ns},
        {"warmup_calls", m.warmup_calls},
        {"warmup_ended", m.warmup_ended},
        {"stop_reason", m.stop_reason},
        {"ci_low_ns", m.ci_low_ns},
        {"ci_high_ns", m.ci_high_ns},
        {"ci_coverage", m.ci_coverage},
        {"target_relative_width", m.target_relative_width},
        {"sampling_ns", m.sampling_ns},
        {"flagged", m.flagged},
        {"excluded", m.excluded},
        {"bytes_per_second", m.bytes_per_second},
        {"peak_bytes_per_second", m.peak_bytes_per_second},
        {"items_per_second", m.items_per_second},
    });
}

Json series_json(const SampleSeries& s) {
    Json samples = Json::array();
    samples.get_ref<Json::array_t&>().reserve(s.samples.size());
    for (Duration d : s.samples) samples.push_back(d.ns());
    Json out = object({
        {"name", s.name},
        {"policy", s.policy},
        {"samples_ns", std::move(samples)},
        {"failed", static_cast<std::uint64_t>(s.failed)},
        {"first_error", s.first_error},
        {"stats", stats_json(s.stats)},
        {"findings", findings_json(s.findings)},
    });
    if (s.measure) out["measure"] = measure_json(*s.measure);  // only for series measure() took
    if (s.kernel_metrics) out["kernel_metrics"] = detail::kernel_metrics_json(*s.kernel_metrics);  // when collected
    if (!s.devices.empty()) {
        Json devices = Json::array();
        for (const int d : s.devices) devices.push_back(d);
        out["devices"] = std::move(devices);
    }
    if (!s.device_busy.empty()) {
        Json busy = Json::array();
        for (const DeviceBusy& b : s.device_busy)
            busy.push_back(object({{"device", b.device}, {"busy_ns", b.busy_ns}, {"span_ns", b.span_ns}, {"activities", b.activities}}));
        out["device_busy"] = std::move(busy);
    }
    return out;
}

Json timeline_json(const Timeline& t) {
    Json samples = Json::array();
    samples.get_ref<Json::array_t&>().reserve(t.samples.size());
    for (const BlockSample& b : t.samples)
        samples.push_back(object({
            {"block", b.block},
            {"region", b.region},
            {"sm_start", b.sm_start},
            {"sm_stop", b.sm_stop},
            {"start_ns", static_cast<std::uint64_t>(b.start_ns)},
            {"stop_ns", static_cast<std::uint64_t>(b.stop_ns)},
            {"start_cycles", static_cast<std::uint64_t>(b.start_cycles)},
            {"stop_cycles", static_cast<std::uint64_t>(b.stop_cycles)},
            {"count", static_cast<std::uint64_t>(b.count)},
            {"accumulated_ns", static_cast<std::uint64_t>(b.accumulated_ns)},
            {"accumulated_cycles", static_cast<std::uint64_t>(b.accumulated_cycles)},
            {"cycles_valid", b.cycles_valid},
            {"accumulating", b.accumulating},
            {"net_ns", b.net_ns},
        }));
    return object({
        {"name", t.name},
        {"device", t.device},
        {"regions", strings_json(t.regions)},
        {"blocks_launched", static_cast<std::uint64_t>(t.blocks_launched)},
        {"threads_per_block", t.threads_per_block},
        {"sm_count", t.sm_count},
        {"resident_blocks_per_sm", t.resident_blocks_per_sm},
        {"dropped", static_cast<std::uint64_t>(t.dropped)},
        {"globaltimer_step_ns", t.globaltimer_step_ns},
        {"sm_clock_mhz", t.sm_clock_mhz},
        {"sm_clock_source", t.sm_clock_source},
        {"overhead_region_cycles", t.overhead_region_cycles},
        {"overhead_iteration_cycles", t.overhead_iteration_cycles},
        {"overhead_subtracted", t.overhead_subtracted},
        {"samples", std::move(samples)},
    });
}

Json sweep_json(const Sweep& s) {
    Json curves = Json::array();
    for (const SweepCurve& c : s.curves) {
        Json points = Json::array();
        for (const SweepPoint& p : c.points) points.push_back(object({{"x", p.x}, {"y", p.y}, {"low", p.low}, {"high", p.high}}));
        curves.push_back(object({{"name", c.name}, {"points", std::move(points)}}));
    }
    Json markers = Json::array();
    for (const SweepMarker& m : s.markers) markers.push_back(object({{"x", m.x}, {"label", m.label}}));
    return object({
        {"name", s.name},
        {"title", s.title},
        {"x_label", s.x_label},
        {"y_label", s.y_label},
        {"y_unit", s.y_unit},
        {"x_scale", s.x_scale},
        {"band_label", s.band_label},
        {"curves", std::move(curves)},
        {"markers", std::move(markers)},
    });
}

Json activity_json(const KernelActivity& a) {
    return object({
        {"kind", to_string(a.kind)},
        {"name", a.name},
        {"device", a.device},
        {"stream", a.stream},
        {"grid", Json::array({a.grid[0], a.grid[1], a.grid[2]})},
        {"block", Json::array({a.block[0], a.block[1], a.block[2]})},
        {"start_ns", a.start_ns},
        {"end_ns", a.end_ns},
        {"correlation_id", a.correlation_id},
        {"graph_id", a.graph_id},
        {"graph_node_id", a.graph_node_id},
        {"bytes", a.bytes},
    });
}

Json experiment_json(const Experiment& e) {
    Json metrics = Json::array(), series = Json::array(), timelines = Json::array(), sweeps = Json::array();
    for (const Metric& m : e.metrics) metrics.push_back(object({{"name", m.name}, {"value", m.value}, {"unit", m.unit}, {"note", m.note}}));
    for (const auto& s : e.series) series.push_back(series_json(s));
    for (const auto& t : e.timelines) timelines.push_back(timeline_json(t));
    for (const auto& s : e.sweeps) sweeps.push_back(sweep_json(s));
    Json out = object({
        {"id", e.id},
        {"title", e.title},
        {"reproduces", e.reproduces},
        {"explanation", strings_json(e.explanation)},
        {"metrics", std::move(metrics)},
        {"series", std::move(series)},
        {"timelines", std::move(timelines)},
        {"sweeps", std::move(sweeps)},
        {"findings", findings_json(e.findings)},
    });
    if (!e.activities.empty()) {  // written only when there are some: files without KernelPolicy stay as they were
        Json activities = Json::array();
        for (const KernelActivity& a : e.activities) activities.push_back(activity_json(a));
        out["activities"] = std::move(activities);
    }
    return out;
}

std::string system_error_text(int error) { return std::system_category().message(error); }

}  // namespace

std::string to_json(const Report& report) {
    Json experiments = Json::array();
    for (const Experiment& e : report.experiments) experiments.push_back(experiment_json(e));
    Json document = object({
        {"schema", report_schema_name},
        {"schema_version", schema_version},
        {"generator", report.generator},
        {"created_utc", report.created_utc},
        {"host", report.host},
        {"device", device_json(report.device)},
        {"notes", Json()},
        {"experiments", std::move(experiments)},
    });
    // A section new_report() started is finished here (end anchor, devices): its notes say what could not be.
    std::vector<std::string> notes = report.notes;
    if (const auto section = distributed::finished_report_section(report, notes))
        document["distributed"] = distributed::detail::rank_section_json(*section);
    document["notes"] = strings_json(notes);
    return json::write_json(document);
}

void save_report(const Report& report, const std::filesystem::path& file) {
    const std::string text = to_json(report) + "\n";
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(file.c_str(), "wb"), &std::fclose);
    if (!out) throw std::runtime_error("gpuchrono: cannot write the report to " + file.string() + ": " + system_error_text(errno));
    if (std::fwrite(text.data(), 1, text.size(), out.get()) != text.size() || std::fflush(out.get()) != 0)
        throw std::runtime_error("gpuchrono: writing the report to " + file.string() + " failed: " + system_error_text(errno));
}

}  // namespace gpuchrono::report
