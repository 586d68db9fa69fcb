// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "policies/kernel/idle_gap.hpp"

#include "policies/kernel/stream_bounds.hpp"

#include <algorithm>

namespace gpuchrono::idle_gap {

IdleGap idle_gap(const KernelActivity& first, std::initializer_list<std::span<const KernelActivity>> held, Prior prior,
                 std::uint64_t recording_since_ns) {
    IdleGap g;
    g.device = first.device;
    g.stream = first.stream;
    g.first_name = first.name;
    g.first_start_ns = first.start_ns;
    g.recording_since_ns = recording_since_ns;
    const std::uint64_t t = first.start_ns;
    const KernelActivity* last = nullptr;  // the latest-ending work among those held
    std::uint64_t mark_end = prior.mark_end_ns;
    std::uint64_t stream_end = prior.stream_work_end_ns;
    for (std::span<const KernelActivity> records : held)
        for (const KernelActivity& r : records) {
            // Work that began at or after the first activity (the scope's own among it) is not before it; work that
            // began before it and was still running counts, and makes the gap 0.
            if (r.device != first.device || r.start_ns >= t) continue;
            if (stream_mode::is_stream_mark(r)) {
                mark_end = std::max(mark_end, r.end_ns);
                continue;
            }
            if (r.stream == first.stream) stream_end = std::max(stream_end, r.end_ns);
            if (!last || r.end_ns > last->end_ns) last = &r;
        }
    g.last_work_end_ns = prior.work_end_ns;
    if (last && last->end_ns >= prior.work_end_ns) {
        g.last_work_end_ns = last->end_ns;
        g.last_work_name = last->name;
        g.last_work_stream = last->stream;
    }
    if (g.last_work_end_ns == 0 || g.last_work_end_ns < recording_since_ns) {
        // Nothing recorded since the records began (or only before they began again): what ran is not known.
        g.known = false;
        g.gap_ns = t > recording_since_ns ? t - recording_since_ns : 0;
    } else {
        g.gap_ns = t > g.last_work_end_ns ? t - g.last_work_end_ns : 0;
    }
    if (mark_end > 0) g.mark_gap_ns = t > mark_end ? t - mark_end : 0;
    if (stream_end == 0 || stream_end < recording_since_ns) {
        g.stream_known = false;
        g.stream_gap_ns = t > recording_since_ns ? t - recording_since_ns : 0;
    } else {
        g.stream_gap_ns = t > stream_end ? t - stream_end : 0;
    }
    return g;
}

}  // namespace gpuchrono::idle_gap
