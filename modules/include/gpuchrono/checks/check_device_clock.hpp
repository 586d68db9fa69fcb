// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions over device-clock samples (docs/pitfalls-catalog.md #15, #16, #17, #24, #25): DeviceClockPolicy decodes
// the probe's records into BlockSamples (policies/device_clock/decode.hpp) and these decide what to report. Pure
// functions over BlockSample / BlockSamples.
//
// Not detectable from these samples: a thread-divergent region (docs/pitfalls-catalog.md #21). The probe reads the clocks
// after a block barrier, so the slowest warp's time is already in the block's sample; telling warps apart
// would take a stop read per warp.
#pragma once

#include <gpuchrono/core/block_samples.hpp>
#include <gpuchrono/core/finding.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace gpuchrono {

// `samples.sm_changed` of the samples began and ended on different SMs, the first of them `first_where` ("block 3,
// region \"name\"") from SM `sm_start` to `sm_stop`; nothing when none did.
std::optional<Finding> check_sm_changed(const BlockSamples& samples, std::string_view first_where, std::uint32_t sm_start,
                                        std::uint32_t sm_stop);

// Records of blocks beyond the probe's capacity_blocks were not written (`samples.dropped`); nothing when none.
std::optional<Finding> check_records_dropped(const BlockSamples& samples);

// Fewer %globaltimer steps than this per interval and a time is quantised by more than ~3%.
inline constexpr double min_timer_steps = 30.0;

// Findings that need the timer step (`samples.timer_step`; nothing while it is unknown): samples shorter per
// interval than min_timer_steps steps (docs/pitfalls-catalog.md row 17), and a kernel span that short.
Findings check_timer_resolution(const BlockSamples& samples);

// A sample whose stop precedes its start: %globaltimer stop_ns < start_ns, or, on one SM, stop_cycles <
// start_cycles (64-bit counters never wrap in practice; a 32-bit clock() does every 2.17 s at 1.98 GHz).
std::optional<Finding> check_clock_monotonic(std::span<const BlockSample> samples);

// Cycles from `from`'s start read to `to`'s stop read are only a time if both reads ran on one SM.
std::optional<Finding> check_cycle_span(const BlockSample& from, const BlockSample& to);

// A launch whose last wave leaves more than this share of the launch's SM slots idle is reported: at 133 blocks
// on 132 one-block SMs (docs/pitfalls-catalog.md #24) the share is 49.6% and the kernel takes 59% longer than with 132.
inline constexpr double idle_slot_share_threshold = 0.10;

// `blocks` of a launch on `sm_count` SMs holding `resident_blocks_per_sm` blocks each (the kernel's occupancy).
// Nothing when sm_count or resident_blocks_per_sm is 0 (unknown), and nothing for a launch under one wave: its
// blocks all run at once, so no block waits for a wave before it (the tail effect needs a full wave first).
std::optional<Finding> check_waves(std::uint64_t blocks, std::uint64_t sm_count, std::uint64_t resident_blocks_per_sm);

// Blocks that could all be resident at once should start within a fraction of the region's length; a start
// spread above this share of the median region length means they did not run side by side.
inline constexpr double start_spread_threshold = 0.5;

// The blocks' samples of one region (one sample per block). `slots`: blocks the GPU holds at once (SMs x
// resident blocks per SM; 0: unknown, and the check says nothing). Skipped when there are more blocks than
// slots: later waves start later by design.
std::optional<Finding> check_block_start_spread(std::span<const BlockSample> region_samples, std::uint64_t slots);

// Every check above that the samples allow: monotonic clocks, waves (when resident_blocks_per_sm is known) and
// start spread per region (when the launch fits the GPU at once: at least one block per SM always does).
Findings check_block_samples(const BlockSamples& samples);

}  // namespace gpuchrono
