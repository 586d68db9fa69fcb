// EventPool: timing events are created once per device and reused, so a warm ScopedTimer<EventPolicy>
// makes no cudaEventCreate call (creation costs microseconds and can synchronise).
//
// The pool is process-wide and thread-safe. It is never destroyed: events would outlive the CUDA runtime's
// own teardown at exit, where cudaEventDestroy fails; the driver frees them with the context.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace gpuchrono {

// One event on loan from the pool; it goes back when the lease ends. Move-only.
class EventLease {
public:
    EventLease() noexcept = default;
    EventLease(int device, cudaEvent_t event) noexcept : device_(device), event_(event) {}
    EventLease(EventLease&& o) noexcept : device_(o.device_), event_(std::exchange(o.event_, nullptr)) {}
    EventLease& operator=(EventLease&& o) noexcept;
    EventLease(const EventLease&) = delete;
    EventLease& operator=(const EventLease&) = delete;
    ~EventLease();

    cudaEvent_t get() const noexcept { return event_; }
    int device() const noexcept { return device_; }
    explicit operator bool() const noexcept { return event_ != nullptr; }

private:
    int device_ = -1;
    cudaEvent_t event_ = nullptr;
};

class EventPool {
public:
    static EventPool& instance();

    // A timing-enabled event (cudaEventDefault: spin-waits, no BlockingSync latency) on `device`.
    // Creates one only when the device's free list is empty. Throws CudaError.
    EventLease acquire(int device);

    // Counters for tests and reports: events ever created, and events currently free, on `device`.
    std::size_t created(int device) const;
    std::size_t available(int device) const;

private:
    friend class EventLease;
    EventPool() = default;
    void release(int device, cudaEvent_t event) noexcept;
    struct Impl;
    Impl& impl() const;
};

}  // namespace gpuchrono
