// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/job/job_merge.hpp>

#include <gpuchrono/distributed/collective_bandwidth.hpp>

#include "job/rank_reader.hpp"
#include "job/trace_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace gpuchrono::distributed {

namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

std::string error_text() { return std::system_category().message(errno); }

// The spill file: each rank's activity records, in file order, read back once to write the trace. It lives
// beside the trace and is removed however the merge ends.
class Spill {
public:
    explicit Spill(const std::filesystem::path& trace)
        : path_(trace.empty() ? std::filesystem::path() : std::filesystem::path(trace.string() + ".spill")), file_(nullptr, &std::fclose) {
        if (path_.empty()) return;
        file_.reset(std::fopen(path_.c_str(), "w+b"));
        if (!file_) throw MergeError("gpuchrono: cannot create " + path_.string() + ": " + error_text());
    }
    Spill(const Spill&) = delete;
    Spill& operator=(const Spill&) = delete;
    ~Spill() {
        file_.reset();
        std::error_code ec;
        if (!path_.empty()) std::filesystem::remove(path_, ec);
    }

    bool active() const noexcept { return static_cast<bool>(file_); }

    void append(const std::vector<SpillRecord>& records) {
        const std::size_t bytes = records.size() * sizeof(SpillRecord);
        if (bytes && std::fwrite(records.data(), 1, bytes, file_.get()) != bytes)
            throw MergeError("gpuchrono: writing " + path_.string() + " failed: " + error_text());
    }

    // Calls f(record) for every record, in the order appended.
    template <class F>
    void replay(F&& f) {
        if (std::fflush(file_.get()) != 0 || std::fseek(file_.get(), 0, SEEK_SET) != 0)
            throw MergeError("gpuchrono: reading back " + path_.string() + " failed: " + error_text());
        std::vector<SpillRecord> batch(1 << 14);
        for (;;) {
            const std::size_t n = std::fread(batch.data(), sizeof(SpillRecord), batch.size(), file_.get());
            for (std::size_t i = 0; i < n; ++i) f(batch[i]);
            if (n < batch.size()) break;
        }
        if (std::ferror(file_.get())) throw MergeError("gpuchrono: reading back " + path_.string() + " failed: " + error_text());
    }

private:
    std::filesystem::path path_;
    File file_;
};

// Every distinct activity name of the job, written into the trace once as JSON text.
class NameTable {
public:
    std::uint32_t id(const std::string& name) {
        const auto [it, added] = ids_.try_emplace(name, static_cast<std::uint32_t>(json_names_.size()));
        if (added) json_names_.push_back(json_string(name));
        return it->second;
    }
    const std::string& json(std::uint32_t id) const { return json_names_.at(id); }

private:
    std::unordered_map<std::string, std::uint32_t> ids_;
    std::vector<std::string> json_names_;
};

// The checks across files, in the order the files were given: one job, each rank once, every rank's times
// placeable. The first refusal names the file(s).
void admit_rank(const RankRead& read, const std::vector<RankState>& ranks, const std::map<int, std::size_t>& index_of_rank, MergedJob& job) {
    const RankState& state = read.state;
    const std::string& file = state.merged.file;
    const RankIdentity& id = state.section.identity;
    if (ranks.empty()) {
        job.job_id = id.job_id;
        job.world_size = id.world_size;
    } else {
        const RankState& first = ranks.front();
        if (id.job_id != job.job_id)
            throw MergeError("gpuchrono: merge: " + file + " belongs to job \"" + id.job_id + "\" but " + first.merged.file + " to job \"" +
                             job.job_id + "\": refusing to mix jobs");
        if (id.world_size != job.world_size)
            throw MergeError("gpuchrono: merge: " + file + " has world size " + std::to_string(id.world_size) + " but " + first.merged.file +
                             " has " + std::to_string(job.world_size) + ": refusing to mix jobs");
    }
    if (const auto seen = index_of_rank.find(id.rank); seen != index_of_rank.end())
        throw MergeError("gpuchrono: merge: rank " + std::to_string(id.rank) + " is given twice: " + ranks[seen->second].merged.file + " and " +
                         file);
    if (state.section.anchors.empty())
        throw MergeError("gpuchrono: merge: " + file + ": distributed.anchors is empty: its times cannot be placed");
}

