// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cupti/activity_intervals.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace gpuchrono {

const char* to_string(ActivityKind k) noexcept {
    switch (k) {
        case ActivityKind::kernel: return "kernel";
        case ActivityKind::memcpy: return "memcpy";
        case ActivityKind::memset: return "memset";
    }
    return "unknown";
}

namespace cupti {

namespace {

using Interval = std::pair<std::uint64_t, std::uint64_t>;

// Sorted, disjoint intervals covering the records' [start, end).
std::vector<Interval> merged(std::span<const KernelActivity> records) {
    std::vector<Interval> all;
    all.reserve(records.size());
    for (const KernelActivity& r : records)
        if (r.end_ns > r.start_ns) all.emplace_back(r.start_ns, r.end_ns);
    std::sort(all.begin(), all.end());
    std::vector<Interval> out;
    for (const Interval& i : all) {
        if (!out.empty() && i.first <= out.back().second)
            out.back().second = std::max(out.back().second, i.second);
        else
            out.push_back(i);
    }
    return out;
}

std::uint64_t shared_ns(const std::vector<Interval>& busy, std::uint64_t start, std::uint64_t end) {
    std::uint64_t total = 0;
    for (const Interval& i : busy) {
        if (i.first >= end) break;
        const std::uint64_t lo = std::max(i.first, start), hi = std::min(i.second, end);
        if (hi > lo) total += hi - lo;
    }
    return total;
}

}  // namespace

std::uint64_t busy_ns(std::span<const KernelActivity> records) {
    std::uint64_t total = 0;
    for (const Interval& i : merged(records)) total += i.second - i.first;
    return total;
}

std::uint64_t span_ns(std::span<const KernelActivity> records) {
    if (records.empty()) return 0;
    std::uint64_t first = records.front().start_ns, last = records.front().end_ns;
    for (const KernelActivity& r : records) {
        first = std::min(first, r.start_ns);
        last = std::max(last, r.end_ns);
    }
    return last > first ? last - first : 0;
}

Attribution attribute(std::vector<KernelActivity> launched, const ScopeFilter& filter) {
    std::sort(launched.begin(), launched.end(), [](const KernelActivity& a, const KernelActivity& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.correlation_id < b.correlation_id;
    });
    Attribution out;
    for (KernelActivity& r : launched) {
        const bool other_device = filter.device >= 0 && r.device != filter.device;
        if (filter.stream_only && (r.stream != filter.stream || other_device)) {
            out.elsewhere.push_back(std::move(r));
            continue;
        }
        if (other_device) out.elsewhere.push_back(r);
        out.counted.push_back(std::move(r));
    }
    return out;
}

namespace {

std::uint64_t grid_blocks(const KernelActivity& r) {
    if (r.kind != ActivityKind::kernel) return 0;
    return std::uint64_t{r.grid[0]} * std::uint64_t{r.grid[1]} * std::uint64_t{r.grid[2]};
}

}  // namespace

bool fits_beside(std::span<const KernelActivity> counted, std::span<const Overlap> overlaps, int sm_count) {
    if (sm_count <= 0) return false;
    std::uint64_t blocks = 0, beside = 0;
    for (const KernelActivity& r : counted) blocks += grid_blocks(r);
    for (const Overlap& o : overlaps) {
        if (o.kind != ActivityKind::kernel || o.blocks == 0) return false;
        beside += o.blocks;
    }
    const auto sms = static_cast<std::uint64_t>(sm_count);
    return blocks + beside <= sms && beside <= std::max<std::uint64_t>(1, sms / most_sms_beside);
}

std::vector<Overlap> overlapping_work(std::span<const KernelActivity> counted, std::span<const KernelActivity> others) {
    std::set<std::uint32_t> own;
    std::map<int, std::vector<KernelActivity>> by_device;
    for (const KernelActivity& r : counted) {
        own.insert(r.correlation_id);
        by_device[r.device].push_back(r);
    }
    std::map<int, std::vector<Interval>> busy;
    for (auto& [device, records] : by_device) busy[device] = merged(records);
    std::vector<Overlap> out;
    for (const KernelActivity& r : others) {
        if (own.count(r.correlation_id)) continue;
        auto it = busy.find(r.device);
        if (it == busy.end()) continue;
        if (const std::uint64_t shared = shared_ns(it->second, r.start_ns, r.end_ns); shared > 0)
            out.push_back(Overlap{r.name, r.device, r.stream, shared, r.correlation_id, r.kind, grid_blocks(r)});
    }
    std::sort(out.begin(), out.end(), [](const Overlap& a, const Overlap& b) {
        return a.overlap_ns != b.overlap_ns ? a.overlap_ns > b.overlap_ns : a.correlation_id < b.correlation_id;
    });
    return out;
}

namespace {

// The total length of the intersection of two sorted, disjoint interval lists.
std::uint64_t intersection_ns(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::uint64_t total = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        const std::uint64_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
        if (hi > lo) total += hi - lo;
        (a[i].second < b[j].second ? i : j) += 1;
    }
    return total;
}

}  // namespace

