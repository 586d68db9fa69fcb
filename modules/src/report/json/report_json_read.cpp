// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reading a Report from JSON (docs/report-json.md) through the library's one JSON reader (json/json_reader.hpp);
// report_json_write.cpp writes it.
#include <gpuchrono/report/json/report_json.hpp>

#include "json/json_reader.hpp"
#include "kernel_metrics_json.hpp"
#include "utf8.hpp"
#include "report/json/rank_section_json.hpp"
#include "report/streamed_report.hpp"

#include <gpuchrono/report/model/report_section.hpp>

#if GPUCHRONO_HAVE_RAPIDJSON
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#endif

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <unordered_set>
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
    if (kind == "kernel")
        a.kind = ActivityKind::kernel;
    else if (kind == "memcpy")
        a.kind = ActivityKind::memcpy;
    else if (kind == "memset")
        a.kind = ActivityKind::memset;
    else
        fail(r.child("kind"), "expected \"kernel\", \"memcpy\" or \"memset\", found \"" + kind + "\"");
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
    e.seed = r.present("reproduces") ? r.string("reproduces") : r.string("seed");
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

// nlohmann's messages start with "[json.exception.parse_error.101] "; the id says nothing to a user.
std::string without_exception_id(const char* what) {
    std::string s = what;
    if (s.rfind("[json.exception.", 0) == 0)
        if (const auto end = s.find("] "); end != std::string::npos) s.erase(0, end + 2);
    return s;
}

// Builds the document from nlohmann's SAX events, refusing a member named twice in one object: JSON
// leaves the meaning open (RFC 8259: names SHOULD be unique) and nlohmann's own DOM parser keeps the last
// silently, so a file edited by hand could say two things at once. Why not nlohmann::json::parse with a
// callback: its callback parser rescans the parent container at every object's end (quadratic in the
// number of block records), and its DOM parser looks each member up in the ordered map before adding it
// (quadratic in the members of one object). Here a hash set per open object answers "seen before?" and
// the member is appended directly.
//
// With an activity sink, each experiments[i].activities[j] is converted (read_activity) and handed to the sink
// the moment its object closes, then dropped from the document: a rank report of 100,000 activities then
// never stands as a DOM of them (about six times the file), only as the sink keeps them.
class DocumentBuilder {
public:
    // skip_activities: how many activities, in file order, the sink already has (from the fast reader, which
    // stopped at something it leaves to this one): they are checked again but not handed over twice.
    explicit DocumentBuilder(std::size_t text_size, const ActivitySink* sink = nullptr, std::size_t skip_activities = 0)
        : text_size_(text_size), sink_(sink), skip_activities_(skip_activities) {}

    Json take() { return std::move(root_); }

    bool null() { return add(Json(nullptr)), true; }
    bool boolean(bool b) { return add(Json(b)), true; }
    bool number_integer(Json::number_integer_t i) { return add(Json(i)), true; }
    bool number_unsigned(Json::number_unsigned_t u) { return add(Json(u)), true; }
    bool number_float(Json::number_float_t d, const Json::string_t&) { return add(Json(d)), true; }
    bool string(Json::string_t& s) { return add(Json(std::move(s))), true; }
    bool binary(Json::binary_t&) { throw ReportError("binary values are not JSON"); }  // only binary formats have them

    bool start_object(std::size_t) { return open(add(Json::object()), true), true; }
    bool start_array(std::size_t) { return open(add(Json::array()), false), true; }
    bool end_object() {
        --depth_;
        if (sink_ && depth_ == 4 && in_activities()) {
            auto& activities = *levels_[3].value->get_ptr<Json::array_t*>();
            const std::string where = path();
            KernelActivity a;
            try {
                a = read_activity(Reader(activities.back(), where));
            } catch (const json::ReadError& e) {
                throw ReportError(e.what());
            } catch (const Json::exception& e) {
                throw ReportError(without_exception_id(e.what()));  // the reader's backstop, as report_from_text's
            }
            activities.pop_back();
            ++levels_[3].dropped;
            if (skip_activities_)
                --skip_activities_;
            else
                (*sink_)(std::move(a));
        }
        return true;
    }

