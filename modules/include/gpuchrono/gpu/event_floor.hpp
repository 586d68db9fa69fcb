// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The event-pair floor: what an empty pair of timing events reads on a device (docs/pitfalls-catalog.md #7: 1.25-1.57 us on
// an H100, in 32 ns steps). Measured on the device, never assumed: 15 empty pairs recorded back to back on a
// private idle stream, after one warm-up pair; the median is kept per device for the life of the process.
#pragma once

#include <gpuchrono/core/duration.hpp>

#include <optional>

namespace gpuchrono {

// Measures the floor of `device` at the first call and returns the cached value after. The measurement runs
// on the library's own stream, in relaxed capture mode (it cannot disturb a capture on this thread), and waits
// only for its own events. Throws CudaError.
Duration event_pair_floor(int device);

// The cached floor of `device`, without measuring.
std::optional<Duration> known_event_pair_floor(int device) noexcept;

}  // namespace gpuchrono
