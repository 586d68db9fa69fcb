// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cupti/activity_store.hpp"

#include "stream_mark.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <unordered_set>

namespace gpuchrono::cupti {

namespace {

// The largest element below `bound`; 0 if none.
std::uint64_t latest_before(const std::set<std::uint64_t>& ends, std::uint64_t bound) {
    auto it = ends.lower_bound(bound);
    return it == ends.begin() ? 0 : *std::prev(it);
}

std::uint64_t latest(const std::set<std::uint64_t>& ends) { return ends.empty() ? 0 : *ends.rbegin(); }

// Keeps the ends at or after `floor` and the latest one before it.
void prune_ends(std::set<std::uint64_t>& ends, std::uint64_t floor) {
    auto below = ends.lower_bound(floor);
    if (below == ends.begin()) return;
    ends.erase(ends.begin(), std::prev(below));
}

}  // namespace

ActivityStore::Window ActivityStore::open_window(std::uint64_t start_ns) {
    std::lock_guard lock(mutex_);
    OpenWindow open{start_ns, {}, {}};
    open.delivered_before.reserve(ends_.size());
    for (const DeviceEnds& d : ends_) open.delivered_before.push_back({latest(d.work), latest(d.marks), 0});
    for (const auto& [key, ends] : stream_ends_) open.stream_delivered_before.emplace(key, latest(ends));
    const Window w = next_window_++;
    windows_.emplace(w, std::move(open));
    return w;
}

void ActivityStore::close_window(Window w) {
    std::lock_guard lock(mutex_);
    windows_.erase(w);
    prune_locked();
}

void ActivityStore::add(std::vector<KernelActivity> records) {
    std::lock_guard lock(mutex_);
    for (const KernelActivity& r : records) {
        if (r.device < 0) continue;
        const auto d = static_cast<std::size_t>(r.device);
        if (ends_.size() <= d) ends_.resize(d + 1);
        (detail::is_stream_marker_record(r) ? ends_[d].marks : ends_[d].work).insert(r.end_ns);
        if (!detail::is_stream_marker_record(r)) stream_ends_[{r.device, r.stream}].insert(r.end_ns);
    }
    if (!windows_.empty())
        records_.insert(records_.end(), std::make_move_iterator(records.begin()), std::make_move_iterator(records.end()));
    prune_locked();
}

void ActivityStore::add_dropped(std::uint64_t count) {
    std::lock_guard lock(mutex_);
    dropped_ += count;
}

std::uint64_t ActivityStore::dropped() const {
    std::lock_guard lock(mutex_);
    return dropped_;
}

ActivityStore::PriorWork ActivityStore::prior_work(Window w, int device, std::optional<std::uint32_t> stream) const {
    std::lock_guard lock(mutex_);
    const auto open = windows_.find(w);
    if (open == windows_.end() || device < 0) return {};
    const std::uint64_t start = open->second.start_ns;
    const auto d = static_cast<std::size_t>(device);
    PriorWork prior;
    if (d < open->second.delivered_before.size()) prior = open->second.delivered_before[d];
    if (d < ends_.size()) {
        prior.work_end_ns = std::max(prior.work_end_ns, latest_before(ends_[d].work, start));
        prior.mark_end_ns = std::max(prior.mark_end_ns, latest_before(ends_[d].marks, start));
    }
    if (stream) {
        const std::pair<int, std::uint32_t> key{device, *stream};
        if (const auto it = open->second.stream_delivered_before.find(key); it != open->second.stream_delivered_before.end())
            prior.stream_work_end_ns = it->second;
        if (const auto it = stream_ends_.find(key); it != stream_ends_.end())
            prior.stream_work_end_ns = std::max(prior.stream_work_end_ns, latest_before(it->second, start));
    }
    return prior;
}

void ActivityStore::set_recording_since(std::uint64_t ns) {
    std::lock_guard lock(mutex_);
    recording_since_ = ns;
}

std::uint64_t ActivityStore::recording_since() const {
    std::lock_guard lock(mutex_);
    return recording_since_;
}

ActivityStore::Collected ActivityStore::collect(std::span<const std::uint32_t> correlations, std::uint64_t from_ns) const {
    const std::unordered_set<std::uint32_t> wanted(correlations.begin(), correlations.end());
    Collected out;
    std::lock_guard lock(mutex_);
    for (const KernelActivity& r : records_) {
        if (wanted.count(r.correlation_id))
            out.launched.push_back(r);
        else if (r.end_ns >= from_ns)
            out.others.push_back(r);
    }
    return out;
}

std::vector<KernelActivity> ActivityStore::marks(std::uint32_t token, std::uint64_t from_ns) const {
    std::vector<KernelActivity> out;
    std::lock_guard lock(mutex_);
    for (const KernelActivity& r : records_)
        if (r.end_ns >= from_ns && r.block[0] == token && detail::is_stream_marker_record(r)) out.push_back(r);
    return out;
}

std::vector<KernelActivity> ActivityStore::collect_bounded(std::uint64_t from_ns, std::uint64_t until_ns,
                                                           std::uint32_t after_correlation,
                                                           std::uint32_t before_correlation) const {
    std::vector<KernelActivity> out;
    std::lock_guard lock(mutex_);
    for (const KernelActivity& r : records_) {
        if (r.end_ns < from_ns) continue;
        const bool launched_between = r.correlation_id > after_correlation && r.correlation_id < before_correlation;
        if (r.start_ns <= until_ns || launched_between) out.push_back(r);
    }
    return out;
}

std::size_t ActivityStore::size() const {
    std::lock_guard lock(mutex_);
    return records_.size();
}

std::size_t ActivityStore::open_windows() const {
    std::lock_guard lock(mutex_);
    return windows_.size();
}

void ActivityStore::prune_locked() {
    // With no window open only the latest end of each device is kept (the next window takes it over).
    std::uint64_t earliest = std::numeric_limits<std::uint64_t>::max();
    for (const auto& [w, open] : windows_) earliest = std::min(earliest, open.start_ns);
    for (DeviceEnds& d : ends_) {
        prune_ends(d.work, earliest);
        prune_ends(d.marks, earliest);
    }
    for (auto& [key, ends] : stream_ends_) prune_ends(ends, earliest);
    // Streams come and go: beyond max_streams_kept the ones whose latest work is oldest are forgotten (a scope
    // on one of them then finds its stream's gap unknown, and falls back to the device's).
    while (stream_ends_.size() > max_streams_kept) {
        auto oldest = stream_ends_.begin();
        for (auto it = stream_ends_.begin(); it != stream_ends_.end(); ++it)
            if (latest(it->second) < latest(oldest->second)) oldest = it;
        stream_ends_.erase(oldest);
    }
    if (windows_.empty()) {
        records_.clear();
        return;
    }
    std::erase_if(records_, [&](const KernelActivity& r) { return r.end_ns < earliest; });
}

}  // namespace gpuchrono::cupti
