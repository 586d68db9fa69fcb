#include <gpuchrono/report/report_json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gpuchrono::report {

using json::Array;
using json::Object;
using json::Value;

namespace {

constexpr const char* schema_name = "gpuchrono-report";

Value ns(Duration d) { return Value(d.ns()); }

Value stats_json(const Stats& s) {
    return Value(Object{
        {"count", Value(static_cast<unsigned long long>(s.count))},
        {"rejected_non_finite", Value(static_cast<unsigned long long>(s.rejected_non_finite))},
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
        {"cv", Value(s.cv)},
    });
}

Value findings_json(const Findings& findings) {
    Array out;
    for (const Finding& f : findings) {
        Object evidence;
        for (const Evidence& e : f.evidence) evidence.emplace_back(e.name, Value(e.value));
        out.emplace_back(Object{{"code", Value(f.code)},
                                {"severity", Value(to_string(f.severity))},
                                {"message", Value(f.message)},
                                {"fix", Value(f.fix)},
                                {"where", Value(f.where)},
                                {"evidence", Value(std::move(evidence))}});
    }
    return Value(std::move(out));
}

Value strings_json(const std::vector<std::string>& strings) {
    Array out;
    for (const auto& s : strings) out.emplace_back(s);
    return Value(std::move(out));
}

Value device_json(const DeviceInfo& d) {
    return Value(Object{
        {"index", Value(d.index)},
        {"name", Value(d.name)},
        {"compute_capability", Value(std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor))},
        {"sm_count", Value(d.sm_count)},
        {"sm_clock_nominal_mhz", Value(d.sm_clock_nominal_mhz)},
        {"sm_clock_measured_mhz", Value(d.sm_clock_measured_mhz)},
        {"memory_clock_mhz", Value(d.memory_clock_mhz)},
        {"memory_bus_bits", Value(d.memory_bus_bits)},
        {"global_memory_bytes", Value(static_cast<unsigned long long>(d.global_memory_bytes))},
        {"l2_bytes", Value(static_cast<unsigned long long>(d.l2_bytes))},
        {"shared_memory_per_sm_bytes", Value(static_cast<unsigned long long>(d.shared_memory_per_sm_bytes))},
        {"max_threads_per_sm", Value(d.max_threads_per_sm)},
        {"max_blocks_per_sm", Value(d.max_blocks_per_sm)},
        {"globaltimer_step_ns", Value(d.globaltimer_step_ns)},
        {"driver_version", Value(cuda_version_string(d.driver_version))},
        {"runtime_version", Value(cuda_version_string(d.runtime_version))},
    });
}

Value series_json(const SampleSeries& s) {
    Array samples;
    samples.reserve(s.samples.size());
    for (Duration d : s.samples) samples.push_back(ns(d));
    return Value(Object{
        {"name", Value(s.name)},
        {"policy", Value(s.policy)},
        {"samples_ns", Value(std::move(samples))},
        {"failed", Value(static_cast<unsigned long long>(s.failed))},
        {"first_error", Value(s.first_error)},
        {"stats", stats_json(s.stats)},
        {"findings", findings_json(s.findings)},
    });
}

Value timeline_json(const Timeline& t) {
    Array samples;
    samples.reserve(t.samples.size());
    for (const BlockSample& b : t.samples)
        samples.emplace_back(Object{
            {"block", Value(b.block)},
            {"region", Value(b.region)},
            {"sm_start", Value(b.sm_start)},
            {"sm_stop", Value(b.sm_stop)},
            {"start_ns", Value(static_cast<unsigned long long>(b.start_ns))},
            {"stop_ns", Value(static_cast<unsigned long long>(b.stop_ns))},
            {"start_cycles", Value(static_cast<unsigned long long>(b.start_cycles))},
            {"stop_cycles", Value(static_cast<unsigned long long>(b.stop_cycles))},
            {"count", Value(static_cast<unsigned long long>(b.count))},
            {"accumulated_ns", Value(static_cast<unsigned long long>(b.accumulated_ns))},
            {"accumulated_cycles", Value(static_cast<unsigned long long>(b.accumulated_cycles))},
            {"cycles_valid", Value(b.cycles_valid)},
            {"accumulating", Value(b.accumulating)},
            {"net_ns", Value(b.net_ns)},
        });
    return Value(Object{
        {"name", Value(t.name)},
        {"device", Value(t.device)},
        {"regions", strings_json(t.regions)},
        {"blocks_launched", Value(static_cast<unsigned long long>(t.blocks_launched))},
        {"threads_per_block", Value(t.threads_per_block)},
        {"sm_count", Value(t.sm_count)},
        {"resident_blocks_per_sm", Value(t.resident_blocks_per_sm)},
        {"dropped", Value(static_cast<unsigned long long>(t.dropped))},
        {"globaltimer_step_ns", Value(t.globaltimer_step_ns)},
        {"sm_clock_mhz", Value(t.sm_clock_mhz)},
        {"sm_clock_source", Value(t.sm_clock_source)},
        {"overhead_region_cycles", Value(t.overhead_region_cycles)},
        {"overhead_iteration_cycles", Value(t.overhead_iteration_cycles)},
        {"overhead_subtracted", Value(t.overhead_subtracted)},
        {"samples", Value(std::move(samples))},
    });
}

