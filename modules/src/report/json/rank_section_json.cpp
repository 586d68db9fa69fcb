// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "rank_section_json.hpp"

#include "json/json_reader.hpp"

#include <cstdint>
#include <utility>

namespace gpuchrono::distributed::detail {

using json::Json;
using json::object;

Json rank_section_json(const RankSection& s) {
    Json devices = Json::array();
    for (const DeviceIdentity& d : s.devices)
        devices.push_back(object({{"index", d.index}, {"name", d.name}, {"uuid", d.uuid}, {"pci_bus_id", d.pci_bus_id}}));
    Json anchors = Json::array();
    for (const ClockAnchor& a : s.anchors)
        anchors.push_back(object({{"steady_ns", a.steady_ns},
                                  {"system_ns", a.system_ns},
                                  {"read_width_ns", a.read_width_ns},
                                  {"cupti_ns", a.cupti_ns ? Json(*a.cupti_ns) : Json(nullptr)}}));
    Json offsets = Json::array();
    for (const ReferenceOffset& o : s.reference_offsets)
        offsets.push_back(object({{"reference_rank", o.reference_rank},
                                  {"at_steady_ns", o.at_steady_ns},
                                  {"offset_ns", o.offset_ns},
                                  {"error_ns", o.error_ns}}));
    Json scopes = Json::array();
    for (const ScopeEvent& e : s.scopes)
        scopes.push_back(object({{"name", e.name}, {"start_ns", e.start_ns}, {"end_ns", e.end_ns}, {"device", e.device}, {"bytes", e.bytes}}));
    const RankIdentity& id = s.identity;
    return object({
        {"host", id.host},
        {"pid", id.pid},
        {"rank", id.rank},
        {"local_rank", id.local_rank},
        {"world_size", id.world_size},
        {"job_id", id.job_id},
        {"launcher", id.launcher},
        {"clocks", object({{"scopes", "steady"}, {"activities", "cupti"}, {"created_utc", "system"}})},
        {"devices", std::move(devices)},
        {"anchors", std::move(anchors)},
        {"reference_offsets", std::move(offsets)},
        {"scopes", std::move(scopes)},
    });
}

RankSection read_rank_section(const Json& value, const std::string& path) {
    const json::Reader o(value, path);
    RankSection s;
    s.identity.host = o.string("host");
    s.identity.pid = static_cast<long>(o.integer("pid"));
    s.identity.rank = o.required_i32("rank");
    s.identity.local_rank = o.i32("local_rank", s.identity.rank);
    s.identity.world_size = o.required_i32("world_size");
    s.identity.job_id = o.string("job_id");
    s.identity.launcher = o.string("launcher");
    try {
        validate(s.identity);
    } catch (const IdentityError& e) {
        json::fail(path, e.what());
    }
    o.each("devices", [&](const Json& v, const std::string& p) {
        const json::Reader d(v, p);
        s.devices.push_back({d.required_i32("index"), d.string("name"), d.string("uuid"), d.string("pci_bus_id")});
    });
    o.each("anchors", [&](const Json& v, const std::string& p) {
        const json::Reader a(v, p);
        ClockAnchor anchor;
        anchor.steady_ns = a.required_integer("steady_ns");
        anchor.system_ns = a.required_integer("system_ns");
        anchor.read_width_ns = a.integer("read_width_ns");
        if (a.present("cupti_ns")) anchor.cupti_ns = a.required_integer("cupti_ns");
        s.anchors.push_back(anchor);
    });
    o.each("reference_offsets", [&](const Json& v, const std::string& p) {
        const json::Reader r(v, p);
        ReferenceOffset off;
        off.reference_rank = r.i32("reference_rank");
        off.at_steady_ns = r.required_integer("at_steady_ns");
        off.offset_ns = r.required_integer("offset_ns");
        off.error_ns = r.integer("error_ns");
        if (off.error_ns < 0) json::fail(p + ".error_ns", "is negative");
        s.reference_offsets.push_back(off);
    });
    o.each("scopes", [&](const Json& v, const std::string& p) {
        const json::Reader e(v, p);
        ScopeEvent ev;
        ev.name = e.string("name");
        ev.start_ns = e.required_integer("start_ns");
        ev.end_ns = e.required_integer("end_ns");
        if (ev.end_ns < ev.start_ns)
            json::fail(p, "ends (" + std::to_string(ev.end_ns) + ") before it starts (" + std::to_string(ev.start_ns) + ")");
        ev.device = e.i32("device", -1);
        const std::int64_t bytes = e.integer("bytes");
        if (bytes < 0) json::fail(p + ".bytes", "is negative");
        ev.bytes = static_cast<std::uint64_t>(bytes);
        s.scopes.push_back(std::move(ev));
    });
    return s;
}

}  // namespace gpuchrono::distributed::detail
