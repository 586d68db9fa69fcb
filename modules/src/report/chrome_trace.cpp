#include <gpuchrono/report/chrome_trace.hpp>

#include <gpuchrono/report/timeline_svg.hpp>

#include <gpuchrono/stats/views.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace gpuchrono::report {

using json::Array;
using json::Object;
using json::Value;

namespace {

// Microseconds with ns resolution; rounding to 3 decimals keeps 0.001 us steps exact in the text.
double us(double ns) { return std::round(ns) / 1000.0; }

}  // namespace

json::Value chrome_trace(const Report& report) {
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    for (const Experiment& e : report.experiments)
        for (const Timeline& t : e.timelines)
            for (const BlockSample& s : t.samples) origin = std::min(origin, s.start_ns);

    Array events;
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
                const double cycles = sample_cycles(s);
                Value args(Object{{"kernel", Value(t.name)},
                                  {"experiment", Value(e.id)},
                                  {"block", Value(s.block)},
                                  {"region", Value(s.region)},
                                  {"sm_start", Value(s.sm_start)},
                                  {"sm_stop", Value(s.sm_stop)},
                                  {"cycles", std::isnan(cycles) ? Value() : Value(static_cast<long long>(cycles))}});
                if (s.count > 1) {
                    args.set("count", Value(static_cast<unsigned long long>(s.count)));
                    args.set("accumulated_ns", Value(static_cast<unsigned long long>(s.accumulated_ns)));
                }
                events.emplace_back(Object{
                    {"name", Value(region_name(t, s.region))},
                    {"cat", Value(e.id)},
                    {"ph", Value("X")},
                    {"pid", Value(pid)},
                    {"tid", Value(tid)},
                    {"ts", Value(us(static_cast<double>(s.start_ns - origin)))},
                    {"dur", Value(us(static_cast<double>(std::max(s.stop_ns, s.start_ns) - s.start_ns)))},
                    {"args", std::move(args)},
                });
            }
        }

    // Metadata first, so viewers name the tracks before they see events on them.
    Array all;
    for (const int pid : devices) {
        std::string name = "GPU " + std::to_string(pid);
        if (pid == report.device.index && !report.device.name.empty()) name += ": " + report.device.name;
        all.emplace_back(Object{{"name", Value("process_name")}, {"ph", Value("M")}, {"pid", Value(pid)}, {"tid", Value(0)},
                                {"args", Value(Object{{"name", Value(name)}})}});
    }
    for (const auto& [key, name] : threads) {
        all.emplace_back(Object{{"name", Value("thread_name")}, {"ph", Value("M")}, {"pid", Value(key.first)},
                                {"tid", Value(key.second)}, {"args", Value(Object{{"name", Value(name)}})}});
        // Sort tracks by SM, then lane: SM 3, SM 3 #2, SM 4, ...
        const std::uint32_t sm = key.second % chrome_trace_lane_stride, lane = key.second / chrome_trace_lane_stride;
        all.emplace_back(Object{{"name", Value("thread_sort_index")}, {"ph", Value("M")}, {"pid", Value(key.first)},
                                {"tid", Value(key.second)},
                                {"args", Value(Object{{"sort_index", Value(static_cast<long long>(sm) * 64 + lane)}})}});
    }
    for (Value& e : events) all.push_back(std::move(e));

    return Value(Object{
        {"traceEvents", Value(std::move(all))},
        {"displayTimeUnit", Value("ns")},
        {"otherData", Value(Object{{"generator", Value(report.generator)},
                                   {"created_utc", Value(report.created_utc)},
                                   {"device", Value(report.device.name)},
                                   {"clock", Value("%globaltimer, ts in us from the earliest record in the report")},
                                   {"origin_globaltimer_ns", Value(static_cast<unsigned long long>(
                                                                 origin == std::numeric_limits<std::uint64_t>::max() ? 0 : origin))}})},
    });
}

std::string render_chrome_trace(const Report& report) {
    const Value trace = chrome_trace(report);
    // One event per line: compact yet greppable. write() with indent 1 puts each event (an object whose
    // members include an object) on its own lines; build the text by hand instead.
    std::string out = "{\"traceEvents\": [\n";
    const Array& events = trace.at("traceEvents").as_array();
    for (std::size_t i = 0; i < events.size(); ++i)
        out += json::write(events[i], {.indent = 0}) + (i + 1 < events.size() ? ",\n" : "\n");
    out += "],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": " + json::write(trace.at("otherData"), {.indent = 0}) + "\n}\n";
    return out;
}

}  // namespace gpuchrono::report