std::uint64_t overlapped_ns(std::span<const KernelActivity> counted, std::span<const KernelActivity> others) {
    std::set<std::uint32_t> own;
    std::map<int, std::vector<KernelActivity>> mine, theirs;
    for (const KernelActivity& r : counted) {
        own.insert(r.correlation_id);
        mine[r.device].push_back(r);
    }
    for (const KernelActivity& r : others)
        if (!own.count(r.correlation_id) && mine.count(r.device)) theirs[r.device].push_back(r);
    std::uint64_t total = 0;
    for (const auto& [device, records] : theirs) total += intersection_ns(merged(mine[device]), merged(records));
    return total;
}

bool WorkBeside::may_stretch() const noexcept {
    return !overlaps.empty() && !fits && overlapped_ns >= stretch_floor_ns &&
           static_cast<double>(overlapped_ns) >= stretch_floor_share * static_cast<double>(busy_ns);
}

bool wide_work(std::span<const KernelActivity> counted, int sm_count) {
    std::uint64_t blocks = 0;
    for (const KernelActivity& r : counted) {
        if (r.kind != ActivityKind::kernel) return true;
        blocks += grid_blocks(r);
    }
    return sm_count > 0 && blocks > std::max<std::uint64_t>(1, static_cast<std::uint64_t>(sm_count) / most_sms_beside);
}

WorkBeside work_beside(std::span<const KernelActivity> counted, std::span<const KernelActivity> others, int sm_count) {
    WorkBeside w;
    w.overlaps = overlapping_work(counted, others);
    if (w.overlaps.empty()) return w;
    w.overlapped_ns = overlapped_ns(counted, others);
    w.busy_ns = busy_ns(counted);
    w.fits = fits_beside(counted, w.overlaps, sm_count);
    w.scope_wide = wide_work(counted, sm_count);
    return w;
}

std::string describe_activities(std::span<const KernelActivity> records, std::size_t limit) {
    // Grouped by (name, device, stream) in order of first appearance.
    struct Group {
        std::string name;
        int device;
        std::uint32_t stream;
        std::size_t count;
    };
    std::vector<Group> groups;
    for (const KernelActivity& r : records) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
            return g.name == r.name && g.device == r.device && g.stream == r.stream;
        });
        if (it == groups.end())
            groups.push_back(Group{r.name, r.device, r.stream, 1});
        else
            ++it->count;
    }
    std::string out;
    for (std::size_t i = 0; i < groups.size() && i < limit; ++i) {
        if (i) out += ", ";
        out += groups[i].name + " x" + std::to_string(groups[i].count) + " (device " + std::to_string(groups[i].device) +
               ", stream " + std::to_string(groups[i].stream) + ")";
    }
    if (groups.size() > limit) out += " and " + std::to_string(groups.size() - limit) + " more";
    return out;
}

}  // namespace cupti
}  // namespace gpuchrono
