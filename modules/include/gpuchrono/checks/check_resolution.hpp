// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decision: is an event interval too close to what an empty event pair reads on this device (docs/pitfalls-catalog.md #7,
// and #22 when the interval holds one short launch)? The floor is measured on the device (event_floor.hpp),
// never assumed. The %globaltimer counterpart (#17) is check_timer_resolution (check_device_clock.hpp).
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding.hpp>

#include <optional>

namespace gpuchrono {

// An interval shorter than this many floors is flagged: the floor (1.25-1.57 us on an H100, in 32 ns steps) is
// then more than a tenth of what was read. docs/pitfalls-catalog.md #7 gives ~10x.
inline constexpr double event_floor_factor = 10.0;

// Nothing when the floor is not positive or not finite (not measured).
std::optional<Finding> check_event_floor(Duration interval, Duration floor);

}  // namespace gpuchrono
