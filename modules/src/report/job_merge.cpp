// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/report/job_merge.hpp>

#include <gpuchrono/distributed/collective_bandwidth.hpp>
#include <gpuchrono/report/json/report_json.hpp>

#include "json/json_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <system_error>
#include <utility>

namespace gpuchrono::distributed {

using json::Json;

namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

std::string error_text() { return std::system_category().message(errno); }

// What the merge keeps of a rank while it reads the others: small, whatever the rank's activity count.
struct RankState {
    RankSection section;  // scopes included (a few per step)
    MergedRank merged;
    std::vector<CollectiveKernel> nccl;  // on the rank's steady clock until the end, then the job clock
    std::vector<std::int64_t> scope_gpu_ns;  // by scope: GPU activity time inside it
    std::optional<LinearClockMap> cupti_to_steady;
    std::int64_t earliest_steady = std::numeric_limits<std::int64_t>::max();
};

// The spill file: one record per activity, on its rank's steady clock, read back once to write the trace.
struct SpillHeader {
    std::int32_t rank_index;
    std::int32_t device;
    std::uint32_t stream;
    std::uint32_t kind;
    std::int64_t start;
    std::int64_t end;
    std::uint32_t name_length;
};

void write_all(std::FILE* f, const void* data, std::size_t size, const std::string& what) {
    if (size && std::fwrite(data, 1, size, f) != size) throw MergeError("gpuchrono: writing " + what + " failed: " + error_text());
}

std::string json_string(const std::string& s) { return Json(s).dump(-1, ' ', false, Json::error_handler_t::replace); }

// Microseconds with ns digits, as Chrome's trace format wants them ("12.345").
std::string micros(std::int64_t ns) {
    char buffer[40];
    const char* sign = ns < 0 ? "-" : "";
    const std::uint64_t a = ns < 0 ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
    std::snprintf(buffer, sizeof buffer, "%s%" PRIu64 ".%03" PRIu64, sign, a / 1000, a % 1000);
    return buffer;
}

class TraceWriter {
public:
    explicit TraceWriter(const std::filesystem::path& file) : file_(file), out_(std::fopen(file.c_str(), "wb"), &std::fclose) {
        if (!out_) throw MergeError("gpuchrono: cannot write the trace to " + file.string() + ": " + error_text());
        put("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    }
    void event(const std::string& json) {
        if (!first_) put(",\n");
        first_ = false;
        put(json);
    }
    void close() {
        put("\n]}\n");
        if (std::fflush(out_.get()) != 0) throw MergeError("gpuchrono: writing the trace to " + file_.string() + " failed: " + error_text());
    }

private:
    void put(const std::string& s) { write_all(out_.get(), s.data(), s.size(), "the trace " + file_.string()); }
    std::filesystem::path file_;
    File out_;
    bool first_ = true;
};

std::string metadata(const char* what, int pid, std::int64_t tid, const std::string& name_key, const std::string& value) {
    return "{\"ph\":\"M\",\"name\":\"" + std::string(what) + "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
           ",\"args\":{\"" + name_key + "\":" + value + "}}";
}

std::string complete(int pid, std::int64_t tid, std::int64_t ts, std::int64_t dur, const std::string& name, const char* category,
                     const std::string& args) {
    return "{\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + micros(ts) +
           ",\"dur\":" + micros(dur) + ",\"name\":" + json_string(name) + ",\"cat\":\"" + category + "\"" +
           (args.empty() ? "" : ",\"args\":{" + args + "}") + "}";
}

}  // namespace

MergedJob merge_rank_reports(const std::vector<std::filesystem::path>& files, const MergeOptions& options) {
    if (files.empty()) throw MergeError("gpuchrono: merge needs at least one rank report");
    MergedJob job;
    std::vector<RankState> ranks;
    std::map<int, std::size_t> index_of_rank;

    // The spill lives beside the trace and is removed however the merge ends.
    const std::filesystem::path spill_path =
        options.trace.empty() ? std::filesystem::path() : std::filesystem::path(options.trace.string() + ".spill");
    File spill(nullptr, &std::fclose);
    if (!spill_path.empty()) {
        spill.reset(std::fopen(spill_path.c_str(), "w+b"));
        if (!spill) throw MergeError("gpuchrono: cannot create " + spill_path.string() + ": " + error_text());
    }
    struct Remove {
        std::filesystem::path p;
        ~Remove() {
            std::error_code ec;
            if (!p.empty()) std::filesystem::remove(p, ec);
        }
    } remove_spill{spill_path};

    for (const std::filesystem::path& file : files) {
        report::Report r;
        // The activities are kept as records, never as a JSON document of them: that is what bounds the
        // merge's memory by one rank's activities rather than by six times its file.
        std::vector<KernelActivity> all;
        try {
            r = report::load_report_streaming_activities(file, [&](KernelActivity&& a) { all.push_back(std::move(a)); });
        } catch (const report::ReportError& e) {
            throw MergeError(std::string("gpuchrono: merge: ") + e.what());
        }
        if (!r.distributed)
            throw MergeError("gpuchrono: merge: " + file.string() +
                             ": has no \"distributed\" section: it was not written as a rank of a job (record its scopes with "
                             "gpuchrono::distributed::ScopeLog and set report.distributed)");
        RankState state;
        state.section = std::move(*r.distributed);
        const RankIdentity& id = state.section.identity;
        if (ranks.empty()) {
            job.job_id = id.job_id;
            job.world_size = id.world_size;
        } else {
            const RankState& first = ranks.front();
            if (id.job_id != job.job_id)
                throw MergeError("gpuchrono: merge: " + file.string() + " belongs to job \"" + id.job_id + "\" but " + first.merged.file +
                                 " to job \"" + job.job_id + "\": refusing to mix jobs");
            if (id.world_size != job.world_size)
                throw MergeError("gpuchrono: merge: " + file.string() + " has world size " + std::to_string(id.world_size) + " but " +
                                 first.merged.file + " has " + std::to_string(job.world_size) + ": refusing to mix jobs");
        }
        if (const auto seen = index_of_rank.find(id.rank); seen != index_of_rank.end())
            throw MergeError("gpuchrono: merge: rank " + std::to_string(id.rank) + " is given twice: " + ranks[seen->second].merged.file +
                             " and " + file.string());
        if (state.section.anchors.empty())
            throw MergeError("gpuchrono: merge: " + file.string() + ": distributed.anchors is empty: its times cannot be placed");
        index_of_rank[id.rank] = ranks.size();
        state.merged.identity = id;
        state.merged.devices = state.section.devices;
        state.merged.file = file.string();
        state.merged.scopes = state.section.scopes.size();
        for (const ScopeEvent& e : state.section.scopes) state.earliest_steady = std::min(state.earliest_steady, e.start_ns);
        state.cupti_to_steady = clock_maps_for(state.section, JobClock::system).cupti_to_steady;

        state.merged.activities = all.size();
        job.peak_activities_held = std::max<std::uint64_t>(job.peak_activities_held, all.size());
        {
            std::set<int> unnamed;
            for (const KernelActivity& a : all)
                if (!names_device(state.section, a.device))
                    unnamed.insert(a.device);
            for (const int d : unnamed)
                job.notes.push_back("rank " + std::to_string(id.rank) + ": activities ran on device " + std::to_string(d) +
                                    ", which its report does not identify (ScopeLog::add_device): its UUID is not known");
        }
        state.merged.overlap = compute_communication_overlap(all);
        state.merged.busy = busy_per_device(all);
        if (!state.cupti_to_steady) {
            state.merged.activities_unplaced = all.size();
        } else {
            const LinearClockMap& m = *state.cupti_to_steady;
            // Passes of one name follow each other: per name, the passes sorted by start find an activity's
            // pass by binary search.
            state.scope_gpu_ns.assign(state.section.scopes.size(), 0);
            std::map<std::string, std::vector<std::size_t>> passes;
            for (std::size_t i = 0; i < state.section.scopes.size(); ++i) passes[state.section.scopes[i].name].push_back(i);
            for (auto& [name, v] : passes)
                std::sort(v.begin(), v.end(), [&](std::size_t a, std::size_t b) { return state.section.scopes[a].start_ns < state.section.scopes[b].start_ns; });
            for (const KernelActivity& a : all) {
                const std::int64_t start = m(static_cast<std::int64_t>(a.start_ns));
                const std::int64_t end = m(static_cast<std::int64_t>(a.end_ns));
                for (const auto& [name, v] : passes) {
                    auto it = std::upper_bound(v.begin(), v.end(), start,
                                               [&](std::int64_t t, std::size_t i) { return t < state.section.scopes[i].start_ns; });
                    // the pass starting last at or before the activity, and the next one (an activity may start a
                    // little before the pass that launched it is recorded as started: clip both)
                    for (int step = 0; step < 2; ++step) {
                        if (step == 0 && it == v.begin()) continue;
                        const auto at = step == 0 ? std::prev(it) : it;
                        if (at == v.end()) continue;
                        const ScopeEvent& e = state.section.scopes[*at];
                        const std::int64_t overlap = std::min(end, e.end_ns) - std::max(start, e.start_ns);
                        if (overlap > 0) state.scope_gpu_ns[*at] += overlap;
                    }
                }
                state.earliest_steady = std::min(state.earliest_steady, start);
                if (const std::string c = nccl_collective_of(a.name); !c.empty() && a.kind == ActivityKind::kernel)
                    state.nccl.push_back({c, start, end});
                if (spill) {
                    const SpillHeader h{static_cast<std::int32_t>(ranks.size()), a.device, a.stream, static_cast<std::uint32_t>(a.kind),
                                        start, end, static_cast<std::uint32_t>(a.name.size())};
                    write_all(spill.get(), &h, sizeof h, spill_path.string());
                    write_all(spill.get(), a.name.data(), a.name.size(), spill_path.string());
                }
            }
        }
        job.nccl_kernels_kept += state.nccl.size();
        ranks.push_back(std::move(state));
    }

    // Every rank of 0..N-1 exactly once.
    std::string missing;
    int missing_count = 0;
    for (int r = 0; r < job.world_size; ++r)
        if (!index_of_rank.count(r)) {
            if (++missing_count <= 16) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        }
    if (missing_count)
        throw MergeError("gpuchrono: merge: world size is " + std::to_string(job.world_size) + " but " + std::to_string(missing_count) +
                         " rank(s) have no report: " + missing + (missing_count > 16 ? ", ..." : ""));

    // The job clock: the reference rank's steady clock if every rank measured its offset to it, else the system clock.
    const bool all_offsets = std::all_of(ranks.begin(), ranks.end(), [](const RankState& s) { return !s.section.reference_offsets.empty(); });
    job.clock = all_offsets ? JobClock::reference_steady : JobClock::system;
    std::set<std::string> hosts;
    for (const RankState& s : ranks) hosts.insert(s.section.identity.host);
    std::sort(ranks.begin(), ranks.end(), [](const RankState& a, const RankState& b) { return a.merged.identity.rank < b.merged.identity.rank; });
    std::vector<std::size_t> spill_index_to_sorted(ranks.size());
    std::vector<LinearClockMap> to_job;
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        RankState& s = ranks[i];
        spill_index_to_sorted[index_of_rank.at(s.merged.identity.rank)] = i;
        const RankClockMaps maps = clock_maps_for(s.section, job.clock);
        to_job.push_back(maps.steady_to_job);
        const ClockAnchor& a = s.section.anchors.front();
        s.merged.offset_ns = static_cast<double>(maps.steady_to_job(a.steady_ns) - a.steady_ns);
        s.merged.drift_ppm = (1.0 / maps.steady_to_job.rate - 1.0) * 1e6;
        s.merged.error_ns = maps.steady_to_job.error_ns;
        s.merged.clock_note = maps.note;
        job.alignment_error_ns = std::max(job.alignment_error_ns, maps.steady_to_job.error_ns);
        for (ScopeEvent& e : s.section.scopes) {
            e.start_ns = maps.steady_to_job(e.start_ns);
            e.end_ns = maps.steady_to_job(e.end_ns);
        }
        // GPU time was summed on the rank's steady clock: a duration on the job clock is rate times as long.
        for (std::int64_t& g : s.scope_gpu_ns) g = static_cast<std::int64_t>(std::llround(static_cast<double>(g) * maps.steady_to_job.rate));
        for (CollectiveKernel& k : s.nccl) {
            k.start_ns = maps.steady_to_job(k.start_ns);
            k.end_ns = maps.steady_to_job(k.end_ns);
        }
        if (s.earliest_steady != std::numeric_limits<std::int64_t>::max()) origin = std::min(origin, maps.steady_to_job(s.earliest_steady));
        if (s.merged.activities_unplaced)
            job.notes.push_back("rank " + std::to_string(s.merged.identity.rank) + ": " + std::to_string(s.merged.activities_unplaced) +
                                " GPU activities have no CUPTI clock anchor (ScopeLog(true) takes one): counted, not drawn in the trace");
    }
    job.alignment_note =
        job.clock == JobClock::reference_steady
            ? "job clock: rank " + std::to_string(ranks.front().section.reference_offsets.front().reference_rank) +
                  "'s steady clock; each rank mapped through its ping-pong offsets (offset and drift); error bound: half the best round trip"
            : std::string("job clock: the system clock (CLOCK_REALTIME), each rank's steady clock mapped to it through its start and end anchors") +
                  (hosts.size() > 1 ? "; the ranks run on " + std::to_string(hosts.size()) +
                                          " hosts, whose system clocks agree only as well as NTP/PTP keeps them: that error is NOT in the bound "
                                          "(measure offsets with estimate_offset_to_reference() to include it)"
                                    : "; every rank runs on one host, so they share that clock: the bound is the anchors' read width");
    for (RankState& s : ranks) {
        s.merged.identity = s.section.identity;
        job.ranks.push_back(s.merged);
    }

