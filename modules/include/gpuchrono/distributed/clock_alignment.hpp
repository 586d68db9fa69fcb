// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How a merge puts every rank on one timeline (the job clock), and how wrong it may be.
//
// Job clock: when every rank carries reference offsets (ping-pong to a reference rank), it is the reference
// rank's steady clock, and each rank's steady time maps through the line fitted to its first and last offset
// estimates: the offset AND the drift between the two clocks are corrected, the error is the estimates' own
// (half a round trip). Otherwise it is the system clock (CLOCK_REALTIME), reached from each rank's steady
// clock through the line between its first and last anchor: exact up to the anchors' read width for ranks of
// one host (they share the clock); across hosts it is as good as NTP/PTP keeps the hosts, which gpuchrono
// does not measure and says so.
//
// Holistic Trace Analysis, by contrast, shifts every rank's timestamps by one global minimum: whatever offset
// and drift the ranks' clocks have stays in the merged trace (test/distributed/merge_test.cpp shows both).
#pragma once

#include <gpuchrono/distributed/clock_anchor.hpp>
#include <gpuchrono/distributed/rank_section.hpp>

#include <optional>
#include <string>

namespace gpuchrono::distributed {

enum class JobClock { reference_steady, system };

const char* to_string(JobClock c) noexcept;

struct RankClockMaps {
    LinearClockMap steady_to_job;
    std::optional<LinearClockMap> cupti_to_steady;  // empty when the anchors hold no CUPTI readings
    std::string note;                               // how it was fitted, for the merged report
};

// The maps that put `rank` on `clock` (the merge uses reference_steady when every rank has reference offsets).
// Throws std::invalid_argument for a rank without anchors, or without reference offsets for reference_steady.
RankClockMaps clock_maps_for(const RankSection& rank, JobClock clock);

// Fits y = y0 + (x - x0) * rate through (x0, y0) and (x1, y1); the rate is 1 when x1 == x0.
LinearClockMap fit_clock_map(std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1, double error_ns);

}  // namespace gpuchrono::distributed
