// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "kernel_metrics_json.hpp"

#include "json/json_reader.hpp"

#include <cstdint>

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
            if (const std::string note = v.note(); !note.empty()) m["note"] = note;  // for readers of the file
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
    const json::Reader m(value, path);
    metrics::MetricsResult r;
    r.requested = m.strings("requested");
    r.passes = static_cast<std::size_t>(m.unsigned_integer("passes"));
    r.collection_ns = m.number("collection_ns");
    if (const Json* p = m.present("peaks")) {
        const json::Reader pm(*p, m.child("peaks"));
        metrics::DevicePeaks peaks;
        peaks.device = pm.i32("device", -1);
        peaks.device_name = pm.string("device_name");
        peaks.compute_major = pm.i32("compute_major", 0);
        peaks.compute_minor = pm.i32("compute_minor", 0);
        peaks.sm_count = pm.i32("sm_count", 0);
        peaks.sm_clock_mhz = pm.number("sm_clock_mhz");
        peaks.memory_clock_mhz = pm.number("memory_clock_mhz");
        peaks.memory_bus_bits = pm.i32("memory_bus_bits", 0);
        peaks.dram_bytes_per_second = pm.number("dram_bytes_per_second");
        peaks.fp32_flops_per_second = pm.number("fp32_flops_per_second");
        peaks.fp64_flops_per_second = pm.number("fp64_flops_per_second");
        peaks.source = pm.string("source");
        r.peaks = std::move(peaks);
    }
    m.each("kernels", [&](const Json& kv, const std::string& kpath) {
        const json::Reader km(kv, kpath);
        metrics::KernelMetrics k;
        k.kernel = km.string("kernel");
        k.launch = km.unsigned_integer("launch");
        k.device = km.i32("device", -1);
        km.each("values", [&](const Json& vv, const std::string& vpath) {
            const json::Reader vm(vv, vpath);
            metrics::MetricValue v;
            v.name = vm.string("name");
            if (v.name.empty()) json::fail(vm.child("name"), "a metric needs its name");
            v.value = vm.number("value");
            v.unit = vm.string("unit");
            k.values.push_back(std::move(v));
        });
        r.kernels.push_back(std::move(k));
    });
    m.each("roofline", [&](const Json& pv, const std::string& ppath) {
        const json::Reader pm(pv, ppath);
        metrics::RooflinePoint p;
        p.kernel = pm.string("kernel");
        p.launch = pm.unsigned_integer("launch");
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