    // Stragglers: every scope name that each rank went through.
    std::map<std::string, std::vector<RankScopes>> by_name;
    for (const RankState& s : ranks)
        for (const ScopeEvent& e : s.section.scopes) {
            auto& v = by_name[e.name];
            if (v.empty())
                for (const RankState& t : ranks) v.push_back(RankScopes{t.merged.identity.rank, {}, {}, {}});
        }
    // passes[i][name]: rank i's passes of that name in start order (indices into its scopes)
    std::vector<std::map<std::string, std::vector<std::size_t>>> passes(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankState& s = ranks[i];
        std::map<std::string, std::vector<std::size_t>>& mine = passes[i];
        for (std::size_t e = 0; e < s.section.scopes.size(); ++e) mine[s.section.scopes[e].name].push_back(e);
        for (auto& [name, events] : mine) {
            std::sort(events.begin(), events.end(), [&](std::size_t a, std::size_t b) { return s.section.scopes[a].start_ns < s.section.scopes[b].start_ns; });
            RankScopes& out = by_name[name][i];
            for (const std::size_t e : events) {
                out.start_ns.push_back(s.section.scopes[e].start_ns);
                out.end_ns.push_back(s.section.scopes[e].end_ns);
                if (!s.scope_gpu_ns.empty()) out.gpu_ns.push_back(s.scope_gpu_ns[e]);
            }
        }
    }
    for (auto& [name, per_rank] : by_name) job.stragglers.push_back(analyse_stragglers(name, per_rank, static_cast<std::int64_t>(2 * job.alignment_error_ns) + 2));