Value sweep_json(const Sweep& s) {
    Array curves;
    for (const SweepCurve& c : s.curves) {
        Array points;
        for (const SweepPoint& p : c.points)
            points.emplace_back(Object{{"x", Value(p.x)}, {"y", Value(p.y)}, {"low", Value(p.low)}, {"high", Value(p.high)}});
        curves.emplace_back(Object{{"name", Value(c.name)}, {"points", Value(std::move(points))}});
    }
    Array markers;
    for (const SweepMarker& m : s.markers) markers.emplace_back(Object{{"x", Value(m.x)}, {"label", Value(m.label)}});
    return Value(Object{
        {"name", Value(s.name)},
        {"title", Value(s.title)},
        {"x_label", Value(s.x_label)},
        {"y_label", Value(s.y_label)},
        {"y_unit", Value(s.y_unit)},
        {"x_scale", Value(s.x_scale)},
        {"band_label", Value(s.band_label)},
        {"curves", Value(std::move(curves))},
        {"markers", Value(std::move(markers))},
    });
}

Value experiment_json(const Experiment& e) {
    Array metrics, series, timelines, sweeps;
    for (const Metric& m : e.metrics)
        metrics.emplace_back(Object{{"name", Value(m.name)}, {"value", Value(m.value)}, {"unit", Value(m.unit)}, {"note", Value(m.note)}});
    for (const auto& s : e.series) series.push_back(series_json(s));
    for (const auto& t : e.timelines) timelines.push_back(timeline_json(t));
    for (const auto& s : e.sweeps) sweeps.push_back(sweep_json(s));
    return Value(Object{
        {"id", Value(e.id)},
        {"title", Value(e.title)},
        {"seed", Value(e.seed)},
        {"explanation", strings_json(e.explanation)},
        {"metrics", Value(std::move(metrics))},
        {"series", Value(std::move(series))},
        {"timelines", Value(std::move(timelines))},
        {"sweeps", Value(std::move(sweeps))},
        {"findings", findings_json(e.findings)},
    });
}

// ---------------------------------------------------------------------------------------------- reading

// Reads members of one object; errors name the member's path in the document.
class Reader {
public:
    Reader(const Value& v, std::string path) : v_(v), path_(std::move(path)) {
        guard("", [&] { (void)v_.as_object(); });
    }

    const std::string& path() const { return path_; }

    std::string child(std::string_view key) const { return path_.empty() ? std::string(key) : path_ + "." + std::string(key); }

    const Value* find(std::string_view key) const { return v_.find(key); }

    const Value& required(std::string_view key) const {
        const Value* v = v_.find(key);
        if (!v) throw std::invalid_argument(child(key) + ": missing");
        return *v;
    }

    template <class F>
    auto guard(std::string_view key, F&& f) const -> decltype(f()) {
        try {
            return f();
        } catch (const std::invalid_argument& e) {
            const std::string where = key.empty() ? (path_.empty() ? std::string("document") : path_) : child(key);
            std::string what = e.what();
            if (what.rfind("gpuchrono::json: ", 0) == 0) what = what.substr(17);
            throw std::invalid_argument(where + ": " + what);
        }
    }