// Every rank of 0..N-1 exactly once.
void require_every_rank(const MergedJob& job, const std::map<int, std::size_t>& index_of_rank) {
    std::string missing;
    int missing_count = 0;
    for (int r = 0; r < job.world_size; ++r)
        if (!index_of_rank.count(r)) {
            if (++missing_count <= 16) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        }
    if (missing_count)
        throw MergeError("gpuchrono: merge: world size is " + std::to_string(job.world_size) + " but " + std::to_string(missing_count) +
                         " rank(s) have no report: " + missing + (missing_count > 16 ? ", ..." : ""));
}

// The job clock: the reference rank's steady clock if every rank measured its offset to it, else the system
// clock. Puts every rank's scopes, GPU sums and NCCL kernels on it; returns each rank's steady -> job map (by
// sorted rank) and the job's earliest time (the trace's origin).
std::vector<LinearClockMap> align_ranks(std::vector<RankState>& ranks, MergedJob& job, std::int64_t& origin) {
    const bool all_offsets = std::all_of(ranks.begin(), ranks.end(), [](const RankState& s) { return !s.section.reference_offsets.empty(); });
    job.clock = all_offsets ? JobClock::reference_steady : JobClock::system;
    std::set<std::string> hosts;
    for (const RankState& s : ranks) hosts.insert(s.section.identity.host);
    std::vector<LinearClockMap> to_job;
    origin = std::numeric_limits<std::int64_t>::max();
    for (RankState& s : ranks) {
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
    return to_job;
}

// Passes by rank (sorted) and scope name, in start order: indices into the rank's scopes.
using PassesByName = std::map<std::string, std::vector<std::size_t>>;

// Stragglers: every scope name that each rank went through.
std::vector<PassesByName> find_stragglers(const std::vector<RankState>& ranks, MergedJob& job) {
    std::map<std::string, std::vector<RankScopes>> by_name;
    for (const RankState& s : ranks)
        for (const ScopeEvent& e : s.section.scopes) {
            auto& v = by_name[e.name];
            if (v.empty())
                for (const RankState& t : ranks) v.push_back(RankScopes{t.merged.identity.rank, {}, {}, {}});
        }
    std::vector<PassesByName> passes(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankState& s = ranks[i];
        PassesByName& mine = passes[i];
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
    return passes;
}

// Collectives declared by scope name with bytes: nccl-tests' bandwidths from the median pass, as notes.
void note_collective_bandwidths(const std::vector<RankState>& ranks, MergedJob& job) {
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
}

// NCCL kernels: wait versus transfer.
void split_nccl_kernels(const std::vector<RankState>& ranks, MergedJob& job) {
    std::vector<int> rank_ids;
    std::vector<std::vector<CollectiveKernel>> nccl;
    for (const RankState& s : ranks) {
        rank_ids.push_back(s.merged.identity.rank);
        nccl.push_back(s.nccl);
    }
    job.collectives = split_collectives(rank_ids, nccl);
}

// The trace's rank processes and their scope passes; those of compared steps carry their step, lateness and excess.
void trace_scopes(TraceWriter& trace, const std::vector<RankState>& ranks, const std::vector<PassesByName>& passes, const MergedJob& job,
                  std::int64_t origin) {
    for (const RankState& s : ranks) {
        const RankIdentity& id = s.merged.identity;
        trace.metadata("process_name", id.rank, 0, "name", json_string("rank " + std::to_string(id.rank) + " (" + id.host + ", pid " + std::to_string(id.pid) + ")"));
        trace.metadata("process_sort_index", id.rank, 0, "sort_index", std::to_string(id.rank));
        trace.metadata("thread_name", id.rank, 0, "name", json_string("scopes (host)"));
    }
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
                trace.complete(rank, 0, e.start_ns - origin, e.end_ns - e.start_ns, json_string(e.name), "scope", args);
            }
        }
    }
}

