// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/distributed/rank_section.hpp>

#include <algorithm>
#include <utility>

namespace gpuchrono::distributed {

ScopeLog::ScopeLog(bool with_cupti) : ScopeLog(identity_from_environment(), with_cupti) {}

bool names_device(const RankSection& section, int index) noexcept {
    return std::any_of(section.devices.begin(), section.devices.end(), [&](const DeviceIdentity& d) { return d.index == index; });
}

RankSection start_rank_section(RankIdentity identity, bool with_cupti) {
    validate(identity);
    RankSection section;
    section.identity = std::move(identity);
    section.anchors.push_back(take_clock_anchor(with_cupti));
    return section;
}

ScopeLog::ScopeLog(RankIdentity identity, bool with_cupti) : section_(start_rank_section(std::move(identity), with_cupti)), with_cupti_(with_cupti) {}

ScopeLog::Scope::Scope(ScopeLog& log, std::string name, int device, std::uint64_t bytes) : log_(log) {
    event_.name = std::move(name);
    event_.device = device;
    event_.bytes = bytes;
    event_.start_ns = steady_now_ns();
}

ScopeLog::Scope::~Scope() {
    event_.end_ns = steady_now_ns();
    log_.record(std::move(event_));
}

void ScopeLog::add_device(int index) {
    const std::lock_guard lock(mutex_);
    if (!names_device(section_, index)) section_.devices.push_back(describe_device_identity(index));
}

ScopeLog::Scope ScopeLog::scope(std::string name, int device, std::uint64_t bytes) {
    if (device >= 0) add_device(device);
    return Scope(*this, std::move(name), device, bytes);
}

void ScopeLog::record(ScopeEvent event) {
    const std::lock_guard lock(mutex_);
    section_.scopes.push_back(std::move(event));
}

void ScopeLog::add_reference_offset(const ReferenceOffset& offset) {
    const std::lock_guard lock(mutex_);
    section_.reference_offsets.push_back(offset);
}

RankSection ScopeLog::finish() {
    const std::lock_guard lock(mutex_);
    section_.anchors.push_back(take_clock_anchor(with_cupti_));
    return section_;
}

}  // namespace gpuchrono::distributed
