// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/chrome_trace.hpp"

#include "report/render/timeline_svg.hpp"

#include "json/json_writer.hpp"

#include <gpuchrono/stats/views.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace gpuchrono::report {

using json::Json;
using json::object;

namespace {

// Microseconds with ns resolution; rounding to 3 decimals keeps 0.001 us steps exact in the text.
double us(double ns) { return std::round(ns) / 1000.0; }

// A record's cycles as an exact integer, or null where sample_cycles() has none. sample_cycles() is a
// double: it rounds above 2^53, and an accumulated count near 2^64 does not even fit a signed integer.
Json exact_cycles(const BlockSample& s) {
    if (std::isnan(sample_cycles(s))) return nullptr;
    if (s.accumulating || s.count > 1) return static_cast<std::uint64_t>(s.accumulated_cycles);
    return static_cast<std::int64_t>(s.stop_cycles - s.start_cycles);  // modular: a clock that went back is negative
}

Json chrome_trace(const Report& report) {
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    for (const Experiment& e : report.experiments)
        for (const Timeline& t : e.timelines)
            for (const BlockSample& s : t.samples) origin = std::min(origin, s.start_ns);

    Json events = Json::array();
    std::set<int> devices;
    std::map<std::pair<int, std::uint32_t>, std::string> threads;  // (pid, tid) -> name
    for (const Experiment& e : report.experiments)
        for (const Timeline& t : e.timelines) {
            const TimelineLanes lanes = assign_lanes(t);
            const int pid = t.device;
            devices.insert(pid);
            // A block's track is the SM its earliest record started on (as in assign_lanes), so all its
            // regions share one track and nest there.
            std::map<std::uint32_t, std::pair<std::uint64_t, std::uint32_t>> first_of_block;  // block -> (start, sm)
            for (const BlockSample& s : t.samples) {
                auto [it, fresh] = first_of_block.try_emplace(s.block, s.start_ns, s.sm_start);
                if (!fresh && s.start_ns < it->second.first) it->second = {s.start_ns, s.sm_start};
            }
            for (std::size_t i = 0; i < t.samples.size(); ++i) {
                const BlockSample& s = t.samples[i];
                const std::uint32_t sm = first_of_block.at(s.block).second;
                const std::size_t lane = lanes.lane_of_sample[i];
                const auto tid = static_cast<std::uint32_t>(sm + chrome_trace_lane_stride * lane);
                threads.try_emplace({pid, tid}, "SM " + std::to_string(sm) + (lane ? " #" + std::to_string(lane + 1) : ""));
                Json args = object({{"kernel", t.name},
                                    {"experiment", e.id},
                                    {"block", s.block},
                                    {"region", s.region},
                                    {"sm_start", s.sm_start},
                                    {"sm_stop", s.sm_stop},
                                    {"cycles", exact_cycles(s)}});
                if (s.count > 1) {
                    args["count"] = static_cast<std::uint64_t>(s.count);
                    args["accumulated_ns"] = static_cast<std::uint64_t>(s.accumulated_ns);
                }
                events.push_back(object({
                    {"name", region_name(t, s.region)},
                    {"cat", e.id},
                    {"ph", "X"},
                    {"pid", pid},
                    {"tid", tid},
                    {"ts", us(static_cast<double>(s.start_ns - origin))},
                    {"dur", us(static_cast<double>(std::max(s.stop_ns, s.start_ns) - s.start_ns))},
                    {"args", std::move(args)},
                }));
            }
        }

    // KernelPolicy's activities: a process per device ("GPU 0 activities", pid = chrome_trace_activity_pid +
    // device), a track per stream, one slice per kernel/copy/set named after it. CUPTI timestamps are a clock of
    // their own, so they count from their own origin (the earliest activity in the report).
    std::uint64_t activity_origin = std::numeric_limits<std::uint64_t>::max();
    for (const Experiment& e : report.experiments)
        for (const KernelActivity& a : e.activities) activity_origin = std::min(activity_origin, a.start_ns);
    std::set<int> activity_devices;
    for (const Experiment& e : report.experiments)
        for (const KernelActivity& a : e.activities) {
            const int pid = chrome_trace_activity_pid + a.device;
            activity_devices.insert(pid);
            threads.try_emplace({pid, a.stream}, "stream " + std::to_string(a.stream));
            Json args = object({{"kind", to_string(a.kind)},
                                {"experiment", e.id},
                                {"correlation_id", a.correlation_id},
                                {"graph_id", a.graph_id}});
            if (a.kind == ActivityKind::kernel) {
                args["grid"] = Json::array({a.grid[0], a.grid[1], a.grid[2]});
                args["block"] = Json::array({a.block[0], a.block[1], a.block[2]});
            } else {
                args["bytes"] = a.bytes;
            }
            events.push_back(object({{"name", a.name},
                                     {"cat", e.id},
                                     {"ph", "X"},
                                     {"pid", pid},
                                     {"tid", a.stream},
                                     {"ts", us(static_cast<double>(a.start_ns - activity_origin))},
                                     {"dur", us(static_cast<double>(a.duration_ns()))},
                                     {"args", std::move(args)}}));
        }

    // Metadata first, so viewers name the tracks before they see events on them.
    Json all = Json::array();
    for (const int pid : activity_devices)
        all.push_back(object({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 0},
                              {"args", object({{"name", "GPU " + std::to_string(pid - chrome_trace_activity_pid) +
                                                            " activities (CUPTI, KernelPolicy)"}})}}));
    for (const int pid : devices) {
        std::string name = "GPU " + std::to_string(pid);
        if (pid == report.device.index && !report.device.name.empty()) name += ": " + report.device.name;
        all.push_back(object({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", object({{"name", name}})}}));
    }
    for (const auto& [key, name] : threads) {
        all.push_back(object({{"name", "thread_name"}, {"ph", "M"}, {"pid", key.first}, {"tid", key.second},
                              {"args", object({{"name", name}})}}));
        // Sort tracks by SM, then lane: SM 3, SM 3 #2, SM 4, ...
        const std::uint32_t sm = key.second % chrome_trace_lane_stride, lane = key.second / chrome_trace_lane_stride;
        all.push_back(object({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", key.first}, {"tid", key.second},
                              {"args", object({{"sort_index", static_cast<std::int64_t>(sm) * 64 + lane}})}}));
    }
    for (Json& e : events) all.push_back(std::move(e));

    return object({
        {"traceEvents", std::move(all)},
        {"displayTimeUnit", "ns"},
        {"otherData", object({{"generator", report.generator},
                              {"created_utc", report.created_utc},
                              {"device", report.device.name},
                              {"clock", "%globaltimer, ts in us from the earliest record in the report"},
                              {"origin_globaltimer_ns",
                               static_cast<std::uint64_t>(origin == std::numeric_limits<std::uint64_t>::max() ? 0 : origin)}})},
    });
}

}  // namespace

std::string render_chrome_trace(const Report& report) {
    const Json trace = chrome_trace(report);
    // One event per line: compact yet greppable. An indented layout puts each event (an object whose
    // members include an object) on several lines; build the text from compact events instead.
    std::string out = "{\"traceEvents\": [\n";
    const Json& events = trace.at("traceEvents");
    for (std::size_t i = 0; i < events.size(); ++i)
        out += json::write_json(events[i], 0) + (i + 1 < events.size() ? ",\n" : "\n");
    out += "],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": " + json::write_json(trace.at("otherData"), 0) + "\n}\n";
    return out;
}

}  // namespace gpuchrono::report
