// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The arithmetic of KernelPolicy over activity records, kept free of CUPTI so CPU tests can drive it with
// made-up records: which records a scope counts, how long the GPU was busy with them, and which other work
// ran beside them.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/kernel_activity.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gpuchrono::cupti {

// The time covered by at least one of the records (overlapping and nested intervals count once).
std::uint64_t busy_ns(std::span<const KernelActivity> records);

// First start to last end; 0 without records.
std::uint64_t span_ns(std::span<const KernelActivity> records);

// Which launches of a scope's thread the scope counts: those on its stream, or all of them.
struct ScopeFilter {
    bool stream_only = true;
    std::uint32_t stream = 0;  // CUPTI stream id of the timed stream
    int device = -1;           // the timed stream's device
};

struct Attribution {
    std::vector<KernelActivity> counted;    // sorted by start
    std::vector<KernelActivity> elsewhere;  // launched by the scope but not counted: another stream (stream_only),
                                            // or counted work on another device than the timed stream's (listed
                                            // in both; the caller reports it)
};

// Splits the records launched by the scope (matched by correlation id beforehand) by the filter.
Attribution attribute(std::vector<KernelActivity> launched, const ScopeFilter& filter);

// Work of others that ran on a device at the same time as the scope's own work there.
struct Overlap {
    std::string name;
    int device = -1;
    std::uint32_t stream = 0;
    std::uint64_t overlap_ns = 0;  // time it shared with the scope's busy intervals on that device
    std::uint32_t correlation_id = 0;
    ActivityKind kind = ActivityKind::kernel;
    std::uint64_t blocks = 0;      // a kernel's grid size; 0 for a copy or a set
};

// The records of `others` (not the scope's) that overlapped the busy intervals of `counted` on the same
// device, largest overlap first. Records of `others` whose correlation id is one of `counted` are ignored.
std::vector<Overlap> overlapping_work(std::span<const KernelActivity> counted, std::span<const KernelActivity> others);

// Whether work that overlapped the scope's could have run beside it without sharing an SM: every overlapping
// activity is a kernel (a copy or a set draws on the memory the scope's work uses), and the blocks of the scope's
// kernels and of those kernels together are no more than the device's SMs, so each block can have an SM of its
// own, and the overlapping kernels hold at most 1/most_sms_beside of the SMs (one at least): SMs of their own do
// not keep a wide neighbour off the device's memory, and on an H100 a 64 MiB copy beside another on the other
// half of the SMs was stretched in each of the 67 readings they overlapped by 5 us or more
// (bench_stretched_readings [13]). Then the overlap costs a reading little (up to about 1 us on an H100), while
// work that shares SMs or memory can stretch it many times over (110 us alone vs 1113 us beside another stream
// on an H100). `sm_count` <= 0 (unknown): false.
inline constexpr unsigned most_sms_beside = 8;
bool fits_beside(std::span<const KernelActivity> counted, std::span<const Overlap> overlaps, int sm_count);

// How long the scope's work ran while work of `others` ran on the same device: the union of the overlaps, so
// work that ran beside it in several pieces, or on several streams at once, counts once. Records of `others`
// whose correlation id is one of `counted` are ignored. Work beside the scope's can lengthen its reading by at
// most this much: it slows the scope's work only while both run. Work that held the SMs before the scope's first
// block started delays the start of its record, which the reading (the busy time of its records) leaves out.
std::uint64_t overlapped_ns(std::span<const KernelActivity> counted, std::span<const KernelActivity> others);

// The overlap below which work beside a scope's cannot have stretched its reading by a reading's worth: 500 ns
// (the margin over the median by which bench_stretched_readings calls a reading stretched) and 1% of the scope's
// busy time (a warning says the number is off by a large factor; 1% is near the run-to-run spread of a clean
// kernel, docs/pitfalls.md). Both must be reached for a warning.
inline constexpr std::uint64_t stretch_floor_ns = 500;
inline constexpr double stretch_floor_share = 0.01;

// What the records say about the work that ran beside a scope's.
struct WorkBeside {
    std::vector<Overlap> overlaps;    // overlapping_work(), largest first; empty: nothing ran beside it
    std::uint64_t overlapped_ns = 0;  // overlapped_ns()
    std::uint64_t busy_ns = 0;        // the scope's busy time
    bool fits = false;                // fits_beside(): every overlapping activity a kernel on SMs of its own
    bool scope_wide = false;          // wide_work(counted): the scope's own work reaches the whole device

    // Whether it may have stretched the reading: it shared the scope's SMs or memory (not `fits`) for at least
    // stretch_floor_ns and stretch_floor_share of the busy time.
    bool may_stretch() const noexcept;
    // Whether that sharing stretches the reading: only where the scope's own work is wide (scope_wide). A narrow
    // kernel sharing an SM with others may be slowed or not, by what it does there, which no record says: on an
    // H100 a one-block spin beside full-device spins never was (0 of 108 readings), a one-block FMA kernel beside
    // full-device FMA kernels in 76 of 112; a full-device FMA kernel in 122 of 122, a 64 MiB copy in 238 of 241.
    bool stretches() const noexcept { return may_stretch() && scope_wide; }
};

// Whether a scope's work reaches the whole device, so that work beside it must take a share of what it uses: a
// copy or a set (the device's memory), or kernels whose blocks hold more than 1/most_sms_beside of the SMs.
// `sm_count` <= 0 (unknown): only a copy or a set counts as wide.
bool wide_work(std::span<const KernelActivity> counted, int sm_count);

WorkBeside work_beside(std::span<const KernelActivity> counted, std::span<const KernelActivity> others, int sm_count);

// "name x3 (stream 7), other x1 (stream 9)": a compact list for a finding's message, at most `limit` names.
std::string describe_activities(std::span<const KernelActivity> records, std::size_t limit = 4);

}  // namespace gpuchrono::cupti
