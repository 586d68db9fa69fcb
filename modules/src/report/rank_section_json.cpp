#include "rank_section_json.hpp"

#include <gpuchrono/report/report_json.hpp>

#include <climits>
#include <cstdint>
#include <utility>

namespace gpuchrono::distributed::detail {

using report::detail::Json;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw report::ReportError(path + ": " + what); }

// Members in the order given: ordered_json keeps insertion order, so files diff cleanly.
Json object(std::initializer_list<std::pair<const char*, Json>> members) {
    Json o = Json::object();
    for (const auto& [key, value] : members) o[key] = value;
    return o;
}

const Json* member(const Json& o, const char* key) {
    const auto it = o.find(key);
    return it == o.end() || it->is_null() ? nullptr : &*it;
}

const Json& object_at(const Json& v, const std::string& path) {
    if (!v.is_object()) fail(path, std::string("expected an object, found ") + v.type_name());
    return v;
}

std::int64_t integer(const Json& o, const char* key, const std::string& path, bool required, std::int64_t fallback = 0) {
    const Json* v = member(o, key);
    if (!v) {
        if (required) fail(path + "." + key, "missing (expected an integer)");
        return fallback;
    }
    if (v->is_number_integer()) {
        if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
            fail(path + "." + key, "does not fit a signed 64-bit integer");
        return v->get<std::int64_t>();
    }
    fail(path + "." + key, std::string("expected an integer, found ") + v->type_name());
}

int int32(const Json& o, const char* key, const std::string& path, bool required, int fallback = 0) {
    const std::int64_t i = integer(o, key, path, required, fallback);
    if (i < INT_MIN || i > INT_MAX) fail(path + "." + key, std::to_string(i) + " does not fit an int");
    return static_cast<int>(i);
}

std::string text(const Json& o, const char* key, const std::string& path) {
    const Json* v = member(o, key);
    if (!v) return {};
    if (!v->is_string()) fail(path + "." + key, std::string("expected a string, found ") + v->type_name());
    return v->get<std::string>();
}

template <class F>
void each(const Json& o, const char* key, const std::string& path, F&& f) {
    const Json* v = member(o, key);
    if (!v) return;
    const std::string p = path + "." + key;
    if (!v->is_array()) fail(p, std::string("expected an array, found ") + v->type_name());
    for (std::size_t i = 0; i < v->size(); ++i) f((*v)[i], p + "[" + std::to_string(i) + "]");
}

}  // namespace

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
    const Json& o = object_at(value, path);
    RankSection s;
    s.identity.host = text(o, "host", path);
    s.identity.pid = static_cast<long>(integer(o, "pid", path, false));
    s.identity.rank = int32(o, "rank", path, true);
    s.identity.local_rank = int32(o, "local_rank", path, false, s.identity.rank);
    s.identity.world_size = int32(o, "world_size", path, true);
    s.identity.job_id = text(o, "job_id", path);
    s.identity.launcher = text(o, "launcher", path);
    try {
        validate(s.identity);
    } catch (const IdentityError& e) {
        fail(path, e.what());
    }
    each(o, "devices", path, [&](const Json& v, const std::string& p) {
        const Json& d = object_at(v, p);
        s.devices.push_back({int32(d, "index", p, true), text(d, "name", p), text(d, "uuid", p), text(d, "pci_bus_id", p)});
    });
    each(o, "anchors", path, [&](const Json& v, const std::string& p) {
        const Json& a = object_at(v, p);
        ClockAnchor anchor;
        anchor.steady_ns = integer(a, "steady_ns", p, true);
        anchor.system_ns = integer(a, "system_ns", p, true);
        anchor.read_width_ns = integer(a, "read_width_ns", p, false);
        if (member(a, "cupti_ns")) anchor.cupti_ns = integer(a, "cupti_ns", p, true);
        s.anchors.push_back(anchor);
    });
    each(o, "reference_offsets", path, [&](const Json& v, const std::string& p) {
        const Json& r = object_at(v, p);
        ReferenceOffset off;
        off.reference_rank = int32(r, "reference_rank", p, false);
        off.at_steady_ns = integer(r, "at_steady_ns", p, true);
        off.offset_ns = integer(r, "offset_ns", p, true);
        off.error_ns = integer(r, "error_ns", p, false);
        if (off.error_ns < 0) fail(p + ".error_ns", "is negative");
        s.reference_offsets.push_back(off);
    });
    each(o, "scopes", path, [&](const Json& v, const std::string& p) {
        const Json& e = object_at(v, p);
        ScopeEvent ev;
        ev.name = text(e, "name", p);
        ev.start_ns = integer(e, "start_ns", p, true);
        ev.end_ns = integer(e, "end_ns", p, true);
        if (ev.end_ns < ev.start_ns) fail(p, "ends (" + std::to_string(ev.end_ns) + ") before it starts (" + std::to_string(ev.start_ns) + ")");
        ev.device = int32(e, "device", p, false, -1);
        const std::int64_t bytes = integer(e, "bytes", p, false);
        if (bytes < 0) fail(p + ".bytes", "is negative");
        ev.bytes = static_cast<std::uint64_t>(bytes);
        s.scopes.push_back(std::move(ev));
    });
    return s;
}

}  // namespace gpuchrono::distributed::detail
