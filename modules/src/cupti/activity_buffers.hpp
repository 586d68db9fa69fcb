// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The buffers CUPTI fills with activity records: handed out on request, read back on completion (on CUPTI's
// own thread, or on the thread that flushes), translated to KernelActivity and put in an ActivityStore, and
// CUPTI's count of records it had to drop added to the store's. Internal.
#pragma once

#include "cupti_library.hpp"

#include "cupti/activity_store.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace gpuchrono::cupti {

// Registers the buffer callbacks, delivering into `store` (which must live for the rest of the process). Called at
// every acquisition of the hold: CUPTI keeps one pair of buffer callbacks per process, and a tool that used CUPTI
// while gpuchrono held none registered its own. Returns the error text on failure.
std::optional<std::string> register_activity_buffers(const CuptiLibrary& lib, ActivityStore& store);

// Inside a program that `gpuchrono run` records, the injection owns CUPTI's buffers (run_share.hpp): records reach
// `store` through deliver_activity_buffer instead, and no callbacks are registered.
void deliver_to(const CuptiLibrary& lib, ActivityStore& store) noexcept;
// Reads one completed buffer (which stays its owner's) into the store, with the records CUPTI dropped beside it.
// Records without valid times (handed over by a forced flush while their work still ran) are counted as dropped:
// they come only once, and a scope missing one says so rather than reading a wrong time.
void deliver_activity_buffer(const std::uint8_t* buffer, std::size_t valid, std::size_t dropped) noexcept;

// Adds to the store what CUPTI counts as dropped in its global queue, and resets that count (CUPTI's counts reset
// when read). buffer_completed reads the count of each buffer's queue, but records dropped for want of any buffer
// complete no buffer: without this call their count surfaced only when a later buffer completed, in a later
// scope (seen on the H100 with refuse_buffers.hpp). KernelPolicy calls it at start (so that older drops are not
// its own) and when it collects its records.
void collect_dropped_records() noexcept;

// The bytes of one buffer: room for ~10,000 kernel records; more buffers are handed out as CUPTI asks (and kept
// for reuse). Four are made at set-up.
inline constexpr std::size_t activity_buffer_bytes = 2u << 20;

}  // namespace gpuchrono::cupti
