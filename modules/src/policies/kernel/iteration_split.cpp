// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "policies/kernel/iteration_split.hpp"

#include "cupti/activity_intervals.hpp"
#include "policies/kernel/stream_bounds.hpp"

#include <algorithm>
#include <unordered_map>

namespace gpuchrono::iteration_split {

Split split_iterations(std::span<const KernelActivity> records, std::span<const std::uint32_t> calls,
                       std::span<const std::size_t> ends, std::optional<TimedStream> stream) {
    const std::size_t n = ends.size();
    Split out;
    out.busy_ns.assign(n, 0);
    out.counted.assign(n, 0);
    out.elsewhere.assign(n, {});
    // The iteration of each of the thread's own calls.
    std::unordered_map<std::uint32_t, std::size_t> own;
    own.reserve(calls.size());
    for (std::size_t i = 0, c = 0; i < n; ++i)
        for (; c < std::min(ends[i], calls.size()); ++c) own.emplace(calls[c], i);
    // Stream mode: the last id of each iteration's range (the largest id of its calls and of all calls before);
    // an iteration without calls of its own has an empty range.
    const std::uint32_t first_id = calls.empty() ? 0 : *std::min_element(calls.begin(), calls.end());
    std::vector<std::uint32_t> range_end(n, 0);
    std::uint32_t floor = first_id == 0 ? 0 : first_id - 1;
    for (std::size_t i = 0, c = 0; i < n; ++i) {
        for (; c < std::min(ends[i], calls.size()); ++c) floor = std::max(floor, calls[c]);
        range_end[i] = floor;
    }
    // The iteration whose range holds `id`: the first whose range ends at or after it.
    const auto in_range = [&](std::uint32_t id) -> std::optional<std::size_t> {
        if (calls.empty() || id < first_id) return std::nullopt;
        const auto it = std::lower_bound(range_end.begin(), range_end.end(), id);
        if (it == range_end.end()) return std::nullopt;
        return static_cast<std::size_t>(it - range_end.begin());
    };

    std::vector<std::vector<KernelActivity>> counted(n);
    for (const KernelActivity& r : records) {
        if (stream_mode::is_stream_mark(r)) continue;
        const auto mine = own.find(r.correlation_id);
        if (!stream) {
            if (mine != own.end()) counted[mine->second].push_back(r);
            continue;
        }
        const bool on_stream = r.device == stream->device && r.stream == stream->stream;
        if (on_stream) {
            if (const std::optional<std::size_t> i = in_range(r.correlation_id)) counted[*i].push_back(r);
        } else if (mine != own.end()) {
            // A graph the iteration launched runs its kernels on streams of the graph's own.
            if (r.graph_id != 0)
                counted[mine->second].push_back(r);
            else
                out.elsewhere[mine->second].push_back(r);
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        out.busy_ns[i] = cupti::busy_ns(counted[i]);
        out.counted[i] = counted[i].size();
    }
    out.unrecorded.assign(n, 0);
    return out;
}

void note_unrecorded(Split& split, std::span<const std::uint32_t> calls, std::span<const std::size_t> ends,
                     std::span<const std::uint32_t> expected, const std::unordered_set<std::uint32_t>& recorded) {
    split.unrecorded.assign(ends.size(), 0);
    std::unordered_map<std::uint32_t, std::size_t> own;
    own.reserve(calls.size());
    for (std::size_t i = 0, c = 0; i < ends.size(); ++i)
        for (; c < std::min(ends[i], calls.size()); ++c) own.emplace(calls[c], i);
    for (const std::uint32_t id : expected) {
        if (recorded.count(id)) continue;
        if (const auto mine = own.find(id); mine != own.end()) ++split.unrecorded[mine->second];
    }
}

Split timed_only(Split all, std::span<const std::uint8_t> untimed) {
    const std::size_t n = all.busy_ns.size();
    all.unrecorded.resize(n, 0);
    Split kept;
    for (std::size_t i = 0; i < n; ++i) {
        if (i < untimed.size() && untimed[i] != 0) continue;
        kept.busy_ns.push_back(all.busy_ns[i]);
        kept.counted.push_back(all.counted[i]);
        kept.elsewhere.push_back(std::move(all.elsewhere[i]));
        kept.unrecorded.push_back(all.unrecorded[i]);
    }
    return kept;
}

}  // namespace gpuchrono::iteration_split
