// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/distributed/straggler_analysis.hpp>

#include "core/intervals.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace gpuchrono::distributed {

namespace {

// Median of values; the mean of the two middle ones for an even count (integer ns, rounded down).
std::int64_t median(std::vector<std::int64_t> v) {
    if (v.empty()) return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    if (v.size() % 2 == 1) return v[mid];
    const std::int64_t upper = v[mid];
    const std::int64_t lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return lower + (upper - lower) / 2;
}

using gpuchrono::detail::intersection_length;
using gpuchrono::detail::Interval;
using gpuchrono::detail::length;
using gpuchrono::detail::union_of;

}  // namespace

ScopeStragglers analyse_stragglers(std::string name, const std::vector<RankScopes>& ranks, std::int64_t tie_ns) {
    ScopeStragglers out;
    out.name = std::move(name);
    std::size_t steps = std::numeric_limits<std::size_t>::max();
    std::vector<const RankScopes*> used;
    std::string absent;
    for (const RankScopes& r : ranks) {
        if (r.end_ns.empty()) {
            absent += (absent.empty() ? "" : ", ") + std::to_string(r.rank);
            continue;
        }
        used.push_back(&r);
        steps = std::min(steps, r.end_ns.size());
    }
    if (!absent.empty()) out.note = "ranks without a pass of \"" + out.name + "\", left out: " + absent + ". ";
    if (used.empty()) return out;
    for (const RankScopes* r : used)
        if (r->end_ns.size() != steps) {
            out.note += "ranks differ in their number of passes; steps compared: " + std::to_string(steps) +
                        " (the fewest, rank " + std::to_string(r->rank) + " has " + std::to_string(r->end_ns.size()) + "). ";
            break;
        }
    const std::size_t n = used.size();
    for (const RankScopes* r : used) out.ranks.push_back(r->rank);
    out.times_last.assign(n, 0);
    out.total_lateness_ns.assign(n, 0);
    for (std::size_t k = 0; k < steps; ++k) {
        StepLateness s;
        std::int64_t first_end = std::numeric_limits<std::int64_t>::max();
        std::size_t last = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t end = used[i]->end_ns[k];
            first_end = std::min(first_end, end);
            if (end > used[last]->end_ns[k]) last = i;
        }
        const std::int64_t last_end = used[last]->end_ns[k];
        s.last_rank = used[last]->rank;
        s.spread_ns = last_end - first_end;
        std::vector<std::int64_t> other_ends, other_durations;
        for (std::size_t i = 0; i < n; ++i) {
            const std::int64_t end = used[i]->end_ns[k];
            s.lateness_ns.push_back(end - first_end);
            if (i != last) {
                s.waited_ns += last_end - end;
                other_ends.push_back(end);
                other_durations.push_back(end - used[i]->start_ns[k]);
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<std::int64_t> others;
            for (std::size_t j = 0; j < n; ++j)
                if (j != i) others.push_back(used[j]->end_ns[k] - used[j]->start_ns[k]);
            s.excess_ns.push_back(used[i]->end_ns[k] - used[i]->start_ns[k] - median(others));
        }
        const bool gpu_known = std::all_of(used.begin(), used.end(), [&](const RankScopes* r) { return r->gpu_ns.size() > k; });
        if (gpu_known) {
            for (std::size_t i = 0; i < n; ++i) {
                std::vector<std::int64_t> others;
                for (std::size_t j = 0; j < n; ++j)
                    if (j != i) others.push_back(used[j]->gpu_ns[k]);
                s.gpu_excess_ns.push_back(used[i]->gpu_ns[k] - median(others));
            }
            s.last_gpu_excess_ns = s.gpu_excess_ns[last];
        }
        s.last_lateness_ns = n > 1 ? last_end - median(other_ends) : 0;
        s.last_excess_ns = n > 1 ? (last_end - used[last]->start_ns[k]) - median(other_durations) : 0;
        if (n > 1 && s.spread_ns > tie_ns) ++out.times_last[last];
        for (std::size_t i = 0; i < n; ++i) out.total_lateness_ns[i] += s.lateness_ns[i];
        out.steps.push_back(std::move(s));
    }
    return out;
}

std::string nccl_collective_of(const std::string& kernel) {
    // NCCL 2.19+: ncclDevKernel_AllReduce_Sum_f32_RING_LL(...); older: ncclKernel_AllReduce_RING_LL_Sum_float(...).
    // Demangled names may carry a "void " prefix.
    std::size_t at = kernel.find("ncclDevKernel_");
    std::size_t skip = 14;
    if (at == std::string::npos) {
        at = kernel.find("ncclKernel_");
        skip = 11;
    }
    if (at == std::string::npos) return {};
    const std::string rest = kernel.substr(at + skip);
    static constexpr std::array<const char*, 7> names{"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "SendRecv", "AllToAll"};
    for (const char* n : names)
        if (rest.rfind(n, 0) == 0) return n;
    return "other";
}

std::vector<CollectiveSplit> split_collectives(const std::vector<int>& ranks,
                                               const std::vector<std::vector<CollectiveKernel>>& kernels) {
    // by collective name, then by rank index: that rank's kernels of it in start order
    std::map<std::string, std::vector<std::vector<const CollectiveKernel*>>> calls;
    for (std::size_t i = 0; i < kernels.size(); ++i)
        for (const CollectiveKernel& k : kernels[i]) {
            auto& per_rank = calls[k.collective];
            per_rank.resize(kernels.size());
            per_rank[i].push_back(&k);
        }
    std::vector<CollectiveSplit> out;
    for (auto& [name, per_rank] : calls) {
        CollectiveSplit split;
        split.collective = name;
        split.ranks = ranks;
        std::size_t count = std::numeric_limits<std::size_t>::max();
        for (auto& v : per_rank) {
            std::sort(v.begin(), v.end(), [](const auto* a, const auto* b) { return a->start_ns < b->start_ns; });
            count = std::min(count, v.size());
        }
        split.calls = count;
        split.wait_ns.assign(ranks.size(), 0);
        split.transfer_ns.assign(ranks.size(), 0);
        for (std::size_t c = 0; c < count; ++c) {
            std::int64_t last_start = std::numeric_limits<std::int64_t>::min();
            for (const auto& v : per_rank) last_start = std::max(last_start, v[c]->start_ns);
            for (std::size_t i = 0; i < per_rank.size(); ++i) {
                split.wait_ns[i] += last_start - per_rank[i][c]->start_ns;
                split.transfer_ns[i] += std::max<std::int64_t>(0, per_rank[i][c]->end_ns - last_start);
            }
        }
        out.push_back(std::move(split));
    }
    return out;
}

double Overlap::fraction() const noexcept {
    return communication_ns > 0 ? static_cast<double>(overlapped_ns) / static_cast<double>(communication_ns)
                                : std::numeric_limits<double>::quiet_NaN();
}

Overlap compute_communication_overlap(const std::vector<KernelActivity>& activities) {
    std::vector<Interval> comm, compute;
    for (const KernelActivity& a : activities) {
        if (a.kind != ActivityKind::kernel) continue;
        const Interval i{static_cast<std::int64_t>(a.start_ns), static_cast<std::int64_t>(a.end_ns)};
        (nccl_collective_of(a.name).empty() ? compute : comm).push_back(i);
    }
    const auto c = union_of(std::move(comm));
    const auto k = union_of(std::move(compute));
    return {length(c), length(k), intersection_length(c, k)};
}

}  // namespace gpuchrono::distributed
