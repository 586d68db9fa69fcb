#include "kernel_metrics_json.hpp"

#include <gpuchrono/report/report_json.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>

namespace gpuchrono::report::detail {

namespace {

Json peaks_json(const metrics::DevicePeaks& p) {
    Json o = Json::object();
    o["device"] = p.device;
    o["device_name"] = p.device_name;
    o["compute_major"] = p.compute_major;
    o["compute_minor"] = p.compute_minor;
    o["sm_count"] = p.sm_count;
    o["sm_clock_mhz"] = p.sm_clock_mhz;
    o["memory_clock_mhz"] = p.memory_clock_mhz;
    o["memory_bus_bits"] = p.memory_bus_bits;
    o["dram_bytes_per_second"] = p.dram_bytes_per_second;
    o["fp32_flops_per_second"] = p.fp32_flops_per_second;
    o["fp64_flops_per_second"] = p.fp64_flops_per_second;
    o["source"] = p.source;
    return o;
}

Json point_json(const metrics::RooflinePoint& p) {
    Json o = Json::object();
    o["kernel"] = p.kernel;
    o["launch"] = p.launch;
    o["precision"] = p.precision;
    o["flops"] = p.flops;
    o["dram_bytes"] = p.dram_bytes;
    o["seconds"] = p.seconds;
    o["intensity"] = p.intensity;
    o["achieved_flops_per_second"] = p.achieved_flops_per_second;
    o["attainable_flops_per_second"] = p.attainable_flops_per_second;
    o["bound"] = p.bound;
    return o;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw ReportError(path + ": " + what); }

// The checked reads of one object's members; errors name the member's path.
class Members {
public:
    Members(const Json& v, std::string path) : v_(v), path_(std::move(path)) {
        if (!v_.is_object()) fail(path_, std::string("expected an object, found ") + v_.type_name());
    }
    std::string child(std::string_view key) const { return path_ + "." + std::string(key); }
    const Json* find(std::string_view key) const {
        const auto it = v_.find(key);
        return it == v_.end() || it->is_null() ? nullptr : &*it;
    }
    std::string string(std::string_view key) const {
        const Json* v = find(key);
        if (!v) return {};
        if (!v->is_string()) fail(child(key), std::string("expected a string, found ") + v->type_name());
        return v->get<std::string>();
    }
    double number(std::string_view key) const {
        const Json* v = find(key);
        if (!v) return metrics::metric_not_measured;  // null: how NaN is written
        if (!v->is_number()) fail(child(key), std::string("expected a number, found ") + v->type_name());
        return v->get<double>();
    }
    std::uint64_t count(std::string_view key) const {
        const Json* v = find(key);
        if (!v) return 0;
        if (v->is_number_unsigned()) return v->get<std::uint64_t>();
        if (v->is_number_integer()) fail(child(key), "expected a non-negative integer, found " + v->dump());
        if (v->is_number_float()) {
            const double d = v->get<double>();
            if (std::trunc(d) == d && d >= 0 && d < 18446744073709551616.0) return static_cast<std::uint64_t>(d);
            fail(child(key), "expected a non-negative integer, found " + v->dump());
        }
        fail(child(key), std::string("expected a non-negative integer, found ") + v->type_name());
    }
    int integer(std::string_view key, int fallback) const {
        const Json* v = find(key);
        if (!v) return fallback;
        if (!v->is_number_integer()) fail(child(key), std::string("expected an integer, found ") + v->type_name());
        const std::int64_t i = v->get<std::int64_t>();
        if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX))
            fail(child(key), v->dump() + " does not fit an int");
        if (i < INT_MIN || i > INT_MAX) fail(child(key), v->dump() + " does not fit an int");
        return static_cast<int>(i);
    }
    template <class F>
    void each(std::string_view key, F&& f) const {
        const Json* v = find(key);
        if (!v) return;
        if (!v->is_array()) fail(child(key), std::string("expected an array, found ") + v->type_name());
        for (std::size_t i = 0; i < v->size(); ++i) f((*v)[i], child(key) + "[" + std::to_string(i) + "]");
    }
    std::vector<std::string> strings(std::string_view key) const {
        std::vector<std::string> out;
        each(key, [&](const Json& e, const std::string& path) {
            if (!e.is_string()) fail(path, std::string("expected a string, found ") + e.type_name());
            out.push_back(e.get<std::string>());
        });
        return out;
    }

private:
    const Json& v_;
    std::string path_;
};

