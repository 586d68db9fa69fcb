// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "policies/kernel/stream_bounds.hpp"

#include "stream_marker.hpp"

#include "policies/kernel/batch_segments.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace gpuchrono::stream_mode {

bool is_stream_mark(const KernelActivity& r) noexcept {
    return detail::is_stream_marker_record(r);
}

std::optional<KernelActivity> find_mark(std::span<const KernelActivity> records, int device, std::uint32_t stream,
                                        std::uint32_t token, bool stop, std::uint64_t not_before_ns) {
    const KernelActivity* best = nullptr;
    for (const KernelActivity& r : records) {
        if (!is_stream_mark(r) || r.device != device || (stream != stream_from_mark && r.stream != stream)) continue;
        if (r.block[0] != token || r.block[1] != (stop ? 2u : 1u) || r.start_ns < not_before_ns) continue;
        if (r.block[2] == batch_mark_z) continue;  // a batch's mark (batch_segments.hpp), whatever its token
        if (!best || r.start_ns < best->start_ns) best = &r;
    }
    if (!best) return std::nullopt;
    return *best;
}

BoundedWork split_by_marks(std::span<const KernelActivity> records, const KernelActivity& start_mark,
                           const KernelActivity& stop_mark) {
    const std::uint64_t lo = start_mark.end_ns, hi = stop_mark.start_ns;
    const std::uint32_t c0 = start_mark.correlation_id, c1 = stop_mark.correlation_id;
    const auto between_calls = [&](const KernelActivity& r) { return r.correlation_id > c0 && r.correlation_id < c1; };
    const auto between_marks = [&](const KernelActivity& r) { return r.start_ns >= lo && r.end_ns <= hi; };
    const auto on_stream = [&](const KernelActivity& r) {
        return r.device == start_mark.device && r.stream == start_mark.stream;
    };

    // Launch calls whose work ran (at least partly) on the scope's stream between the marks: by time, or by the
    // order of the calls, which the stream keeps. The order decides where the stamps cannot: a 2 us kernel ends as
    // the stop mark is enqueued, and their stamps can meet out of order (an H100 refused such a kernel as no work).
    std::set<std::uint32_t> own;
    // Graph launches made between the marks' calls: counted if every node ran between the marks.
    std::map<std::uint32_t, bool> graph_inside;
    for (const KernelActivity& r : records) {
        if (is_stream_mark(r)) continue;
        if (on_stream(r) && (between_marks(r) || between_calls(r))) own.insert(r.correlation_id);
        if (r.graph_id != 0 && between_calls(r)) {
            auto [it, fresh] = graph_inside.emplace(r.correlation_id, true);
            it->second = it->second && between_marks(r) && r.device == start_mark.device;
        }
    }
    for (const auto& [correlation, inside] : graph_inside)
        if (inside) own.insert(correlation);

    BoundedWork out;
    for (const KernelActivity& r : records) {
        if (is_stream_mark(r)) continue;
        if (own.count(r.correlation_id) && (!on_stream(r) || between_marks(r) || between_calls(r)))
            out.counted.push_back(r);
        else if (between_calls(r))
            out.elsewhere.push_back(r);
        else
            out.others.push_back(r);
    }
    std::sort(out.counted.begin(), out.counted.end(), [](const KernelActivity& a, const KernelActivity& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.correlation_id < b.correlation_id;
    });
    return out;
}

}  // namespace gpuchrono::stream_mode
