// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "run/range_attribution.hpp"

namespace gpuchrono::run {

std::uint32_t RangeNames::intern(std::string_view name) {
    const std::lock_guard guard(lock_);
    if (const auto found = ids_.find(name); found != ids_.end()) return found->second;
    const auto id = static_cast<std::uint32_t>(names_.size());
    ids_.emplace(std::string(name), id);
    names_.emplace_back(name);
    return id;
}

std::string RangeNames::name(std::uint32_t id) const {
    const std::lock_guard guard(lock_);
    return id < names_.size() ? names_[id] : std::string();
}

void CorrelationMap::remember(std::uint32_t correlation, LaunchContext context) {
    const std::lock_guard guard(lock_);
    map_[correlation] = context;
    count_.store(map_.size(), std::memory_order_relaxed);
}

LaunchContext CorrelationMap::find(std::uint32_t correlation) const {
    const std::lock_guard guard(lock_);
    const auto it = map_.find(correlation);
    return it == map_.end() ? LaunchContext{} : it->second;
}

std::size_t CorrelationMap::forget_before(std::uint32_t id) {
    const std::lock_guard guard(lock_);
    const std::size_t before = map_.size();
    std::erase_if(map_, [id](const auto& entry) { return entry.first < id; });
    count_.store(map_.size(), std::memory_order_relaxed);
    return before - map_.size();
}

std::size_t CorrelationMap::size() const {
    const std::lock_guard guard(lock_);
    return map_.size();
}

}  // namespace gpuchrono::run
