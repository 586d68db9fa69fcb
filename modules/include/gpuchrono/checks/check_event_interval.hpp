// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions about what an event pair's interval holds besides the GPU work (docs/pitfalls-catalog.md #8):
// pure functions over what EventPolicy observed around its two records.
//
// The signal is the state of the timed stream when each event was recorded. A start event recorded on an idle
// stream completes at once, so everything until the first launched work starts on the GPU - host work, slow
// launches, lazy module loading - is inside the interval. A stop event recorded on an idle stream also
// completes at once, so the interval then ends when the HOST recorded the stop, not when the work ended.
#pragma once

#include <gpuchrono/gpu/driver_probe.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding.hpp>

#include <optional>

namespace gpuchrono {

struct EventIntervalObservation {
    bool idle_at_start = false;         // cudaStreamQuery returned cudaSuccess just before the start record
    bool idle_at_stop = false;          // ... just before the stop record
    Duration host_time{};               // host steady_clock from just before the start record to just before the stop record (read after an idle start only: 0 otherwise)
    std::optional<Duration> interval;   // the event interval, once it has been read
    ModuleLoading loading = ModuleLoading::unknown;  // names lazy loading as a likely cause when it is on
    // No scope at this timer's call site started on an idle stream before: its launches may be the first of their
    // kernels in the process, which under lazy module loading load the module on the host first.
    bool first_at_call_site = false;
};

// Host time must be at least this share of the event interval, and at least host_time_floor, before it is
// reported. The floor is about five host launch calls (3.9 us each on an H100, docs/pitfalls-catalog.md #22): a scope that
// only launches its kernels spends less than that on the host.
inline constexpr double host_share_threshold = 0.5;
inline constexpr Duration host_time_floor = Duration::from_us(20);

// The first scope at a call site found the stream idle at start and at stop, with host time of at least
// host_time_floor between, and module loading is lazy: its launch most likely loaded the kernel's module (171-430
// us on an H100; the pitfall the README's first sample showed) and the short work then ended before the stop.
// That is a cold start, reported as cold-first-sample with its fix, in place of timed-stream-idle, whose advice
// (pass the work's stream) would be wrong. Needs o.loading asked. No event-pair observation tells a module load
// from other host work with certainty; a later scope at the same line that still finds the stream idle gets
// timed-stream-idle.
std::optional<Finding> check_cold_first_scope(const EventIntervalObservation& o);

// Idle at start and at stop: the interval is host-paced (the work went to another stream, or had finished
// before the stop was recorded).
std::optional<Finding> check_timed_stream_idle(const EventIntervalObservation& o);

// Idle at start, busy at stop, and host time is most of the interval: the start was recorded before host work
// (or before launches that took long). Needs o.interval; says nothing without it. Never fires together with
// check_timed_stream_idle.
std::optional<Finding> check_host_time_in_interval(const EventIntervalObservation& o);

}  // namespace gpuchrono