    // Collectives declared by scope name with bytes: nccl-tests' bandwidths from the median pass.
    for (const ScopeStragglers& st : job.stragglers) {
        const auto collective = collective_from_string(st.name);
        if (!collective) continue;
        std::vector<std::int64_t> durations;
        std::uint64_t bytes = 0;
        for (const RankState& s : ranks)
            for (const ScopeEvent& e : s.section.scopes)
                if (e.name == st.name && e.bytes) {
                    durations.push_back(e.end_ns - e.start_ns);
                    bytes = e.bytes;
                }
        if (durations.empty() || bytes == 0) continue;
        std::nth_element(durations.begin(), durations.begin() + static_cast<std::ptrdiff_t>(durations.size() / 2), durations.end());
        const std::int64_t t = durations[durations.size() / 2];
        if (t <= 0) continue;
        const CollectiveBandwidth bw = collective_bandwidth(*collective, bytes, static_cast<double>(t) * 1e-9, job.world_size);
        char line[256];
        std::snprintf(line, sizeof line, "%s: %" PRIu64 " B, median pass %.3f us: algbw %.3f GB/s, busbw %.3f GB/s (nccl-tests' definitions, n = %d)",
                      st.name.c_str(), bytes, static_cast<double>(t) / 1e3, bw.algbw_bytes_per_second / 1e9, bw.busbw_bytes_per_second / 1e9,
                      job.world_size);
        job.notes.push_back(line);
    }

