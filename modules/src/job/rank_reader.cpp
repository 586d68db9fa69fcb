// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "job/rank_reader.hpp"

#include <gpuchrono/report/json/report_json.hpp>

#include "report/streamed_report.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace gpuchrono::distributed {

namespace {

// Worker threads: the merge's time is parsing, one file per thread; more threads than cores only add files
// held at once (memory), so at most 4 whatever the machine.
std::size_t worker_count(std::size_t files) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return std::max<std::size_t>(1, std::min<std::size_t>({files, cores, 4}));
}

// GPU time of each scope pass, the rank's NCCL kernels and its spill records, from its activities on the
// rank's steady clock (m: CUPTI -> steady).
void place_activities(const std::vector<KernelActivity>& all, const LinearClockMap& m, std::size_t file_index, bool keep_records, RankRead& out) {
    RankState& state = out.state;
    const std::vector<ScopeEvent>& scopes = state.section.scopes;
    state.scope_gpu_ns.assign(scopes.size(), 0);
    // Passes of one name follow each other: per name, the passes sorted by start find an activity's pass by
    // binary search.
    std::map<std::string, std::vector<std::size_t>> passes;
    for (std::size_t i = 0; i < scopes.size(); ++i) passes[scopes[i].name].push_back(i);
    for (auto& [name, v] : passes)
        std::sort(v.begin(), v.end(), [&](std::size_t a, std::size_t b) { return scopes[a].start_ns < scopes[b].start_ns; });
    // Names repeat (a kernel per launch): each distinct one is looked at once.
    struct NameFacts {
        std::uint32_t id;
        std::string collective;
    };
    std::unordered_map<std::string, NameFacts> facts;
    if (keep_records) out.records.reserve(all.size());
    for (const KernelActivity& a : all) {
        const std::int64_t start = m(static_cast<std::int64_t>(a.start_ns));
        const std::int64_t end = m(static_cast<std::int64_t>(a.end_ns));
        for (const auto& [name, v] : passes) {
            auto it = std::upper_bound(v.begin(), v.end(), start, [&](std::int64_t t, std::size_t i) { return t < scopes[i].start_ns; });
            // the pass starting last at or before the activity, and the next one (an activity may start a
            // little before the pass that launched it is recorded as started: clip both)
            for (int step = 0; step < 2; ++step) {
                if (step == 0 && it == v.begin()) continue;
                const auto at = step == 0 ? std::prev(it) : it;
                if (at == v.end()) continue;
                const ScopeEvent& e = scopes[*at];
                const std::int64_t overlap = std::min(end, e.end_ns) - std::max(start, e.start_ns);
                if (overlap > 0) state.scope_gpu_ns[*at] += overlap;
            }
        }
        state.earliest_steady = std::min(state.earliest_steady, start);
        auto named = facts.find(a.name);
        if (named == facts.end()) {
            named = facts.emplace(a.name, NameFacts{static_cast<std::uint32_t>(out.names.size()), nccl_collective_of(a.name)}).first;
            out.names.push_back(a.name);
        }
        if (!named->second.collective.empty() && a.kind == ActivityKind::kernel) state.nccl.push_back({named->second.collective, start, end});
        if (keep_records)
            out.records.push_back(SpillRecord{static_cast<std::int32_t>(file_index), a.device, a.stream, static_cast<std::uint32_t>(a.kind), start,
                                              end, named->second.id});
    }
}

}  // namespace

RankRead read_rank(const std::filesystem::path& file, std::size_t file_index, bool keep_records, ReadingBuffers& buffers) {
    report::Report r;
    // The activities are kept as records, never as a JSON document of them: that is what bounds the merge's
    // memory by the activities of the ranks being read rather than by six times their files.
    std::vector<KernelActivity>& all = buffers.activities;
    all.clear();
    try {
        r = report::load_report_streaming_activities(file, [&](KernelActivity&& a) { all.push_back(std::move(a)); }, buffers.text);
    } catch (const report::ReportError& e) {
        throw MergeError(std::string("gpuchrono: merge: ") + e.what());
    }
    if (!r.distributed)
        throw MergeError("gpuchrono: merge: " + file.string() +
                         ": has no \"distributed\" section: it was not written as a rank of a job (record its scopes with "
                         "gpuchrono::distributed::ScopeLog and set report.distributed)");
    RankRead out;
    RankState& state = out.state;
    state.section = std::move(*r.distributed);
    const RankIdentity& id = state.section.identity;
    state.merged.identity = id;
    state.merged.devices = state.section.devices;
    state.merged.file = file.string();
    state.merged.scopes = state.section.scopes.size();
    state.merged.activities = all.size();
    // A report without anchors is refused by the merge, after the checks across files: nothing to place.
    if (state.section.anchors.empty()) return out;
    for (const ScopeEvent& e : state.section.scopes) state.earliest_steady = std::min(state.earliest_steady, e.start_ns);
    const std::optional<LinearClockMap> cupti_to_steady = clock_maps_for(state.section, JobClock::system).cupti_to_steady;
    {
        std::set<int> unnamed;
        for (const KernelActivity& a : all)
            if (!names_device(state.section, a.device)) unnamed.insert(a.device);
        for (const int d : unnamed)
            out.notes.push_back("rank " + std::to_string(id.rank) + ": activities ran on device " + std::to_string(d) +
                                ", which its report does not identify (ScopeLog::add_device): its UUID is not known");
    }
    state.merged.overlap = compute_communication_overlap(all);
    state.merged.busy = busy_per_device(all);
    if (!cupti_to_steady)
        state.merged.activities_unplaced = all.size();
    else
        place_activities(all, *cupti_to_steady, file_index, keep_records, out);
    return out;
}

RankReader::RankReader(const std::vector<std::filesystem::path>& files, bool keep_records)
    : files_(files), keep_records_(keep_records), slots_(files.size()) {
    const std::size_t threads = worker_count(files.size());
    window_ = threads + 1;
    try {
        for (std::size_t t = 0; t < threads; ++t) workers_.emplace_back([this] { work(); });
    } catch (...) {
        stop();  // the threads that did start
        throw;
    }
}

RankReader::~RankReader() { stop(); }

void RankReader::stop() noexcept {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    room_.notify_all();
    for (std::thread& t : workers_)
        if (t.joinable()) t.join();
}

void RankReader::work() {
    ReadingBuffers buffers;
    for (;;) {
        std::size_t i = 0;
        {
            std::unique_lock lock(mutex_);
            room_.wait(lock, [&] { return stopping_ || next_to_read_ >= files_.size() || next_to_read_ < next_to_take_ + window_; });
            if (stopping_ || next_to_read_ >= files_.size()) return;
            i = next_to_read_++;
        }
        std::optional<RankRead> read;
        std::exception_ptr error;
        try {
            read = read_rank(files_[i], i, keep_records_, buffers);
        } catch (...) {
            error = std::current_exception();
        }
        {
            const std::lock_guard lock(mutex_);
            slots_[i].read = std::move(read);
            slots_[i].error = error;
            slots_[i].done = true;
        }
        ready_.notify_all();
    }
}

RankRead RankReader::take(std::size_t i) {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return slots_[i].done; });
    Slot slot = std::move(slots_[i]);
    slots_[i] = Slot{};
    next_to_take_ = i + 1;
    lock.unlock();
    room_.notify_all();
    if (slot.error) std::rethrow_exception(slot.error);
    return std::move(*slot.read);
}

}  // namespace gpuchrono::distributed
