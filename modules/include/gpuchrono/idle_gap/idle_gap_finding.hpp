// gpu-idle-before: a KernelPolicy reading whose first activity started after its device had run none of the
// process's work for at least idle_gap_threshold_ns, or its stream for stream_idle_threshold_ns (idle_gap.hpp
// measures both gaps). Pure, so CPU tests can feed
// it any gap.
#pragma once

#include <gpuchrono/checks/finding.hpp>
#include <gpuchrono/idle_gap/idle_gap.hpp>

#include <cstdint>
#include <optional>

namespace gpuchrono::idle_gap {

// 100 us. On the H100 (issue 27, bench/kernel_policy [10]) the readings stretched 0.6-1.7 us with nothing beside
// them came after their stream had been idle 160-370 us, while eager scopes one after another on an otherwise idle
// GPU (each stop waits for the work and flushes CUPTI, 31-56 us, before the next launch: gaps of roughly 50-80 us)
// read the steady median. A threshold between the two: above what back-to-back eager scopes leave, below the
// idle time seen before a stretched kernel. bench/kernel_policy [10] prints how the readings on either side fared.
inline constexpr std::uint64_t idle_gap_threshold_ns = 100'000;

// 150 us, for the first activity's own stream. On the H100 run of 2026-11-25 ([10], 4 threads) the device
// criterion above left 19 of 21 stretched readings of one run unflagged: their streams had been idle 200-860 us,
// the device only 21-86 us (the other threads' work). Back-to-back eager scopes on one stream leave it idle 69 us
// (p95 109 us): the threshold sits above those and below the stretched readings' stream gaps.
inline constexpr std::uint64_t stream_idle_threshold_ns = 150'000;

// The finding, when the device's gap is at least idle_gap_threshold_ns or the stream's at least
// stream_idle_threshold_ns (a device gap known only as a lower bound counts when that bound is; an unknown stream
// gap does not). `dropped_records`: CUPTI's drops in the process so far (a dropped record of earlier work would
// make the gap look longer; the message says so).
std::optional<Finding> idle_before_finding(const IdleGap& gap, std::uint64_t dropped_records = 0);

}  // namespace gpuchrono::idle_gap
