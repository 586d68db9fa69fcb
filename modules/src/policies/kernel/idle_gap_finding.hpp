// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpu-idle-before: a KernelPolicy reading whose first activity started after its device had run none of the
// process's work for at least idle_gap_threshold_ns, or its stream for stream_idle_threshold_ns (idle_gap.hpp
// measures both gaps). Pure, so CPU tests can feed
// it any gap.
#pragma once

#include <gpuchrono/core/finding.hpp>
#include "policies/kernel/idle_gap.hpp"

#include <cstdint>
#include <optional>

namespace gpuchrono::idle_gap {

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
