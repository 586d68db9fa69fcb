#include <gpuchrono/cupti/activity_store.hpp>

#include <gpuchrono/stream_mode/stream_bounds.hpp>

#include <algorithm>
#include <limits>
#include <unordered_set>
#include <utility>

namespace gpuchrono::cupti {

ActivityStore::Window ActivityStore::open_window(std::uint64_t start_ns) {
    std::lock_guard lock(mutex_);
    const Window w = next_window_++;
    windows_.emplace(std::pair{start_ns, w}, latest_);
    window_start_.emplace(w, start_ns);
    return w;
}

void ActivityStore::close_window(Window w) {
    std::lock_guard lock(mutex_);
    if (const auto it = window_start_.find(w); it != window_start_.end()) {
        windows_.erase(std::pair{it->second, w});
        window_start_.erase(it);
    }
    prune_locked();
}

void ActivityStore::raise(std::vector<PriorWork>& by_device, const KernelActivity& r) {
    if (r.device < 0) return;
    const auto d = static_cast<std::size_t>(r.device);
    if (by_device.size() <= d) by_device.resize(d + 1);
    std::uint64_t& end = stream_mode::is_stream_mark(r) ? by_device[d].mark_end_ns : by_device[d].work_end_ns;
    end = std::max(end, r.end_ns);
}

void ActivityStore::add(std::vector<KernelActivity> records) {
    std::lock_guard lock(mutex_);
    for (const KernelActivity& r : records) {
        raise(latest_, r);
        // The windows that began after the record ended.
        const auto after = windows_.upper_bound(std::pair{r.end_ns, std::numeric_limits<Window>::max()});
        for (auto it = after; it != windows_.end(); ++it) raise(it->second, r);
    }
    if (windows_.empty()) return;
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

ActivityStore::PriorWork ActivityStore::prior_work(Window w, int device) const {
    std::lock_guard lock(mutex_);
    const auto start = window_start_.find(w);
    if (start == window_start_.end() || device < 0) return {};
    const std::vector<PriorWork>& prior = windows_.at(std::pair{start->second, w});
    if (static_cast<std::size_t>(device) >= prior.size()) return {};
    return prior[static_cast<std::size_t>(device)];
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

std::size_t ActivityStore::size() const {
    std::lock_guard lock(mutex_);
    return records_.size();
}

std::size_t ActivityStore::open_windows() const {
    std::lock_guard lock(mutex_);
    return windows_.size();
}

void ActivityStore::prune_locked() {
    if (windows_.empty()) {
        records_.clear();
        return;
    }
    const std::uint64_t earliest = windows_.begin()->first.first;
    std::erase_if(records_, [&](const KernelActivity& r) { return r.end_ns < earliest; });
}

}  // namespace gpuchrono::cupti
