// EventPolicy: a CUDA event pair recorded on the timed stream, on that stream's device.
//
// The interval is GPU time between the two records: the work enqueued between start and stop, plus the
// launch latency that is inside the pair (PITFALLS.md #22: a naive pair around a D-us kernel reads
// D + 6..8 us on an H100). Events come from the EventPool, so a warm timer creates none.
//
// By default stop() waits for the stop event and reads the interval. With Options{.wait_at_stop = false}
// stop() only records the stop event and returns a pending Measurement; the interval is read the first time
// duration() is called, after waiting for the stop event, never before it has completed. Use that to time
// many scopes back to back without a host synchronisation between them.
//
// Checks (each costs well under a microsecond and none waits for the GPU; findings land in the Measurement,
// see finding_catalog.hpp for the codes):
//   at start  whether the stream is being captured into a graph (cudaStreamIsCapturing); if not, whether it is
//             idle (cudaStreamQuery), the current device, a host timestamp; at most every 250 ms per device the
//             GPU's clock state through NVML (gpu_state.hpp); on a device's first idle start, the event-pair
//             floor (event_floor.hpp). All before the start event is recorded, so none of it is in the interval.
//   at stop   the same stream and device questions, before the stop event is recorded; once the interval is
//             known, whether it is below 10x the floor and how much of it was host time. In lazy mode
//             (wait_at_stop = false) the interval is known only when duration() first resolves it: those two
//             checks then run there and their findings get the configured reaction (report or throw) at that
//             point, but cannot be attached to the Measurement, which is already in the caller's hands.
// Inside a stream capture the events are recorded with cudaEventRecordExternal, so they become nodes of the
// graph, and stop() never waits (a wait would invalidate the capture): the Measurement is pending until the
// graph has run, and carries the info finding timer-in-stream-capture; reading it before the graph ran throws
// TimerError. Such events are created for the capture (never recorded before, so an early read cannot return
// an old interval) and never go to the pool, since the graph records them again at every launch. A capture that begins or ends between
// start and stop is refused with TimerError: such an interval would span capture time and run time.
#pragma once

#include <gpuchrono/event_pool.hpp>
#include <gpuchrono/gpu_state.hpp>
#include <gpuchrono/measurement.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <optional>
#include <string_view>

namespace gpuchrono {

class EventPolicy {
public:
    static constexpr std::string_view name = "event";

    struct Options {
        bool wait_at_stop = true;
    };

    explicit EventPolicy(cudaStream_t stream) : EventPolicy(stream, Options{}) {}
    EventPolicy(cudaStream_t stream, Options options);

    EventPolicy(EventPolicy&&) noexcept = default;
    EventPolicy& operator=(EventPolicy&&) noexcept = default;

    void start();
    Measurement stop();

    cudaStream_t stream() const noexcept { return stream_; }
    int device() const noexcept { return device_; }

private:
    cudaStream_t stream_;
    int device_;
    Options options_;
    EventLease start_;
    EventLease stop_;
    bool capturing_ = false;
    bool idle_at_start_ = false;
    int device_at_start_ = -1;
    std::chrono::steady_clock::time_point host_start_{};
    std::optional<GpuState> gpu_state_;
};

}  // namespace gpuchrono
