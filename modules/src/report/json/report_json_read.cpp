// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reading a Report from JSON (docs/report-json.md) through the library's one JSON parser (json/strict_parser.hpp)
// and reader (json/json_reader.hpp); report_json_write.cpp writes it.
#include <gpuchrono/report/json/report_json.hpp>

#include "json/json_reader.hpp"
#include "json/strict_parser.hpp"
#include "report/json/activity_kind_json.hpp"
#include "kernel_metrics_json.hpp"
#include "report/json/fast_activity_reader.hpp"
#include "report/json/rank_section_json.hpp"
#include "report/streamed_report.hpp"

#include <gpuchrono/report/model/report_section.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace gpuchrono::report {

using json::as_double;
using json::as_int64;
using json::fail;
using json::Json;
using json::Reader;

namespace {

// "13.0" -> 13000, as CUDA encodes versions (cuda_version_string writes it); "unknown" or "" -> 0.
// Anything else must be "major.minor" with a minor below 100 and a major whose encoding fits an int:
// a version that does not is refused, never wrapped around.
int version_from_string(const std::string& s, const std::string& path) {
    if (s.empty() || s == "unknown") return 0;
    auto refuse = [&](const char* why) -> int {
        fail(path, "\"" + s + "\" is not a CUDA version: " + why);
    };
    const auto dot = s.find('.');
    if (dot == std::string::npos) return refuse("expected \"major.minor\" such as \"13.0\"");
    long long major = -1, minor = -1;
    const char* first = s.data();
    const char* mid = s.data() + dot;
    const char* last = s.data() + s.size();
    const auto a = std::from_chars(first, mid, major);
    const auto b = std::from_chars(mid + 1, last, minor);
    if (a.ptr != mid || b.ptr != last || a.ec == std::errc::invalid_argument || b.ec == std::errc::invalid_argument ||
        major < 0 || minor < 0)
        return refuse("expected \"major.minor\" such as \"13.0\"");
    constexpr long long max_major = (INT_MAX - 990) / 1000;  // 2147482
    if (a.ec == std::errc::result_out_of_range || major > max_major)
        return refuse(("the major version is above " + std::to_string(max_major)).c_str());
    if (b.ec == std::errc::result_out_of_range || minor > 99) return refuse("the minor version is above 99");
    return static_cast<int>(major * 1000 + minor * 10);
}

Stats read_stats(const Reader& r) {
    Stats s;
    s.count = r.unsigned_integer("count");
    s.rejected_non_finite = r.unsigned_integer("rejected_non_finite");
    s.min = Duration::from_ns(r.number("min_ns"));
    s.p5 = Duration::from_ns(r.number("p5_ns"));
    s.p25 = Duration::from_ns(r.number("p25_ns"));
    s.median = Duration::from_ns(r.number("median_ns"));
    s.mean = Duration::from_ns(r.number("mean_ns"));
    s.p75 = Duration::from_ns(r.number("p75_ns"));
    s.p95 = Duration::from_ns(r.number("p95_ns"));
    s.p99 = Duration::from_ns(r.number("p99_ns"));
    s.max = Duration::from_ns(r.number("max_ns"));
    s.stddev = Duration::from_ns(r.number("stddev_ns"));
    s.mad = Duration::from_ns(r.number("mad_ns"));
    s.cv = r.number("cv");
    return s;
}

Severity read_severity(const std::string& s, const std::string& path) {
    if (s == "info") return Severity::info;
    if (s == "warning") return Severity::warning;
    if (s == "error") return Severity::error;
    fail(path, "unknown severity \"" + s + "\" (expected info, warning or error)");
}

Findings read_findings(const Reader& r, std::string_view key) {
    Findings out;
    r.each(key, [&](const Json& v, const std::string& path) {
        Reader f(v, path);
        Finding finding{f.string("code"), read_severity(f.string("severity", "warning"), f.child("severity")),
                        f.string("message"), f.string("fix")};
        finding.where = f.string("where");
        if (const Json* e = f.find("evidence"); e && !e->is_null()) {
            const Reader evidence(*e, f.child("evidence"));  // checks that it is an object
            for (const auto& [name, value] : e->items())
                finding.evidence.push_back(Evidence{name, as_double(value, evidence.child(name))});
        }
        out.push_back(std::move(finding));
    });
    return out;
}

DeviceInfo read_device(const Reader& r) {
    DeviceInfo d;
    d.index = r.i32("index", -1);
    d.name = r.string("name");
    const std::string cc = r.string("compute_capability");
    if (const auto dot = cc.find('.'); dot != std::string::npos) {
        const auto a = std::from_chars(cc.data(), cc.data() + dot, d.compute_major);
        const auto b = std::from_chars(cc.data() + dot + 1, cc.data() + cc.size(), d.compute_minor);
        if (a.ec != std::errc() || b.ec != std::errc() || a.ptr != cc.data() + dot || b.ptr != cc.data() + cc.size())
            fail(r.child("compute_capability"), "expected \"major.minor\", found \"" + cc + "\"");
    }
    d.sm_count = r.i32("sm_count");
    d.sm_clock_nominal_mhz = r.number("sm_clock_nominal_mhz");
    d.sm_clock_measured_mhz = r.number("sm_clock_measured_mhz");
    d.memory_clock_mhz = r.number("memory_clock_mhz");
    d.memory_bus_bits = r.i32("memory_bus_bits");
    d.global_memory_bytes = r.unsigned_integer("global_memory_bytes");
    d.l2_bytes = r.unsigned_integer("l2_bytes");
    d.shared_memory_per_sm_bytes = r.unsigned_integer("shared_memory_per_sm_bytes");
    d.max_threads_per_sm = r.i32("max_threads_per_sm");
    d.max_blocks_per_sm = r.i32("max_blocks_per_sm");
    d.globaltimer_step_ns = r.number("globaltimer_step_ns");
    d.driver_version = version_from_string(r.string("driver_version"), r.child("driver_version"));
    d.runtime_version = version_from_string(r.string("runtime_version"), r.child("runtime_version"));
    return d;
}

SampleSeries read_series(const Reader& r) {
    SampleSeries s;
    s.name = r.string("name");
    s.policy = r.string("policy");
    r.each("samples_ns", [&](const Json& v, const std::string& path) { s.samples.push_back(Duration::from_ns(as_double(v, path))); });
    s.failed = r.unsigned_integer("failed");
    s.first_error = r.string("first_error");
    if (const Json* st = r.find("stats"); st && !st->is_null())
        s.stats = read_stats(Reader(*st, r.child("stats")));
    else
        s.stats = summarize(s.samples);  // a hand-written file may leave the summary to us
    s.findings = read_findings(r, "findings");
    if (const Json* m = r.find("measure"); m && !m->is_null()) {
        const Reader mr(*m, r.child("measure"));
        MeasureSummary x;
        x.method = mr.string("method");
        x.method_note = mr.string("method_note");
        x.cache_state = mr.string("cache_state");
        x.calls_per_sample = mr.unsigned_integer("calls_per_sample", 1);
        x.warmup_ns = mr.number("warmup_ns");
        x.warmup_calls = mr.unsigned_integer("warmup_calls");
        x.warmup_ended = mr.string("warmup_ended");
        x.stop_reason = mr.string("stop_reason");
        x.ci_low_ns = mr.number("ci_low_ns");
        x.ci_high_ns = mr.number("ci_high_ns");
        x.ci_coverage = mr.number("ci_coverage");
        x.target_relative_width = mr.number("target_relative_width");
        x.sampling_ns = mr.number("sampling_ns");
        x.flagged = mr.unsigned_integer("flagged");
        x.excluded = mr.unsigned_integer("excluded");
        x.bytes_per_second = mr.number("bytes_per_second");
        x.peak_bytes_per_second = mr.number("peak_bytes_per_second");
        x.items_per_second = mr.number("items_per_second");
        s.measure = std::move(x);
    }
    if (const Json* k = r.find("kernel_metrics"); k && !k->is_null())
        s.kernel_metrics = detail::read_kernel_metrics(*k, r.child("kernel_metrics"));
    // Both absent in files written before every series named its devices: empty then.
    r.each("devices", [&](const Json& v, const std::string& path) {
        const std::int64_t d = as_int64(v, path);
        if (d < 0 || d > std::numeric_limits<int>::max()) fail(path, std::to_string(d) + " is not a device ordinal");
        s.devices.push_back(static_cast<int>(d));
    });
    r.each("device_busy", [&](const Json& v, const std::string& path) {
        const Reader b(v, path);
        DeviceBusy x;
        const std::int64_t d = b.integer("device", -1);
        if (d < -1 || d > std::numeric_limits<int>::max()) fail(b.child("device"), std::to_string(d) + " is not a device ordinal");
        x.device = static_cast<int>(d);
        x.busy_ns = b.integer("busy_ns", 0);
        x.span_ns = b.integer("span_ns", 0);
        x.activities = b.unsigned_integer("activities");
        if (x.busy_ns < 0 || x.span_ns < x.busy_ns)
            fail(path, "busy_ns " + std::to_string(x.busy_ns) + " and span_ns " + std::to_string(x.span_ns) +
                           " cannot be true (0 <= busy <= span)");
        s.device_busy.push_back(x);
    });
    return s;
}

Timeline read_timeline(const Reader& r) {
    Timeline t;
    t.name = r.string("name");
    t.device = r.i32("device");
    t.regions = r.strings("regions");
    t.blocks_launched = r.unsigned_integer("blocks_launched");
    t.threads_per_block = r.u32("threads_per_block");
    t.sm_count = r.i32("sm_count");
    t.resident_blocks_per_sm = r.i32("resident_blocks_per_sm");
    t.dropped = r.unsigned_integer("dropped");
    t.globaltimer_step_ns = r.number("globaltimer_step_ns");
    t.sm_clock_mhz = r.number("sm_clock_mhz");
    t.sm_clock_source = r.string("sm_clock_source");
    t.overhead_region_cycles = r.number("overhead_region_cycles");
    t.overhead_iteration_cycles = r.number("overhead_iteration_cycles");
    t.overhead_subtracted = r.boolean("overhead_subtracted");
    r.each("samples", [&](const Json& v, const std::string& path) {
        Reader b(v, path);
        BlockSample s;
        s.block = b.u32("block");
        s.region = b.u32("region");
        s.sm_start = b.u32("sm_start");
        s.sm_stop = b.u32("sm_stop", s.sm_start);
        s.start_ns = b.unsigned_integer("start_ns");
        s.stop_ns = b.unsigned_integer("stop_ns");
        s.start_cycles = b.unsigned_integer("start_cycles");
        s.stop_cycles = b.unsigned_integer("stop_cycles");
        s.count = b.unsigned_integer("count", 1);
        s.accumulated_ns = b.unsigned_integer("accumulated_ns", s.stop_ns - s.start_ns);
        s.accumulated_cycles = b.unsigned_integer("accumulated_cycles");
        s.cycles_valid = b.boolean("cycles_valid");
        s.accumulating = b.boolean("accumulating");
        s.net_ns = b.number("net_ns");
        if (std::isnan(s.net_ns)) s.net_ns = 0.0;
        t.samples.push_back(s);
    });
    return t;
}

KernelActivity read_activity(const Reader& r) {
    KernelActivity a;
    const std::string kind = r.string("kind", "kernel");
    const std::optional<ActivityKind> named = detail::activity_kind_named(kind);
    if (!named) fail(r.child("kind"), "expected \"kernel\", \"memcpy\" or \"memset\", found \"" + kind + "\"");
    a.kind = *named;
    a.name = r.string("name");
    a.device = r.i32("device", -1);
    a.stream = r.u32("stream");
    auto triple = [&](const char* key, std::uint32_t (&out)[3]) {
        std::size_t i = 0;
        r.each(key, [&](const Json& v, const std::string& path) {
            if (i >= 3 || !v.is_number_unsigned()) fail(path, "expected three unsigned integers");
            out[i++] = v.get<std::uint32_t>();
        });
    };
    triple("grid", a.grid);
    triple("block", a.block);
    a.start_ns = r.unsigned_integer("start_ns");
    a.end_ns = r.unsigned_integer("end_ns");
    a.correlation_id = r.u32("correlation_id");
    a.graph_id = r.u32("graph_id");
    a.graph_node_id = r.unsigned_integer("graph_node_id");
    a.bytes = r.unsigned_integer("bytes");
    return a;
}

Sweep read_sweep(const Reader& r) {
    Sweep s;
    s.name = r.string("name");
    s.title = r.string("title");
    s.x_label = r.string("x_label");
    s.y_label = r.string("y_label");
    s.y_unit = r.string("y_unit", "ns");
    s.x_scale = r.string("x_scale", "linear");
    s.band_label = r.string("band_label", "min .. max");
    if (s.x_scale != "linear" && s.x_scale != "log")
        fail(r.child("x_scale"), "expected \"linear\" or \"log\", found \"" + s.x_scale + "\"");
    r.each("curves", [&](const Json& v, const std::string& path) {
        Reader c(v, path);
        SweepCurve curve;
        curve.name = c.string("name");
        c.each("points", [&](const Json& pv, const std::string& ppath) {
            Reader p(pv, ppath);
            curve.points.push_back(SweepPoint{p.number("x"), p.number("y"), p.number("low"), p.number("high")});
        });
        s.curves.push_back(std::move(curve));
    });
    r.each("markers", [&](const Json& v, const std::string& path) {
        Reader m(v, path);
        s.markers.push_back(SweepMarker{m.number("x"), m.string("label")});
    });
    return s;
}

Experiment read_experiment(const Reader& r) {
    Experiment e;
    e.id = r.string("id");
    e.title = r.string("title");
    // Reports written before 0.4 name the member "seed"; they are read until 0.5.
    e.reproduces = r.present("reproduces") ? r.string("reproduces") : r.string("seed");
    e.explanation = r.strings("explanation");
    r.each("metrics", [&](const Json& v, const std::string& path) {
        Reader m(v, path);
        e.metrics.push_back(Metric{m.string("name"), m.number("value"), m.string("unit"), m.string("note")});
    });
    r.each("series", [&](const Json& v, const std::string& path) { e.series.push_back(read_series(Reader(v, path))); });
    r.each("timelines", [&](const Json& v, const std::string& path) { e.timelines.push_back(read_timeline(Reader(v, path))); });
    r.each("sweeps", [&](const Json& v, const std::string& path) { e.sweeps.push_back(read_sweep(Reader(v, path))); });
    r.each("activities", [&](const Json& v, const std::string& path) { e.activities.push_back(read_activity(Reader(v, path))); });
    e.findings = read_findings(r, "findings");
    return e;
}

Report read_report(const Json& document) {
    const Reader r(document, "");
    const Json* schema = r.find("schema");
    if (!schema) fail("schema", "missing (not a gpuchrono report: expected \"schema\": \"" + std::string(report_schema_name) + "\")");
    if (r.string("schema") != report_schema_name)
        fail("schema", schema->dump(-1, ' ', false, Json::error_handler_t::replace) + " is not a gpuchrono report (expected \"" +
                           report_schema_name + "\")");
    if (!r.find("schema_version")) fail("schema_version", "missing (expected an integer >= 1)");
    const std::int64_t version = r.integer("schema_version", -1);
    if (version < 1) fail("schema_version", std::to_string(version) + " is not a schema version (expected an integer >= 1)");
    if (version > schema_version)
        fail("schema_version", std::to_string(version) + " was written by a newer gpuchrono; this one reads up to " +
                                   std::to_string(schema_version));
    Report report;
    report.generator = r.string("generator");
    report.created_utc = r.string("created_utc");
    report.host = r.string("host");
    if (const Json* d = r.find("device"); d && !d->is_null()) report.device = read_device(Reader(*d, "device"));
    report.notes = r.strings("notes");
    r.each("experiments", [&](const Json& v, const std::string& path) { report.experiments.push_back(read_experiment(Reader(v, path))); });
    if (const Json* d = r.find("distributed"); d && !d->is_null()) report.distributed = distributed::detail::read_rank_section(*d, "distributed");
    return report;
}

// Where a report's activities are: the elements of each experiment's "activities".
const std::vector<json::PathStep>& activities_path() {
    static const std::vector<json::PathStep> at{"experiments", json::any_element, "activities", json::any_element};
    return at;
}

// Each activity converted (read_activity) and handed to the sink the moment the parser closes its object, then
// dropped from the document: a rank report of 100,000 activities never stands as a DOM of them. The first
// `skip` of them the sink already has (from the fast reader, which stopped at something it leaves to the
// strict parser): they are checked again but not handed over twice.
json::StreamedObjects streamed_activities(const ActivitySink& sink, std::size_t& skip) {
    return {activities_path(), [&sink, &skip](const Json& object, const std::string& path) {
                KernelActivity a;
                try {
                    a = read_activity(Reader(object, path));
                } catch (const Json::exception& e) {
                    throw json::ReadError(json::without_exception_id(e.what()));  // the reader's backstop, as report_from_text's
                }
                if (skip)
                    --skip;
                else
                    sink(std::move(a));
            }};
}

// The document, its activities handed to `sink` when there is one (the first `skip_activities` of them not).
Json parse_document(std::string_view text, const ActivitySink* sink = nullptr, std::size_t skip_activities = 0) {
    if (text.empty()) throw ReportError("empty, expected a gpuchrono report (JSON)");
    try {
        if (!sink) return json::parse_strict(text);
        const json::StreamedObjects activities = streamed_activities(*sink, skip_activities);
        return json::parse_strict(text, &activities);
    } catch (const json::ReadError& e) {
        throw ReportError(e.what());  // a syntax error, a member named twice, or an activity the sink was to get
    }
}

Report report_from_text(std::string_view text, const ActivitySink* sink = nullptr) {
    Json document;
    std::size_t delivered = 0;
    std::optional<Json> fast;
    if (sink && !text.empty()) {
        std::size_t unused_skip = 0;  // the fast reader converts the activities itself: this take is never called
        fast = detail::parse_streaming_activities_fast(text, streamed_activities(*sink, unused_skip), *sink, delivered);
    }
    document = fast ? std::move(*fast) : parse_document(text, sink, delivered);
    try {
        return read_report(document);
    } catch (const json::ReadError& e) {
        throw ReportError(e.what());  // the shared reader's refusal, with the member's path, as this API's error
    } catch (const Json::exception& e) {
        // The reader checks each value's type before converting it; this is the backstop.
        throw ReportError(json::without_exception_id(e.what()));
    }
}

std::string system_error_text(int error) { return std::system_category().message(error); }

// The file's text into `text` (its capacity kept: a caller reading reports in turn allocates once).
void read_file(const std::filesystem::path& file, std::string& text) {
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (status.type() == std::filesystem::file_type::not_found) throw ReportError("no such file");
    if (ec) throw ReportError("cannot read it: " + ec.message());
    if (std::filesystem::is_directory(status))
        throw ReportError("is a directory, expected a report file (the report.json inside it?)");
    const bool regular = std::filesystem::is_regular_file(status);
    std::uintmax_t expected_size = 0;
    if (regular) {
        const std::uintmax_t size = std::filesystem::file_size(file, ec);
        if (!ec && size > max_report_file_bytes)
            throw ReportError("is " + std::to_string(size) + " bytes, more than a report may be (max_report_file_bytes = " +
                              std::to_string(max_report_file_bytes) + ")");
        if (!ec) expected_size = size;
    }
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(file.c_str(), "rb"), &std::fclose);
    if (!in) throw ReportError("cannot open it: " + system_error_text(errno));
    // Read to the end (a pipe or a file still growing has no size to trust: the size is a first guess),
    // straight into the text, refusing more than the limit.
    const std::size_t most = static_cast<std::size_t>(max_report_file_bytes) + 1;
    std::size_t used = 0;
    text.resize(std::min(most, std::max<std::size_t>(static_cast<std::size_t>(expected_size) + 1, std::size_t{1} << 16)));
    for (;;) {
        if (used == text.size()) {
            if (text.size() >= most)
                throw ReportError("holds more than max_report_file_bytes (" + std::to_string(max_report_file_bytes) + " bytes)");
            text.resize(std::min(most, text.size() * 2));
        }
        const std::size_t n = std::fread(text.data() + used, 1, text.size() - used, in.get());
        used += n;
        if (n == 0) break;
    }
    if (std::ferror(in.get())) throw ReportError("reading it failed: " + system_error_text(errno));
    if (used > max_report_file_bytes)
        throw ReportError("holds more than max_report_file_bytes (" + std::to_string(max_report_file_bytes) + " bytes)");
    text.resize(used);
}

std::string read_file(const std::filesystem::path& file) {
    std::string text;
    read_file(file, text);
    return text;
}

}  // namespace

Report report_from_json(std::string_view text) { return report_from_text(text); }

Report load_report_streaming_activities(const std::filesystem::path& file, const ActivitySink& on_activity) {
    std::string text;
    return load_report_streaming_activities(file, on_activity, text);
}

Report load_report_streaming_activities(const std::filesystem::path& file, const ActivitySink& on_activity, std::string& text) {
    try {
        read_file(file, text);
        return report_from_text(text, &on_activity);
    } catch (const ReportError& e) {
        throw ReportError(file.string() + ": " + e.what());
    } catch (const std::bad_alloc&) {
        throw ReportError(file.string() + ": not enough memory to read it");
    }
}

Report load_report(const std::filesystem::path& file) {
    try {
        return report_from_text(read_file(file));
    } catch (const ReportError& e) {
        throw ReportError(file.string() + ": " + e.what());
    } catch (const std::bad_alloc&) {
        throw ReportError(file.string() + ": not enough memory to read it");
    }
}

}  // namespace gpuchrono::report
