// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What DeviceClockPolicy reads back from a kernel, ready for the views (views.hpp) and the reports: one
// BlockSample per (block, region) that ran, and BlockSamples, the set of them with everything needed to read
// them right (the clocks' resolution and rate, the probe's own cost, the launch's shape, what was lost).
//
// Part of the global module and free of range-v3, so nvcc-compiled code can include it.
#pragma once

#include <gpuchrono/core/duration.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono {

// One (block, region) record from inside a kernel. Times on %globaltimer (ns, same clock on every SM);
// cycles on clock64 (per SM, only comparable when sm_start == sm_stop).
struct BlockSample {
    std::uint32_t block = 0;       // linear block index
    std::uint32_t region = 0;      // region id (index into the region names)
    std::uint32_t sm_start = 0;    // %smid at the start read
    std::uint32_t sm_stop = 0;     // %smid at the stop read
    std::uint64_t start_ns = 0;    // %globaltimer at region entry (after the barrier)
    std::uint64_t stop_ns = 0;     // %globaltimer at region exit (after the barrier)
    std::uint64_t start_cycles = 0;
    std::uint64_t stop_cycles = 0;
    std::uint64_t count = 1;       // times the region ran (loop-accumulating regions: iterations)
    std::uint64_t accumulated_ns = 0;  // accumulating regions: total ns over all iterations; else stop_ns - start_ns
    // Added by the device-clock policy (fields are only ever appended):
    std::uint64_t accumulated_cycles = 0;  // sum of the clock64 intervals whose two reads were on one SM
    bool cycles_valid = false;     // every interval began and ended on one SM: accumulated_cycles covers it all
    bool accumulating = false;     // written by a ProbeLoop (count = iterations)
    // The region's own time, finer than %globaltimer: accumulated_cycles / BlockSamples::sm_clock (or
    // accumulated_ns when !cycles_valid), minus count x the calibrated probe overhead when
    // BlockSamples::overhead_subtracted; never below 0.
    double net_ns = 0.0;
};

// Where the SM clock that converts cycles to time came from. Never the nominal clock: the SM clock moves
// with load, power and temperature (docs/pitfalls-catalog.md rows 5 and 6).
enum class ClockSource {
    none,              // not measured
    kernel_samples,    // clock64 against %globaltimer over the timed kernel's own reads, per SM
    reference_kernel,  // a short spin kernel run right after the timed one, because the kernel's own reads
                       // spanned too little %globaltimer time for the precision asked for
};

inline const char* to_string(ClockSource s) noexcept {
    switch (s) {
        case ClockSource::none: return "none";
        case ClockSource::kernel_samples: return "kernel-samples";
        case ClockSource::reference_kernel: return "reference-kernel";
    }
    return "unknown";
}

// The SM clock measured as clock64 cycles over %globaltimer time on one SM at a time (cycles of different SMs
// are never combined in one difference), summed over the SMs used.
struct SmClock {
    double hz = 0.0;
    ClockSource source = ClockSource::none;
    std::uint64_t cycles = 0;   // clock64 cycles counted, over all SMs used
    Duration baseline{};        // %globaltimer time those cycles span, over all SMs used
    std::uint32_t sms = 0;      // SMs whose spans were used
    // Bound on the relative error from %globaltimer quantisation: every span may be off by up to one step,
    // so sms x step / baseline.
    double uncertainty = 0.0;
};

// What one empty region costs, measured on this device with the kernel's block size, one block per SM.
// Medians, so one slow first region (instruction cache) does not count.
struct ProbeOverhead {
    double region_cycles = 0.0;     // an empty ProbeRegion: entry barrier + reads .. exit barrier + reads
    double iteration_cycles = 0.0;  // one empty ProbeLoop iteration
    std::uint32_t threads_per_block = 0;
    std::uint32_t regions_measured = 0;
};

struct BlockSamples {
    // One per (block, region) that ran, ordered by block then region. Blocks beyond capacity are missing
    // (counted in `dropped`), and so are regions a block skipped and loops that ran no iteration.
    std::vector<BlockSample> samples;
    std::vector<std::string> region_names;  // region id -> name, as given in the policy's options

    int device = -1;
    std::uint64_t grid_id = 0;        // %gridid of the launch the records came from
    std::uint64_t grid_blocks = 0;    // blocks the launch had (reported by the device, dropped ones included)
    std::uint32_t block_threads = 0;  // threads per block of the launch
    std::uint32_t capacity_blocks = 0;
    std::uint64_t dropped = 0;        // records not written because their block was beyond capacity_blocks
    std::uint64_t first_start_ns = 0; // earliest region entry of any block, dropped records included
    std::uint64_t last_stop_ns = 0;   // latest region exit of any block, dropped records included
    std::size_t sm_changed = 0;       // samples with an interval that began and ended on different SMs

    int sm_count = 0;                 // SMs of the device
    int resident_blocks_per_sm = 0;   // the kernel's occupancy, when the user gave it; 0: unknown

    Duration timer_step{};            // smallest %globaltimer increment, measured on this device
    SmClock sm_clock;                 // converts this run's cycles to time
    ProbeOverhead overhead;           // the probe's own cost (zero when not calibrated)
    bool overhead_subtracted = false; // whether net_ns has count x overhead taken off

    // The kernel-level time: first region entry to last region exit over all blocks, on %globaltimer.
    Duration kernel_duration() const noexcept {
        return Duration::from_ns(static_cast<double>(last_stop_ns - first_start_ns));
    }

    // Cycles -> time with this run's measured SM clock; NaN when no clock was measured.
    Duration cycles_to_time(double cycles) const noexcept {
        return Duration::from_ns(sm_clock.hz > 0 ? cycles / sm_clock.hz * 1e9 : std::numeric_limits<double>::quiet_NaN());
    }

    // The calibrated probe cost in time, at this run's clock.
    Duration overhead_per_region() const noexcept { return cycles_to_time(overhead.region_cycles); }
    Duration overhead_per_iteration() const noexcept { return cycles_to_time(overhead.iteration_cycles); }

    const std::string& region_name(std::uint32_t region) const {
        if (region >= region_names.size())
            throw std::out_of_range("gpuchrono::BlockSamples: no region " + std::to_string(region) + " (" +
                                    std::to_string(region_names.size()) + " named)");
        return region_names[region];
    }

    std::optional<std::uint32_t> region_id(std::string_view name) const noexcept {
        for (std::size_t i = 0; i < region_names.size(); ++i)
            if (region_names[i] == name) return static_cast<std::uint32_t>(i);
        return std::nullopt;
    }
};

}  // namespace gpuchrono