// The activities, from the spill: a track per rank, device and stream, numbered in the order first seen.
void trace_activities(TraceWriter& trace, Spill& spill, const std::vector<RankState>& ranks, const std::vector<std::size_t>& sorted_of_file,
                      const std::vector<LinearClockMap>& to_job, const NameTable& names, std::int64_t origin) {
    std::map<std::tuple<int, int, std::uint32_t>, std::int64_t> tracks;
    std::tuple<int, int, std::uint32_t> last_key{-1, -1, 0};
    std::int64_t last_tid = -1;
    spill.replay([&](const SpillRecord& h) {
        const std::size_t sorted = sorted_of_file[static_cast<std::size_t>(h.file_index)];
        const RankState& s = ranks[sorted];
        const int pid = s.merged.identity.rank;
        const auto key = std::make_tuple(pid, h.device, h.stream);
        if (key != last_key || last_tid < 0) {
            auto it = tracks.find(key);
            if (it == tracks.end()) {
                std::int64_t tid = 1;
                for (const auto& [k, t] : tracks)
                    if (std::get<0>(k) == pid) tid = std::max(tid, t + 1);
                it = tracks.emplace(key, tid).first;
                std::string device = "GPU " + std::to_string(h.device);
                for (const DeviceIdentity& d : s.merged.devices)
                    if (d.index == h.device && !d.uuid.empty()) device += " " + d.uuid;
                trace.metadata("thread_name", pid, tid, "name", json_string(device + " stream " + std::to_string(h.stream)));
                trace.metadata("thread_sort_index", pid, tid, "sort_index", std::to_string(tid));
            }
            last_key = key;
            last_tid = it->second;
        }
        const LinearClockMap& m = to_job[sorted];
        const std::int64_t start = m(h.start);
        const std::int64_t end = m(h.end);
        trace.complete(pid, last_tid, start - origin, std::max<std::int64_t>(0, end - start), names.json(h.name_id),
                       to_string(static_cast<ActivityKind>(h.kind)), "");
    });
}

}  // namespace

MergedJob merge_rank_reports(const std::vector<std::filesystem::path>& files, const MergeOptions& options) {
    if (files.empty()) throw MergeError("gpuchrono: merge needs at least one rank report");
    MergedJob job;
    std::vector<RankState> ranks;  // in file order until all are read
    std::map<int, std::size_t> index_of_rank;
    Spill spill(options.trace);
    NameTable names;

    // Ranks are read ahead on worker threads; each is admitted here in the order given, so the first refusal
    // is the same whatever the threads' timing.
    RankReader reader(files, spill.active());
    job.reader_threads = static_cast<std::uint32_t>(reader.threads());
    for (std::size_t i = 0; i < files.size(); ++i) {
        RankRead read = reader.take(i);
        admit_rank(read, ranks, index_of_rank, job);
        index_of_rank[read.state.section.identity.rank] = ranks.size();
        for (std::string& note : read.notes) job.notes.push_back(std::move(note));
        job.peak_activities_held = std::max<std::uint64_t>(job.peak_activities_held, read.state.merged.activities);
        job.nccl_kernels_kept += read.state.nccl.size();
        if (spill.active()) {
            std::vector<std::uint32_t> global_id(read.names.size());
            for (std::size_t n = 0; n < read.names.size(); ++n) global_id[n] = names.id(read.names[n]);
            for (SpillRecord& r : read.records) r.name_id = global_id[r.name_id];
            spill.append(read.records);
        }
        ranks.push_back(std::move(read.state));
    }
    require_every_rank(job, index_of_rank);

    std::sort(ranks.begin(), ranks.end(), [](const RankState& a, const RankState& b) { return a.merged.identity.rank < b.merged.identity.rank; });
    std::vector<std::size_t> sorted_of_file(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) sorted_of_file[index_of_rank.at(ranks[i].merged.identity.rank)] = i;
    std::int64_t origin = 0;
    const std::vector<LinearClockMap> to_job = align_ranks(ranks, job, origin);
    const std::vector<PassesByName> passes = find_stragglers(ranks, job);
    note_collective_bandwidths(ranks, job);
    split_nccl_kernels(ranks, job);

    if (options.trace.empty()) return job;
    // The trace: one process per rank, a track for its scopes and one per device and stream.
    TraceWriter trace(options.trace);
    if (origin == std::numeric_limits<std::int64_t>::max()) origin = 0;
    trace_scopes(trace, ranks, passes, job, origin);
    if (spill.active()) trace_activities(trace, spill, ranks, sorted_of_file, to_job, names, origin);
    trace.close();
    return job;
}

}  // namespace gpuchrono::distributed