    // Whether the value about to be added is an element of experiments[i].activities that goes to the sink.
    bool next_is_streamed_activity() const { return sink_ && depth_ == 4 && in_activities(); }
    // An activity the fast reader converted and handed to the sink: it counts in later elements' paths.
    void streamed_activity() { ++levels_[3].dropped; }
    bool end_array() { return --depth_, true; }

    bool key(Json::string_t& name) {
        Level& top = levels_[depth_ - 1];
        if (!top.keys.insert(name).second) {
            top.key = name;
            std::string message = "the member \"";  // appended: g++ 12 misreads literal + std::string (-Wrestrict)
            fail(path(), message.append(name).append("\" appears twice"));
        }
        top.key = std::move(name);
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const Json::exception& e) {
        // The "last read" token nlohmann quotes may hold the file's invalid bytes: keep the message UTF-8.
        std::string what = valid_utf8(without_exception_id(e.what()));
        // position: where parsing stopped, 1-based; past the last byte means the text ran out.
        if (position >= text_size_ && e.id / 100 == 1) what += " (the text ends before the document does: truncated?)";
        throw ReportError(what);
    }

private:
    struct Level {
        Json* value = nullptr;
        bool object = false;
        std::unordered_set<std::string> keys{};
        std::string key{};  // objects: the member being read
        std::size_t dropped = 0;  // arrays: elements handed to the sink and removed (they still count in paths)
    };

    // Whether the object that just closed (at depth 4) is an element of experiments[i].activities.
    bool in_activities() const {
        return levels_[0].object && levels_[0].key == "experiments" && !levels_[1].object && levels_[2].object &&
               levels_[2].key == "activities" && !levels_[3].object;
    }

    // Places `v` where the parser is: the root, the next element of an array, or the member just named.
    // Pointers to open containers stay valid: a container only grows while none of its children is open.
    Json* add(Json v) {
        if (depth_ == 0) {
            root_ = std::move(v);
            return &root_;
        }
        Level& top = levels_[depth_ - 1];
        if (top.object) {
            auto& members = static_cast<Json::object_t::Container&>(*top.value->get_ptr<Json::object_t*>());
            members.emplace_back(top.key, std::move(v));  // unique: key() checked it
            return &members.back().second;
        }
        auto& elements = *top.value->get_ptr<Json::array_t*>();
        elements.push_back(std::move(v));
        return &elements.back();
    }

    void open(Json* container, bool object) {
        if (depth_ == levels_.size()) levels_.emplace_back();
        Level& l = levels_[depth_++];
        l.value = container;
        l.object = object;
        l.keys.clear();  // levels are reused: their hash tables keep their buckets
        l.dropped = 0;
    }

    std::string path() const {
        std::string out;
        for (std::size_t d = 0; d < depth_; ++d) {
            const Level& l = levels_[d];
            if (!l.object)
                out.append("[").append(std::to_string(l.value->size() - 1 + l.dropped)).append("]");
            else
                out.append(out.empty() ? "" : ".").append(l.key);
        }
        return out;
    }

    std::size_t text_size_;
    const ActivitySink* sink_;
    std::size_t skip_activities_;
    Json root_;
    std::vector<Level> levels_;
    std::size_t depth_ = 0;
};

#if GPUCHRONO_HAVE_RAPIDJSON
// The fast reader of rank reports: RapidJSON's SAX parser (about four times nlohmann's speed on a report's
// text, which was most of a job merge's time) feeding the same DocumentBuilder, except that the activities the
// sink is to get are converted straight from the parser's events, without a JSON value or a path per member.
// It takes only what it is sure the strict reader reads the same way: activity members of the expected types,
// known names, each once, ASCII text (or UTF-8 it checked). Anything else (a syntax error, a member named
// twice, a null, an unknown member, a number out of range) stops it, and the caller reads the document again
// with nlohmann's parser, which accepts it or says what is wrong exactly as it always did; activities the sink
// already has are then checked again but not handed over twice.
class FastActivityReader : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, FastActivityReader> {
public:
    FastActivityReader(DocumentBuilder& document, const ActivitySink& sink) : document_(document), sink_(sink) {}

    std::size_t delivered() const noexcept { return delivered_; }

