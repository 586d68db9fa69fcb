// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decision of HostClockPolicy's stop-time checks (docs/pitfalls-catalog.md #1 and #13): pure functions over what the policy
// observed, so CPU tests can feed them any case.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding.hpp>

#include <optional>

namespace gpuchrono {

// `stream_busy_at_stop`: cudaStreamQuery on the watched stream returned cudaErrorNotReady right after the host
// clock stopped. Then the GPU work launched in the scope had not finished, and `measured` excludes its rest.
std::optional<Finding> check_host_stop(bool stream_busy_at_stop, Duration measured);

// The watched stream was being captured into a graph at the stop: launches in the scope were recorded, not
// run, so `measured` is what capturing them cost.
std::optional<Finding> check_host_timer_capture(bool capturing_at_stop, Duration measured);

}  // namespace gpuchrono
