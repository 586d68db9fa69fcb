#include <gpuchrono/cupti/activity_store.hpp>

#include <algorithm>
#include <unordered_set>

namespace gpuchrono::cupti {

ActivityStore::Window ActivityStore::open_window(std::uint64_t start_ns) {
    std::lock_guard lock(mutex_);
    const Window w = next_window_++;
    windows_.emplace(w, start_ns);
    return w;
}

void ActivityStore::close_window(Window w) {
    std::lock_guard lock(mutex_);
    windows_.erase(w);
    prune_locked();
}

void ActivityStore::add(std::vector<KernelActivity> records) {
    std::lock_guard lock(mutex_);
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
    std::uint64_t earliest = windows_.begin()->second;
    for (const auto& [w, start] : windows_) earliest = std::min(earliest, start);
    std::erase_if(records_, [&](const KernelActivity& r) { return r.end_ns < earliest; });
}

}  // namespace gpuchrono::cupti
