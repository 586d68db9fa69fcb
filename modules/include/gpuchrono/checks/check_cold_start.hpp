// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions about cold starts (docs/pitfalls-catalog.md #3 and #4): a context created inside a timed scope, and a first
// sample far above the rest of its series. Pure functions over what was observed.
#pragma once

#include <gpuchrono/gpu/driver_probe.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding.hpp>

#include <optional>
#include <span>
#include <string_view>

namespace gpuchrono {

// Devices with an active primary context at start and at stop (driver_probe.hpp; -1: unknown). More at stop
// than at start means the scope created one, and `measured` includes that.
std::optional<Finding> check_context_created(int contexts_at_start, int contexts_at_stop, Duration measured);

// docs/pitfalls-catalog.md #4: a first sample above 1.5x the median of the others is a cold one.
inline constexpr double cold_sample_ratio = 1.5;

// `in_order`: a series' durations in the order they were taken. Needs the first and at least two more (a
// median of one is just that sample). `loading` names lazy module loading as the likely cause when it is on.
std::optional<Finding> check_cold_first_sample(std::span<const Duration> in_order,
                                               ModuleLoading loading = ModuleLoading::unknown);

// The fix of a first scope that paid a lazy module load (EventPolicy's and HostSyncPolicy's cold-first-sample).
inline constexpr std::string_view module_load_fix =
    "launch each kernel once before timing it, or set CUDA_MODULE_LOADING=EAGER so that modules load when the "
    "context is created";

// What a HostSyncPolicy scope saw: its stream is drained at the start, so any host time before the stop's wait is
// in the reading.
struct SyncedScopeObservation {
    Duration before_stop{};   // host steady_clock from the start to just before the stop's synchronisation
    Duration reading{};       // the scope's reading, start to the stop's return from synchronising
    bool first_at_call_site = false;  // no scope at this timer's call site was stopped before
    ModuleLoading loading = ModuleLoading::unknown;
};

// The first HostSyncPolicy scope at a call site, under lazy module loading, that spent at least host_time_floor
// and host_share_threshold of its reading on the host before its stop began to wait (check_event_interval.hpp
// gives both): its launch most likely loaded the kernel's module first, and the reading holds that load.
// cold-first-sample with the fix, as EventPolicy's first scope. A later scope at the line says nothing here.
std::optional<Finding> check_cold_first_synced_scope(const SyncedScopeObservation& o);

}  // namespace gpuchrono