    bool Null() { return !in_activity_ && forward([&] { document_.null(); }); }
    bool Bool(bool b) { return !in_activity_ && forward([&] { document_.boolean(b); }); }
    bool Int(int i) { return in_activity_ ? signed_value(i) : forward([&] { document_.number_integer(i); }); }
    bool Int64(std::int64_t i) { return in_activity_ ? signed_value(i) : forward([&] { document_.number_integer(i); }); }
    bool Uint(unsigned u) { return in_activity_ ? unsigned_value(u) : forward([&] { document_.number_unsigned(u); }); }
    bool Uint64(std::uint64_t u) { return in_activity_ ? unsigned_value(u) : forward([&] { document_.number_unsigned(u); }); }
    bool Double(double d) {
        static const Json::string_t no_text;
        return !in_activity_ && forward([&] { document_.number_float(d, no_text); });
    }
    bool String(const char* text, rapidjson::SizeType length, bool) {
        const std::string_view s(text, length);
        if (!utf8_as_strict_reader_reads(s)) return false;
        if (!in_activity_) return forward([&] {
            Json::string_t value(s);
            document_.string(value);
        });
        if (in_array_ || seen_ & bit(member_)) return false;
        seen_ |= bit(member_);
        if (member_ == Member::name) {
            activity_.name.assign(s);
            return true;
        }
        if (member_ != Member::kind) return false;
        if (s == "kernel")
            activity_.kind = ActivityKind::kernel;
        else if (s == "memcpy")
            activity_.kind = ActivityKind::memcpy;
        else if (s == "memset")
            activity_.kind = ActivityKind::memset;
        else
            return false;
        return true;
    }
    bool Key(const char* text, rapidjson::SizeType length, bool) {
        const std::string_view s(text, length);
        if (!utf8_as_strict_reader_reads(s)) return false;
        if (!in_activity_) return forward([&] {
            Json::string_t name(s);
            document_.key(name);
        });
        member_ = member_named(s);
        return member_ != Member::unknown && !(seen_ & bit(member_));
    }
    bool StartObject() {
        if (in_activity_) return false;
        if (document_.next_is_streamed_activity()) {
            in_activity_ = true;
            activity_ = KernelActivity{};
            seen_ = 0;
            return true;
        }
        return forward([&] { document_.start_object(0); });
    }
    bool EndObject(rapidjson::SizeType) {
        if (!in_activity_) return forward([&] { document_.end_object(); });
        in_activity_ = false;
        document_.streamed_activity();
        ++delivered_;
        sink_(std::move(activity_));
        return true;
    }
    bool StartArray() {
        if (!in_activity_) return forward([&] { document_.start_array(0); });
        if (in_array_ || (member_ != Member::grid && member_ != Member::block) || seen_ & bit(member_)) return false;
        in_array_ = true;
        array_length_ = 0;
        return true;
    }
    bool EndArray(rapidjson::SizeType) {
        if (!in_activity_) return forward([&] { document_.end_array(); });
        in_array_ = false;
        seen_ |= bit(member_);
        return true;
    }

private:
    enum class Member { kind, name, device, stream, grid, block, start_ns, end_ns, correlation_id, graph_id, graph_node_id, bytes, unknown };
    static unsigned bit(Member m) { return 1u << static_cast<unsigned>(m); }
    static Member member_named(std::string_view s) {
        static constexpr std::pair<std::string_view, Member> names[] = {
            {"kind", Member::kind},         {"name", Member::name},         {"device", Member::device},
            {"stream", Member::stream},     {"grid", Member::grid},         {"block", Member::block},
            {"start_ns", Member::start_ns}, {"end_ns", Member::end_ns},     {"correlation_id", Member::correlation_id},
            {"graph_id", Member::graph_id}, {"graph_node_id", Member::graph_node_id}, {"bytes", Member::bytes},
        };
        for (const auto& [n, m] : names)
            if (n == s) return m;
        return Member::unknown;
    }

    // ASCII passes as it is; other text only when it is well-formed UTF-8, as nlohmann's reader requires. This
    // check, on the strings alone, replaces RapidJSON's encoding validation of every byte (an eighth of the
    // parse), and also catches what its escapes may produce (a lone low surrogate).
    static bool utf8_as_strict_reader_reads(std::string_view s) {
        for (const char c : s)
            if (static_cast<unsigned char>(c) >= 0x80) return valid_utf8(s) == s;
        return true;
    }

