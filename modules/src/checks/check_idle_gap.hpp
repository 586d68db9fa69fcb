// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpu-idle-before: a KernelPolicy reading whose first activity started after its device had run none of the
// process's work for at least idle_gap_threshold_ns, or its stream for stream_idle_threshold_ns. The policy
// measures both gaps (policies/kernel/idle_gap.hpp) into an IdleGap; this decides. Pure, so CPU tests can feed it
// any gap.
#pragma once

#include <gpuchrono/core/finding.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gpuchrono::idle_gap {

// What KernelPolicy observed before a scope's first activity: how long its device and its stream had been idle
// (policies/kernel/idle_gap.hpp measures it).
struct IdleGap {
    int device = -1;
    std::uint32_t stream = 0;       // the first activity's (CUPTI stream id)
    std::string first_name;         // the first activity's name
    std::uint64_t first_start_ns = 0;
    // The latest end of work on the device that started before the first activity (stream marks left out);
    // 0: none recorded. Named when its record was among those the scope held (not for an older one).
    std::uint64_t last_work_end_ns = 0;
    std::optional<std::string> last_work_name;
    std::optional<std::uint32_t> last_work_stream;
    // The idle time before the first activity: first start - last work end (0 when that work was still running).
    // Without work recorded on the device since CUPTI's records began (`recording_since_ns`), the time since then:
    // a lower bound (`known` false: idle, or busy with work that ran before the records began).
    std::uint64_t gap_ns = 0;
    bool known = true;
    std::uint64_t recording_since_ns = 0;
    // The same for the library's stream marks (any scope's): none if no mark was recorded on the device before.
    std::optional<std::uint64_t> mark_gap_ns;
    // The idle time of the first activity's own stream (its work, marks left out), as gap_ns is the device's;
    // `stream_known` false: no work recorded on the stream since the records began (the time since then).
    // On the H100 the readings stretched with nothing beside them followed 200-860 us of idle on their stream
    // while other threads' streams kept the device busy until 21-86 us before (bench_stretched_readings [10],
    // 2026-11-25): the stream's gap is what tells them.
    std::uint64_t stream_gap_ns = 0;
    bool stream_known = true;
};

// 100 us. On the H100 (bench_stretched_readings [10]) the readings stretched 0.6-1.7 us with nothing beside
// them came after their stream had been idle 160-370 us, while eager scopes one after another on an otherwise idle
// GPU (each stop waits for the work and flushes CUPTI, 31-56 us, before the next launch: gaps of roughly 50-80 us)
// read the steady median. A threshold between the two: above what back-to-back eager scopes leave, below the
// idle time seen before a stretched kernel. bench_stretched_readings [10] prints how the readings on either side fared.
inline constexpr std::uint64_t idle_gap_threshold_ns = 100'000;

// 80 us, for the first activity's own stream: the gap that tells. On the H100 ([10], 4 threads x 200 x 5, 12 processes,
// 2026-11-26: 48,000 readings) none of the 399 readings whose stream had been idle under 90 us was stretched; from
// 90 us on, 3-8% were (0.5-1.2 us), whatever the device's gap (4-121 us before them: the other threads' work does
// not keep a stream's next kernel from being slow). The smallest stream gap before a stretched reading was 100 us
// there and 90 us in an earlier run; 150 us, the first choice, left 11 of 167 such readings unflagged. Below this,
// back-to-back eager scopes on one stream (each stop waits and flushes: 58-65 us, p95 74-82 us) mostly stay clean;
// the device's own threshold (above) still counts where the stream's gap is unknown. The finding fires on readings
// that are not stretched too (info: what the GPU was doing, not that the reading is off).
inline constexpr std::uint64_t stream_idle_threshold_ns = 80'000;

// The finding, when the device's gap is at least idle_gap_threshold_ns or the stream's at least
// stream_idle_threshold_ns (a device gap known only as a lower bound counts when that bound is; an unknown stream
// gap does not). `dropped_records`: CUPTI's drops in the process so far (a dropped record of earlier work would
// make the gap look longer; the message says so).
std::optional<Finding> idle_before_finding(const IdleGap& gap, std::uint64_t dropped_records = 0);

}  // namespace gpuchrono::idle_gap
