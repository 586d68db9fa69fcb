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
#pragma once

#include <gpuchrono/event_pool.hpp>
#include <gpuchrono/measurement.hpp>

#include <cuda_runtime_api.h>

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
};

}  // namespace gpuchrono
