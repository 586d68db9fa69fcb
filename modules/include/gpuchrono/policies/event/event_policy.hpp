// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// EventPolicy: a CUDA event pair recorded on the timed stream, on that stream's device.
//
// The interval is GPU time between the two records: the work enqueued between start and stop, plus the
// launch latency that is inside the pair (docs/pitfalls-catalog.md #22: a naive pair around a D-us kernel reads
// D + 6..8 us on an H100). Events come from the EventPool, so a warm timer creates none.
//
// By default stop() waits for the stop event and reads the interval. With Options{.wait_at_stop = false}
// stop() only records the stop event and returns a pending Measurement; the interval is read the first time
// duration() is called, after waiting for the stop event, never before it has completed. Use that to time
// many scopes back to back without a host synchronisation between them.
//
// Checks (each costs well under a microsecond and none waits for the GPU; findings land in the Measurement,
// see finding_catalog.hpp for the codes):
//   (The device's first timer in a process leaves the NVML read, the floor and the launches that settle the launch
//   path until right after its stop record, so that none of it slows the user's launch inside its interval; issue
//   27, docs/pitfalls.md "The first scope of a process". Later timers do as below.)
//   at start  whether the stream is being captured into a graph (cudaStreamIsCapturing); if not, its device
//             (cudaStreamGetDevice, which a capturing stream refuses: the one capture check serves both),
//             whether it is idle (cudaStreamQuery), the current device, a host timestamp; at most every 250 ms per device the
//             GPU's clock state through NVML (gpu_state.hpp); on a device's first idle start, the event-pair
//             floor (event_floor.hpp). After those rare two, one empty kernel of the library's on the timed
//             stream (launch_warmup.hpp: the launch after them is slow, and this one takes most of that cost;
//             after NVML the user's own next launch still pays 4-7 us on the H100, which is why the NVML reads
//             can be switched off: gpu_state.hpp). All before the start event is recorded.
//   at stop   before the stop record: whether the stream is being captured, the current device, a host
//             timestamp and, only if the stream was idle at start, whether it is idle now (the two findings
//             that use it need an idle start; behind queued work the stop asks nothing more). After it: the
//             legacy-stream and GPU-state findings, and, once the interval is known, whether it is below 10x
//             the floor and how much of it was host time. In lazy mode (wait_at_stop = false) the interval is
//             known only when duration() first resolves it: those two checks run there, their findings are
//             added to the Measurement then, and get the configured reaction at that point (reported, or thrown
//             from that duration() call).
// Host time the timer itself adds to the interval: none after the start record (start() returns right after
// it); before the stop record, cudaStreamIsCapturing (0.08 us on an H100), cudaGetDevice (0.05 us) and a
// steady_clock read, and after an idle start also cudaStreamQuery (0.4 us) between two swaps of the thread's
// capture mode (relaxed while it is asked). That time counts only when the stream is idle at stop (the
// interval is then host-paced anyway, and timed-stream-idle says so); behind running work the stop event
// waits for the work. Everything that costs more (NVML, the floor, dladdr for a finding's call site, building
// messages) runs before the start record or after the stop record.
// Inside a stream capture the events are recorded with cudaEventRecordExternal, so they become nodes of the
// graph, and stop() never waits (a wait would invalidate the capture): the Measurement is pending until the
// graph has run, and carries the info finding timer-in-stream-capture; reading it before the graph ran throws
// TimerError. Such events are created for the capture (never recorded before, so an early read cannot return
// an old interval) and never go to the pool, since the graph records them again at every launch. A capture that begins or ends between
// start and stop is refused with TimerError: such an interval would span capture time and run time.
#pragma once

#include <gpuchrono/gpu/event_pool.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/core/measurement.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <optional>
#include <string_view>
#include <source_location>

namespace gpuchrono {

struct CallSite;  // finding_reaction.hpp

class EventPolicy {
public:
    static constexpr std::string_view name = "event";
    static constexpr std::string_view type_name = "EventPolicy";  // errors say ScopedTimer<EventPolicy>

    struct Options {
        bool wait_at_stop = true;
        // false: the minimal mode. start() takes two pooled events and records the first; stop() records the
        // second (and, with wait_at_stop, waits and reads). No capture, stream, device, NVML or floor check, and
        // so no finding: a host cost of about 1.13x a raw cudaEventRecord pair (bench_event_policy_cost [1], H100).
        // Use it for tight loops whose set-up you have checked once with the checks on; never inside a stream
        // capture (a plain record adds no graph node there, and reading the interval then fails with a CudaError).
        bool checks = true;
    };

    explicit EventPolicy(cudaStream_t stream) : EventPolicy(stream, Options{}) {}
    EventPolicy(cudaStream_t stream, Options options);

    EventPolicy(EventPolicy&&) noexcept = default;
    EventPolicy& operator=(EventPolicy&&) noexcept = default;

    void start();
    Measurement stop();
    // The same, with the user's line for the findings (ScopedTimer passes the line that constructed it);
    // stop() names its caller's return address instead.
    Measurement stop(std::source_location where);

    // The device's first scope ends with launches of the library's own kernel that settle the launch path for
    // the user's next launch (launch_warmup.hpp). Inside the owner's NVTX range they would be profiled as the
    // user's work (`ncu --nvtx-include`), so an owner that brackets the scope, as ScopedTimer does, calls
    // defer_after_work() before start() and after_work() once its bracket is closed; without an owner, stop()
    // does them. after_work() never throws: the launches only shorten the user's next launch, and a CUDA error
    // they met is the stream's and surfaces at the user's next call on it.
    void defer_after_work() noexcept { defer_after_work_ = true; }
    void after_work() noexcept;

    cudaStream_t stream() const noexcept { return stream_; }
    // The timed stream's device. With the checks on it is asked by start() (after its capture check, which
    // it shares): -1 until then.
    int device() const noexcept { return device_; }

private:
    Measurement stop_at(const CallSite& site);
    Measurement stop_unchecked(const CallSite& site);

    cudaStream_t stream_;
    int device_;
    Options options_;
    EventLease start_;
    EventLease stop_;
    bool capturing_ = false;
    bool idle_at_start_ = false;
    bool first_use_ = false;  // the device's first-use work is left for this scope's stop (start())
    bool defer_after_work_ = false;
    bool settle_pending_ = false;  // stop() left the settling launches to after_work()
    int device_at_start_ = -1;
    std::chrono::steady_clock::time_point host_start_{};
    std::optional<GpuState> gpu_state_;
};

}  // namespace gpuchrono
