// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How many devices the library keeps lock-free per-device state for (atomics indexed by the device ordinal):
// the per-scope reads of that state (first use, GPU-state due time, event-pair floor) are one relaxed load
// instead of a lock and a map lookup. Devices beyond it take each file's slower path.
#pragma once

namespace gpuchrono::detail {

inline constexpr int tracked_devices = 64;

constexpr bool is_tracked_device(int device) noexcept { return device >= 0 && device < tracked_devices; }

}  // namespace gpuchrono::detail