    // The document's refusals (a member named twice) stop this reader: the strict one words them.
    template <class F>
    bool forward(F&& add) {
        try {
            add();
            return true;
        } catch (const json::ReadError&) {
            return false;
        } catch (const ReportError&) {
            return false;
        }
    }

    // RapidJSON reports only numbers written with a minus sign as signed ("-0" included): only the device may be one.
    bool signed_value(std::int64_t i) {
        if (member_ != Member::device || in_array_ || seen_ & bit(member_) || i < INT_MIN) return false;
        seen_ |= bit(member_);
        activity_.device = static_cast<int>(i);
        return true;
    }
    bool unsigned_value(std::uint64_t u) {
        constexpr std::uint64_t u32_max = std::numeric_limits<std::uint32_t>::max();
        if (in_array_) {
            if (array_length_ >= 3 || u > u32_max) return false;
            (member_ == Member::grid ? activity_.grid : activity_.block)[array_length_++] = static_cast<std::uint32_t>(u);
            return true;
        }
        if (seen_ & bit(member_)) return false;
        seen_ |= bit(member_);
        switch (member_) {
        case Member::device:
            if (u > static_cast<std::uint64_t>(INT_MAX)) return false;
            activity_.device = static_cast<int>(u);
            return true;
        case Member::stream: return u <= u32_max && (activity_.stream = static_cast<std::uint32_t>(u), true);
        case Member::correlation_id: return u <= u32_max && (activity_.correlation_id = static_cast<std::uint32_t>(u), true);
        case Member::graph_id: return u <= u32_max && (activity_.graph_id = static_cast<std::uint32_t>(u), true);
        case Member::start_ns: activity_.start_ns = u; return true;
        case Member::end_ns: activity_.end_ns = u; return true;
        case Member::graph_node_id: activity_.graph_node_id = u; return true;
        case Member::bytes: activity_.bytes = u; return true;
        default: return false;
        }
    }

    DocumentBuilder& document_;
    const ActivitySink& sink_;
    std::size_t delivered_ = 0;
    bool in_activity_ = false;
    bool in_array_ = false;
    std::size_t array_length_ = 0;
    Member member_ = Member::unknown;
    unsigned seen_ = 0;
    KernelActivity activity_;
};

// The document with its activities streamed by the fast reader; nullopt when it stopped (see above), with
// `delivered` the activities the sink has by then.
std::optional<Json> parse_document_fast(std::string_view text, const ActivitySink& sink, std::size_t& delivered) {
    DocumentBuilder builder(text.size(), &sink);
    FastActivityReader handler(builder, sink);
    rapidjson::Reader reader;
    rapidjson::MemoryStream in(text.data(), text.size());
    const rapidjson::ParseResult ok =
        reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag>(in, handler);
    delivered = handler.delivered();
    // RapidJSON, like nlohmann, ends the text at a NUL byte; what follows one is left to nlohmann to judge.
    if (!ok || in.Tell() != text.size()) return std::nullopt;
    return builder.take();
}
#endif

Json parse_document(std::string_view text, const ActivitySink* sink = nullptr, std::size_t skip_activities = 0) {
    if (text.empty()) throw ReportError("empty, expected a gpuchrono report (JSON)");
    DocumentBuilder builder(text.size(), sink, skip_activities);
    try {
        Json::sax_parse(text.begin(), text.end(), &builder);
    } catch (const json::ReadError& e) {
        throw ReportError(e.what());  // a member named twice, or an activity the sink was to get
    }
    return builder.take();
}

Report report_from_text(std::string_view text, const ActivitySink* sink = nullptr) {
    Json document;
#if GPUCHRONO_HAVE_RAPIDJSON
    std::size_t delivered = 0;
    std::optional<Json> fast = sink && !text.empty() ? parse_document_fast(text, *sink, delivered) : std::nullopt;
    document = fast ? std::move(*fast) : parse_document(text, sink, delivered);
#else
    document = parse_document(text, sink);
#endif
    try {
        return read_report(document);
    } catch (const json::ReadError& e) {
        throw ReportError(e.what());  // the shared reader's refusal, with the member's path, as this API's error
    } catch (const Json::exception& e) {
        // The reader checks each value's type before converting it; this is the backstop.
        throw ReportError(without_exception_id(e.what()));
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
