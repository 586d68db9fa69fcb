// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Clock anchors: the readings that put one process's timestamps on a job-wide timeline.
//
// A process timestamps with three clocks: the host's steady clock (scopes, HostClockPolicy; CLOCK_MONOTONIC on
// Linux, which does not jump but whose origin is the boot of that host), the system clock (CLOCK_REALTIME:
// shared by the processes of one host, and across hosts as well as NTP/PTP keeps them), and CUPTI's timestamps
// (KernelPolicy's activities; cuptiGetTimestamp reads the same clock). An anchor reads all of them as close
// together as possible; two anchors (start and end of the run) give both the offset and the rate between
// them, so a clock that drifts against another is corrected linearly, not by one subtraction.
//
// Between hosts the steady clocks share nothing. The offset to a reference rank's steady clock is measured by
// ping-pong (mpi_clock_offsets.hpp when MPI is found, or by any means a job has): ReferenceOffset holds one
// estimate with its error bound (half the round trip of the best exchange).
#pragma once

#include <cstdint>
#include <optional>

namespace gpuchrono::distributed {

struct ClockAnchor {
    std::int64_t steady_ns = 0;   // std::chrono::steady_clock, ns since its epoch
    std::int64_t system_ns = 0;   // std::chrono::system_clock, ns since 1970 (UTC)
    std::int64_t read_width_ns = 0;  // the steady time that reading the other clocks took: the pair's uncertainty
    std::optional<std::int64_t> cupti_ns;  // cuptiGetTimestamp, when CUPTI was loaded

    friend bool operator==(const ClockAnchor&, const ClockAnchor&) = default;
};

// Reads steady, system and (with_cupti, when the CUPTI library loads) the CUPTI clock. Never throws for CUPTI
// being absent: cupti_ns stays empty then.
ClockAnchor take_clock_anchor(bool with_cupti = false);

// The offset from this process's steady clock to the reference rank's: reference = local + offset_ns, measured
// at local steady time at_steady_ns, true to within +- error_ns.
struct ReferenceOffset {
    std::int64_t at_steady_ns = 0;
    std::int64_t offset_ns = 0;
    std::int64_t error_ns = 0;
    int reference_rank = 0;

    friend bool operator==(const ReferenceOffset&, const ReferenceOffset&) = default;
};

// A linear map between two clocks, y = y0 + (x - x0) * rate, fitted through two (x, y) pairs (one pair: rate 1).
struct LinearClockMap {
    std::int64_t x0 = 0;
    std::int64_t y0 = 0;
    double rate = 1.0;
    double error_ns = 0;  // the uncertainty of a mapped time, from the pairs' own

    std::int64_t operator()(std::int64_t x) const noexcept;
};

}  // namespace gpuchrono::distributed
