// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "policies/kernel/batch_segments.hpp"

#include "cupti/activity_intervals.hpp"
#include "policies/kernel/stream_bounds.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace gpuchrono::stream_mode {

bool is_batch_mark(const KernelActivity& r, std::uint32_t token) noexcept {
    return is_stream_mark(r) && r.block[0] == token && r.block[1] == 1 && r.block[2] == batch_mark_z;
}

std::vector<KernelActivity> batch_marks(std::span<const KernelActivity> records, std::uint32_t token, int device,
                                        std::uint32_t stream, std::uint64_t not_before_ns) {
    std::vector<KernelActivity> out;
    for (const KernelActivity& r : records)
        if (is_batch_mark(r, token) && r.device == device && (stream == stream_from_mark || r.stream == stream) &&
            r.start_ns >= not_before_ns)
            out.push_back(r);
    std::sort(out.begin(), out.end(), [](const KernelActivity& a, const KernelActivity& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.correlation_id < b.correlation_id;
    });
    // The legacy default stream's id is learnt from the first mark (stream_bounds.hpp).
    if (stream == stream_from_mark && !out.empty())
        std::erase_if(out, [s = out.front().stream](const KernelActivity& r) { return r.stream != s; });
    return out;
}

BatchSamples split_batch(std::span<const KernelActivity> records, std::uint32_t token, int device, std::uint32_t stream,
                         std::uint64_t not_before_ns, std::size_t marks_placed, std::span<const std::uint32_t> opens) {
    BatchSamples out;
    out.busy_ns.assign(opens.size(), 0);
    out.records.assign(opens.size(), 0);
    const std::vector<KernelActivity> marks = batch_marks(records, token, device, stream, not_before_ns);
    if (marks.size() != marks_placed) {
        out.problem = marks.size() < marks_placed
                          ? std::to_string(marks_placed - marks.size()) + " of the " + std::to_string(marks_placed) +
                                " marks the batch placed on its stream had no activity record"
                          : std::to_string(marks.size()) + " marks with the batch's token were found on its stream, " +
                                std::to_string(marks_placed) + " placed";
        return out;
    }
    const std::size_t n = marks.size();
    // One thread placed the marks, in order: their calls' correlation ids grow with their starts. Anything else
    // means the records found are not the batch's marks.
    for (std::size_t k = 1; k < n; ++k)
        if (marks[k].correlation_id <= marks[k - 1].correlation_id) {
            out.problem = "the batch's marks on its stream ran out of the order they were placed in";
            return out;
        }
    std::vector<int> sample_of(n, -1);  // by opening mark
    for (std::size_t i = 0; i < opens.size(); ++i) {
        if (opens[i] + 1 >= n) {
            out.problem = "a sample opens at mark " + std::to_string(opens[i]) + " of " + std::to_string(n) +
                          ", with no mark after it to close it";
            return out;
        }
        sample_of[opens[i]] = static_cast<int>(i);
    }

    const int dev = marks.front().device;
    const std::uint32_t on_stream_id = marks.front().stream;
    const auto on_stream = [&](const KernelActivity& r) { return r.device == dev && r.stream == on_stream_id; };
    const auto inside = [&](const KernelActivity& r, std::size_t k) {
        return r.start_ns >= marks[k].end_ns && r.end_ns <= marks[k + 1].start_ns;
    };
    // The segment (index of its opening mark) whose marks bound the record in time.
    const auto segment_in_time = [&](const KernelActivity& r) -> std::optional<std::size_t> {
        const auto after = std::upper_bound(marks.begin(), marks.end(), r.start_ns,
                                            [](std::uint64_t t, const KernelActivity& m) { return t < m.end_ns; });
        if (after == marks.begin()) return std::nullopt;
        const auto k = static_cast<std::size_t>(after - marks.begin()) - 1;
        if (k + 1 >= n || !inside(r, k)) return std::nullopt;
        return k;
    };
    // The segment between whose marks' calls the record's launch call came.
    const auto segment_in_calls = [&](std::uint32_t correlation) -> std::optional<std::size_t> {
        const auto after = std::lower_bound(marks.begin(), marks.end(), correlation,
                                            [](const KernelActivity& m, std::uint32_t c) { return m.correlation_id < c; });
        if (after == marks.begin() || after == marks.end() || after->correlation_id == correlation) return std::nullopt;
        return static_cast<std::size_t>(after - marks.begin()) - 1;
    };

    // Launch calls whose work ran (at least partly) on the stream within a segment, and graph launches made
    // between a segment's marks' calls, with whether every node ran within it.
    std::unordered_map<std::uint32_t, std::size_t> own;
    struct GraphLaunch {
        std::size_t segment;
        bool inside;
    };
    std::unordered_map<std::uint32_t, GraphLaunch> graphs;
    for (const KernelActivity& r : records) {
        if (is_stream_mark(r)) continue;
        // On the stream, by time or else by the order of the calls, which the stream keeps: a short kernel ends as
        // the next mark is enqueued, and their stamps can meet out of order.
        if (on_stream(r)) {
            std::optional<std::size_t> k = segment_in_time(r);
            if (!k && r.graph_id == 0) k = segment_in_calls(r.correlation_id);
            if (k) own.emplace(r.correlation_id, *k);
        }
        if (r.graph_id != 0)
            if (const std::optional<std::size_t> k = segment_in_calls(r.correlation_id)) {
                auto [it, fresh] = graphs.emplace(r.correlation_id, GraphLaunch{*k, true});
                it->second.inside = it->second.inside && r.device == dev && inside(r, *k);
            }
    }
    for (const auto& [correlation, g] : graphs)
        if (g.inside) own.emplace(correlation, g.segment);

    std::vector<std::vector<KernelActivity>> counted(opens.size());
    for (const KernelActivity& r : records) {
        if (is_stream_mark(r)) continue;
        const auto it = own.find(r.correlation_id);
        if (it == own.end() || sample_of[it->second] < 0) continue;
        if (on_stream(r) && !inside(r, it->second) && segment_in_calls(r.correlation_id) != it->second) continue;
        counted[static_cast<std::size_t>(sample_of[it->second])].push_back(r);
    }
    for (std::size_t i = 0; i < opens.size(); ++i) {
        out.busy_ns[i] = cupti::busy_ns(counted[i]);
        out.records[i] = counted[i].size();
    }
    return out;
}

}  // namespace gpuchrono::stream_mode