Json strings_json(const std::vector<std::string>& strings) {
    Json a = Json::array();
    for (const std::string& s : strings) a.push_back(s);
    return a;
}

}  // namespace

Json kernel_metrics_json(const metrics::MetricsResult& r) {
    Json o = Json::object();
    o["requested"] = strings_json(r.requested);
    o["passes"] = static_cast<std::uint64_t>(r.passes);
    o["collection_ns"] = r.collection_ns;
    if (r.peaks) o["peaks"] = peaks_json(*r.peaks);
    Json kernels = Json::array();
    for (const metrics::KernelMetrics& k : r.kernels) {
        Json values = Json::array();
        for (const metrics::MetricValue& v : k.values) {
            Json m = Json::object();
            m["name"] = v.name;
            m["value"] = v.value;
            m["unit"] = v.unit;
            values.push_back(std::move(m));
        }
        Json kj = Json::object();
        kj["kernel"] = k.kernel;
        kj["launch"] = k.launch;
        kj["device"] = k.device;
        kj["values"] = std::move(values);
        kernels.push_back(std::move(kj));
    }
    o["kernels"] = std::move(kernels);
    Json roofline = Json::array();
    for (const metrics::RooflinePoint& p : r.roofline) roofline.push_back(point_json(p));
    o["roofline"] = std::move(roofline);
    o["notes"] = strings_json(r.notes);
    return o;
}

metrics::MetricsResult read_kernel_metrics(const Json& value, const std::string& path) {
    const Members m(value, path);
    metrics::MetricsResult r;
    r.requested = m.strings("requested");
    r.passes = static_cast<std::size_t>(m.count("passes"));
    r.collection_ns = m.number("collection_ns");
    if (const Json* p = m.find("peaks")) {
        const Members pm(*p, m.child("peaks"));
        metrics::DevicePeaks peaks;
        peaks.device = pm.integer("device", -1);
        peaks.device_name = pm.string("device_name");
        peaks.compute_major = pm.integer("compute_major", 0);
        peaks.compute_minor = pm.integer("compute_minor", 0);
        peaks.sm_count = pm.integer("sm_count", 0);
        peaks.sm_clock_mhz = pm.number("sm_clock_mhz");
        peaks.memory_clock_mhz = pm.number("memory_clock_mhz");
        peaks.memory_bus_bits = pm.integer("memory_bus_bits", 0);
        peaks.dram_bytes_per_second = pm.number("dram_bytes_per_second");
        peaks.fp32_flops_per_second = pm.number("fp32_flops_per_second");
        peaks.fp64_flops_per_second = pm.number("fp64_flops_per_second");
        peaks.source = pm.string("source");
        r.peaks = std::move(peaks);
    }
    m.each("kernels", [&](const Json& kv, const std::string& kpath) {
        const Members km(kv, kpath);
        metrics::KernelMetrics k;
        k.kernel = km.string("kernel");
        k.launch = km.count("launch");
        k.device = km.integer("device", -1);
        km.each("values", [&](const Json& vv, const std::string& vpath) {
            const Members vm(vv, vpath);
            metrics::MetricValue v;
            v.name = vm.string("name");
            if (v.name.empty()) fail(vm.child("name"), "a metric needs its name");
            v.value = vm.number("value");
            v.unit = vm.string("unit");
            k.values.push_back(std::move(v));
        });
        r.kernels.push_back(std::move(k));
    });
    m.each("roofline", [&](const Json& pv, const std::string& ppath) {
        const Members pm(pv, ppath);
        metrics::RooflinePoint p;
        p.kernel = pm.string("kernel");
        p.launch = pm.count("launch");
        p.precision = pm.string("precision");
        p.flops = pm.number("flops");
        p.dram_bytes = pm.number("dram_bytes");
        p.seconds = pm.number("seconds");
        p.intensity = pm.number("intensity");
        p.achieved_flops_per_second = pm.number("achieved_flops_per_second");
        p.attainable_flops_per_second = pm.number("attainable_flops_per_second");
        p.bound = pm.string("bound");
        r.roofline.push_back(std::move(p));
    });
    r.notes = m.strings("notes");
    return r;
}

}  // namespace gpuchrono::report::detail
