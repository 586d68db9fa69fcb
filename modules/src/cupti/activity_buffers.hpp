// The buffers CUPTI fills with activity records: handed out on request, read back on completion (on CUPTI's
// own thread, or on the thread that flushes), translated to KernelActivity and put in an ActivityStore, and
// CUPTI's count of records it had to drop added to the store's. Internal.
#pragma once

#include "cupti_library.hpp"

#include <gpuchrono/cupti/activity_store.hpp>

#include <cstddef>
#include <optional>

namespace gpuchrono::cupti {

// Registers the buffer callbacks, delivering into `store` (which must live for the rest of the process).
// Returns the error text on failure.
std::optional<std::string> register_activity_buffers(const CuptiLibrary& lib, ActivityStore& store);

// The bytes of one buffer: room for ~10,000 kernel records; more buffers are handed out as CUPTI asks (and kept
// for reuse). Four are made at set-up.
inline constexpr std::size_t activity_buffer_bytes = 2u << 20;

}  // namespace gpuchrono::cupti
