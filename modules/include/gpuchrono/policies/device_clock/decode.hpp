// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Turning what the in-kernel probe wrote into BlockSamples: the host half of DeviceClockPolicy that needs no
// GPU, kept apart so that every rule can be tested on hand-made records.
//
// The rules:
// - A record is used only if its slot was written exactly once, by one launch. A slot written twice (a
//   second launch into the same probe, or a plain region entered twice by one block) or records carrying
//   different %gridid values refuse the whole measurement: the data would mix launches.
// - A region id the timer did not name refuses the measurement (the kernel and the timer disagree).
// - Cycle counters of different SMs are never subtracted: a plain region whose start and stop reads ran on
//   different SMs keeps accumulated_cycles = 0 and cycles_valid = false whatever the device wrote.
// - The SM clock is measured per SM, from reads taken on that SM only, and never taken from the nominal rate.
#pragma once

#include <gpuchrono/core/block_samples.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/probe_layout.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuchrono::device_clock {

// Either an error (the records cannot be used, and why) or the samples and the findings seen reading them.
// Decoding fills the samples, the launch shape, the kernel span and the counts; the clock, the timer step,
// the overhead and net_ns are the caller's to fill (they need the device).
struct Decoded {
    std::string error;
    BlockSamples samples;
    Findings findings;
    bool ok() const noexcept { return error.empty(); }
};

// `records` holds capacity_blocks x region_names.size() slots, slot b * region_count + r for (block b,
// region r). Throws std::invalid_argument if the sizes disagree or no region is named.
Decoded decode(const ProbeHeader& header, std::span<const ProbeRecord> records,
               const std::vector<std::string>& region_names, std::uint32_t capacity_blocks);

// The SM clock over the samples' own reads: for every SM, its earliest and latest read (start reads on
// sm_start, stop reads on sm_stop); cycles and ns summed over SMs. Nothing when no SM has two reads at
// different %globaltimer values. timer_step must be > 0 (it bounds the uncertainty).
std::optional<SmClock> clock_from_samples(std::span<const BlockSample> samples, Duration timer_step);

// One span read on the device: %smid, %globaltimer and clock64 at its start and at its end.
struct ClockSpan {
    std::uint64_t start_ns = 0;
    std::uint64_t start_cycles = 0;
    std::uint64_t stop_ns = 0;
    std::uint64_t stop_cycles = 0;
    std::uint32_t sm_start = 0;
    std::uint32_t sm_stop = 0;
};

// The SM clock of one reference span; nothing if the span changed SM or has no length.
std::optional<SmClock> clock_from_span(const ClockSpan& span, Duration timer_step, ClockSource source);

// Fills every sample's net_ns from samples.sm_clock, samples.overhead and samples.overhead_subtracted.
// Throws std::invalid_argument if the clock is not positive.
void apply_clock(BlockSamples& samples);

// The probe's cost from a calibration run of empty regions: region ids 0 .. plain_regions - 1 are plain
// empty regions (id 0 is left out: the first region of a block pays for cold instruction caches), any
// accumulating sample is an empty loop. Medians over samples with valid cycles. Throws std::runtime_error
// if there are none.
ProbeOverhead overhead_from_calibration(std::span<const BlockSample> samples, std::uint32_t plain_regions,
                                        std::uint32_t threads_per_block);

// Everything a DeviceClockPolicy measurement reports about its samples, in this order: what decoding found
// (`decoded`: a changed SM, dropped records), then check_timer_resolution and check_block_samples
// (check_device_clock.hpp: too few timer steps, clocks running backwards, a partial last wave, block start spread). `samples` must
// be complete: timer step, SM count and resident blocks per SM filled in.
Findings measurement_findings(Findings decoded, const BlockSamples& samples);

}  // namespace gpuchrono::device_clock
