// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How long a device had run none of this process's work before a KernelPolicy scope's first activity started
// (the gpu-idle-before finding, checks/check_idle_gap.hpp). Free of CUPTI, so CPU tests can drive it with made-up
// records.
//
// Why: on an H100 the first kernel after the device had been idle for a fifth of a millisecond ran 0.6-1.7 us
// longer than the same kernel queued behind other work (bench_stretched_readings [10]; docs/pitfalls.md,
// "Readings stretched with nothing beside them"), with no other work overlapping it.
//
// What counts as work: every kernel, copy and set of the process on the device (any stream, any scope's or
// none), except the library's stream marks (stream_bounds.hpp). A stream-mode scope's own start mark always runs
// right before its first counted kernel, and the stretched readings above had it there, 1-5 us before them: an
// empty one-block kernel does not keep the GPU warm, so counting marks as work would hide every such reading. The
// latest mark is reported beside the gap instead.
//
// Two gaps are measured: the device's (any stream) and the first activity's own stream's; either long enough
// attaches the finding (checks/check_idle_gap.hpp).
//
// What is seen: CUPTI's records of this process only. Another process's kernels may have kept the GPU busy
// through the gap (the finding says so). A record that has not arrived when the scope reads its own (CUPTI
// delivers in any order) can only make the gap look longer than it was: the finding may then be attached where
// the device was in fact busy, never left off where it was idle.
#pragma once

#include "checks/check_idle_gap.hpp"
#include <gpuchrono/core/kernel_activity.hpp>
#include "cupti/activity_store.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>

namespace gpuchrono::idle_gap {

// The latest ends on the device of the records that ended before the scope's window opened, as delivered.
using Prior = cupti::ActivityStore::PriorWork;

// The idle time before `first` on its device. `held`: records the scope holds (any device, any order; those that
// start at or after `first` are ignored, so the scope's own may be among them); `prior`: the latest ends before
// the scope's window opened (ActivityStore::prior_work), which the records held do not cover;
// `recording_since_ns`: when CUPTI's records began (or began again) for the process.
IdleGap idle_gap(const KernelActivity& first, std::initializer_list<std::span<const KernelActivity>> held, Prior prior,
                 std::uint64_t recording_since_ns);

}  // namespace gpuchrono::idle_gap