    // NCCL kernels: wait versus transfer.
    std::vector<int> rank_ids;
    std::vector<std::vector<CollectiveKernel>> nccl;
    for (const RankState& s : ranks) {
        rank_ids.push_back(s.merged.identity.rank);
        nccl.push_back(s.nccl);
    }
    job.collectives = split_collectives(rank_ids, nccl);

    if (options.trace.empty()) return job;

    // The trace: one process per rank, a track for its scopes and one per device and stream.
    TraceWriter trace(options.trace);
    if (origin == std::numeric_limits<std::int64_t>::max()) origin = 0;
    for (const RankState& s : ranks) {
        const RankIdentity& id = s.merged.identity;
        trace.event(metadata("process_name", id.rank, 0, "name",
                             json_string("rank " + std::to_string(id.rank) + " (" + id.host + ", pid " + std::to_string(id.pid) + ")")));
        trace.event(metadata("process_sort_index", id.rank, 0, "sort_index", std::to_string(id.rank)));
        trace.event(metadata("thread_name", id.rank, 0, "name", json_string("scopes (host)")));
    }
    // Every scope pass is drawn; those of compared steps carry their step, lateness and excess.
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankState& s = ranks[i];
        const int rank = s.merged.identity.rank;
        for (const auto& [name, events] : passes[i]) {
            const auto st = std::find_if(job.stragglers.begin(), job.stragglers.end(), [&](const ScopeStragglers& x) { return x.name == name; });
            bool compared = false;
            std::size_t column = 0;
            if (st != job.stragglers.end())
                if (const auto at = std::find(st->ranks.begin(), st->ranks.end(), rank); at != st->ranks.end()) {
                    compared = true;
                    column = static_cast<std::size_t>(at - st->ranks.begin());
                }
            for (std::size_t k = 0; k < events.size(); ++k) {
                const ScopeEvent& e = s.section.scopes[events[k]];
                std::string args;
                if (compared && k < st->steps.size()) {
                    const StepLateness& step = st->steps[k];
                    args = "\"step\":" + std::to_string(k) + ",\"lateness_us\":" + micros(step.lateness_ns[column]) +
                           ",\"excess_us\":" + micros(step.excess_ns[column]) +
                           (step.gpu_excess_ns.empty() ? "" : ",\"gpu_excess_us\":" + micros(step.gpu_excess_ns[column])) +
                           (step.last_rank == rank ? ",\"last\":true" : "");
                }
                trace.event(complete(rank, 0, e.start_ns - origin, e.end_ns - e.start_ns, e.name, "scope", args));
            }
        }
    }
    if (spill) {
        if (std::fflush(spill.get()) != 0 || std::fseek(spill.get(), 0, SEEK_SET) != 0)
            throw MergeError("gpuchrono: reading back " + spill_path.string() + " failed: " + error_text());
        std::map<std::tuple<int, int, std::uint32_t>, std::int64_t> tracks;
        SpillHeader h{};
        std::string name;
        while (std::fread(&h, sizeof h, 1, spill.get()) == 1) {
            name.resize(h.name_length);
            if (h.name_length && std::fread(name.data(), 1, h.name_length, spill.get()) != h.name_length)
                throw MergeError("gpuchrono: reading back " + spill_path.string() + " failed: truncated");
            const RankState& s = ranks[spill_index_to_sorted[static_cast<std::size_t>(h.rank_index)]];
            const int pid = s.merged.identity.rank;
            const auto key = std::make_tuple(pid, h.device, h.stream);
            auto it = tracks.find(key);
            if (it == tracks.end()) {
                std::int64_t tid = 1;
                for (const auto& [k, t] : tracks)
                    if (std::get<0>(k) == pid) tid = std::max(tid, t + 1);
                it = tracks.emplace(key, tid).first;
                std::string device = "GPU " + std::to_string(h.device);
                for (const DeviceIdentity& d : s.merged.devices)
                    if (d.index == h.device && !d.uuid.empty()) device += " " + d.uuid;
                trace.event(metadata("thread_name", pid, tid, "name", json_string(device + " stream " + std::to_string(h.stream))));
                trace.event(metadata("thread_sort_index", pid, tid, "sort_index", std::to_string(tid)));
            }
            const LinearClockMap& m = to_job[spill_index_to_sorted[static_cast<std::size_t>(h.rank_index)]];
            const std::int64_t start = m(h.start);
            const std::int64_t end = m(h.end);
            trace.event(complete(pid, it->second, start - origin, std::max<std::int64_t>(0, end - start), name,
                                 to_string(static_cast<ActivityKind>(h.kind)), ""));
        }
        if (std::ferror(spill.get())) throw MergeError("gpuchrono: reading back " + spill_path.string() + " failed: " + error_text());
    }
    trace.close();
    return job;
}

}  // namespace gpuchrono::distributed