    std::string string(std::string_view key, std::string fallback = {}) const {
        const Value* v = find(key);
        if (!v || v->is_null()) return fallback;
        return guard(key, [&] { return v->as_string(); });
    }
    double number(std::string_view key) const {
        const Value* v = find(key);
        if (!v) return not_measured;
        return guard(key, [&] { return v->as_double(); });
    }
    std::uint64_t unsigned_integer(std::string_view key, std::uint64_t fallback = 0) const {
        const Value* v = find(key);
        if (!v || v->is_null()) return fallback;
        return guard(key, [&] { return v->as_uint64(); });
    }
    std::int64_t integer(std::string_view key, std::int64_t fallback = 0) const {
        const Value* v = find(key);
        if (!v || v->is_null()) return fallback;
        return guard(key, [&] { return v->as_int64(); });
    }
    std::uint32_t u32(std::string_view key, std::uint32_t fallback = 0) const {
        const std::uint64_t u = unsigned_integer(key, fallback);
        if (u > UINT32_MAX) throw std::invalid_argument(child(key) + ": " + std::to_string(u) + " does not fit 32 bits");
        return static_cast<std::uint32_t>(u);
    }
    bool boolean(std::string_view key, bool fallback = false) const {
        const Value* v = find(key);
        if (!v || v->is_null()) return fallback;
        return guard(key, [&] { return v->as_bool(); });
    }
    int i32(std::string_view key, int fallback = 0) const {
        const std::int64_t i = integer(key, fallback);
        if (i < INT32_MIN || i > INT32_MAX) throw std::invalid_argument(child(key) + ": " + std::to_string(i) + " does not fit an int");
        return static_cast<int>(i);
    }

    // Calls f(Reader-or-Value, element path) for each element of an optional array member.
    template <class F>
    void each(std::string_view key, F&& f) const {
        const Value* v = find(key);
        if (!v || v->is_null()) return;
        const Array& a = guard(key, [&]() -> const Array& { return v->as_array(); });
        for (std::size_t i = 0; i < a.size(); ++i) f(a[i], child(key) + "[" + std::to_string(i) + "]");
    }

    std::vector<std::string> strings(std::string_view key) const {
        std::vector<std::string> out;
        each(key, [&](const Value& e, const std::string& p) {
            try {
                out.push_back(e.as_string());
            } catch (const std::invalid_argument&) {
                throw std::invalid_argument(p + ": expected a string, found " + json::to_string(e.type()));
            }
        });
        return out;
    }

private:
    const Value& v_;
    std::string path_;
};

int version_from_string(const std::string& s) {
    // "13.0" -> 13000; "unknown" -> 0.
    const auto dot = s.find('.');
    if (s.empty() || dot == std::string::npos) return 0;
    try {
        return std::stoi(s.substr(0, dot)) * 1000 + std::stoi(s.substr(dot + 1)) * 10;
    } catch (const std::exception&) {
        return 0;
    }
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
    throw std::invalid_argument(path + ": unknown severity \"" + s + "\" (expected info, warning or error)");
}

