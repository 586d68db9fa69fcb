// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// HostSyncPolicy: the host's steady_clock, with the GPU drained at both ends, so the interval holds all of
// the GPU work enqueued between start and stop, plus launch and synchronisation latency (docs/pitfalls-catalog.md #22:
// D + 12..16 us for a D-us kernel on an H100). It is what a user's wall clock sees.
//
// SyncScope::stream (default) synchronises the given stream; SyncScope::device synchronises the stream's
// whole device, for work spread over several streams.
//
// Checks (findings land in the Measurement; codes in finding_catalog.hpp): at start, at most every 250 ms per
// device, the GPU's clock state through NVML (gpu_state.hpp), followed by one empty kernel of the library's on
// the timed stream (launch_warmup.hpp: the launch after the NVML reads is slow, and this one takes that cost
// before the clock starts), and the current device; at stop, after the clock is read, whether the current
// device changed, whether the timed stream is the legacy default stream (stream scope), and whether the device
// schedules with cudaDeviceScheduleBlockingSync (the host then wakes late from both synchronisations), and, for
// the first scope at its call site, whether host time before the stop's synchronisation looks like a lazy module
// load (cold-first-sample: check_cold_first_synced_scope).
// Synchronising inside a stream capture would invalidate the capture, so a timer whose stream is being captured
// is refused with TimerError, at start or at stop: time the graph launch instead, or use EventPolicy, which
// records into the capture. Another stream of the thread being captured is no obstacle: the library's own
// calls run in relaxed capture mode (stream_state.hpp).
// Host time the timer adds to the interval: none after the clock starts (start() returns); at stop, before its
// synchronisation, cudaStreamIsCapturing (0.08 us on an H100), one steady_clock read and two swaps of the
// thread's capture mode. The findings are built after the clock stops.
#pragma once

#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/core/measurement.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <optional>
#include <string_view>
#include <source_location>

namespace gpuchrono {

struct CallSite;  // finding_reaction.hpp

enum class SyncScope { stream, device };

class HostSyncPolicy {
public:
    static constexpr std::string_view name = "host-sync";
    static constexpr std::string_view type_name = "HostSyncPolicy";  // errors say ScopedTimer<HostSyncPolicy>

    explicit HostSyncPolicy(cudaStream_t stream, SyncScope scope = SyncScope::stream);

    void start();
    Measurement stop();
    // The same, with the user's line for the findings (ScopedTimer passes the line that constructed it);
    // stop() names its caller's return address instead.
    Measurement stop(std::source_location where);

    cudaStream_t stream() const noexcept { return stream_; }
    int device() const noexcept { return device_; }
    SyncScope scope() const noexcept { return scope_; }

private:
    Measurement stop_at(const CallSite& site);
    void synchronize(const char* when);
    void refuse_capture(const char* when) const;

    cudaStream_t stream_;
    SyncScope scope_;
    int device_;
    std::chrono::steady_clock::time_point started_{};
    int device_at_start_ = -1;
    std::optional<GpuState> gpu_state_;
};

}  // namespace gpuchrono