Findings read_findings(const Reader& r, std::string_view key) {
    Findings out;
    r.each(key, [&](const Value& v, const std::string& path) {
        Reader f(v, path);
        Finding finding{f.string("code"), read_severity(f.string("severity", "warning"), f.child("severity")),
                        f.string("message"), f.string("fix")};
        finding.where = f.string("where");
        if (const Value* e = f.find("evidence"); e && !e->is_null()) {
            const Reader evidence(*e, f.child("evidence"));
            for (const auto& [name, value] : e->as_object())
                finding.evidence.push_back(Evidence{name, evidence.number(name)});
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
        try {
            d.compute_major = std::stoi(cc.substr(0, dot));
            d.compute_minor = std::stoi(cc.substr(dot + 1));
        } catch (const std::exception&) {
            throw std::invalid_argument(r.child("compute_capability") + ": expected \"major.minor\", found \"" + cc + "\"");
        }
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
    d.driver_version = version_from_string(r.string("driver_version"));
    d.runtime_version = version_from_string(r.string("runtime_version"));
    return d;
}

SampleSeries read_series(const Reader& r) {
    SampleSeries s;
    s.name = r.string("name");
    s.policy = r.string("policy");
    r.each("samples_ns", [&](const Value& v, const std::string& path) {
        try {
            s.samples.push_back(Duration::from_ns(v.as_double()));
        } catch (const std::invalid_argument&) {
            throw std::invalid_argument(path + ": expected a number, found " + json::to_string(v.type()));
        }
    });
    s.failed = r.unsigned_integer("failed");
    s.first_error = r.string("first_error");
    if (const Value* st = r.find("stats"); st && !st->is_null())
        s.stats = read_stats(Reader(*st, r.child("stats")));
    else
        s.stats = summarize(s.samples);  // a hand-written file may leave the summary to us
    s.findings = read_findings(r, "findings");
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
    r.each("samples", [&](const Value& v, const std::string& path) {
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
        throw std::invalid_argument(r.child("x_scale") + ": expected \"linear\" or \"log\", found \"" + s.x_scale + "\"");
    r.each("curves", [&](const Value& v, const std::string& path) {
        Reader c(v, path);
        SweepCurve curve;
        curve.name = c.string("name");
        c.each("points", [&](const Value& pv, const std::string& ppath) {
            Reader p(pv, ppath);
            curve.points.push_back(SweepPoint{p.number("x"), p.number("y"), p.number("low"), p.number("high")});
        });
        s.curves.push_back(std::move(curve));
    });
    r.each("markers", [&](const Value& v, const std::string& path) {
        Reader m(v, path);
        s.markers.push_back(SweepMarker{m.number("x"), m.string("label")});
    });
    return s;
}

Experiment read_experiment(const Reader& r) {
    Experiment e;
    e.id = r.string("id");
    e.title = r.string("title");
    e.seed = r.string("seed");
    e.explanation = r.strings("explanation");
    r.each("metrics", [&](const Value& v, const std::string& path) {
        Reader m(v, path);
        e.metrics.push_back(Metric{m.string("name"), m.number("value"), m.string("unit"), m.string("note")});
    });
    r.each("series", [&](const Value& v, const std::string& path) { e.series.push_back(read_series(Reader(v, path))); });
    r.each("timelines", [&](const Value& v, const std::string& path) { e.timelines.push_back(read_timeline(Reader(v, path))); });
    r.each("sweeps", [&](const Value& v, const std::string& path) { e.sweeps.push_back(read_sweep(Reader(v, path))); });
    e.findings = read_findings(r, "findings");
    return e;
}

}  // namespace

json::Value to_json(const Report& report) {
    Array experiments;
    for (const Experiment& e : report.experiments) experiments.push_back(experiment_json(e));
    return Value(Object{
        {"schema", Value(schema_name)},
        {"schema_version", Value(schema_version)},
        {"generator", Value(report.generator)},
        {"created_utc", Value(report.created_utc)},
        {"host", Value(report.host)},
        {"device", device_json(report.device)},
        {"notes", strings_json(report.notes)},
        {"experiments", Value(std::move(experiments))},
    });
}

Report report_from_json(const json::Value& document) {
    const Reader r(document, "");
    if (r.string("schema") != schema_name)
        throw std::invalid_argument("not a gpuchrono report: member \"schema\" is \"" + r.string("schema") +
                                    "\", expected \"" + schema_name + "\"");
    const std::int64_t version = r.integer("schema_version", -1);
    if (version < 1)
        throw std::invalid_argument("schema_version: missing or invalid (expected an integer >= 1)");
    if (version > schema_version)
        throw std::invalid_argument("schema_version " + std::to_string(version) +
                                    " was written by a newer gpuchrono; this one reads up to " +
                                    std::to_string(schema_version));
    Report report;
    report.generator = r.string("generator");
    report.created_utc = r.string("created_utc");
    report.host = r.string("host");
    if (const Value* d = r.find("device"); d && !d->is_null()) report.device = read_device(Reader(*d, "device"));
    report.notes = r.strings("notes");
    r.each("experiments", [&](const Value& v, const std::string& path) {
        report.experiments.push_back(read_experiment(Reader(v, path)));
    });
    return report;
}

void save_report(const Report& report, const std::filesystem::path& file) {
    std::ofstream out(file, std::ios::binary);
    if (!out) throw std::runtime_error("gpuchrono: cannot write the report to " + file.string());
    out << json::write(to_json(report)) << '\n';
    if (!out.flush()) throw std::runtime_error("gpuchrono: writing the report to " + file.string() + " failed");
}

Report load_report(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("gpuchrono: cannot read the report " + file.string());
    std::ostringstream text;
    text << in.rdbuf();
    try {
        return report_from_json(json::parse(text.str()));
    } catch (const json::ParseError& e) {
        throw json::ParseError(file.string() + ": " + e.what(), e.line(), e.column());
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(file.string() + ": " + e.what());
    }
}

}  // namespace gpuchrono::report
