// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// EventPool: timing events are created once per device and reused, so a warm ScopedTimer<EventPolicy>
// makes no cudaEventCreate call (creation costs microseconds and can synchronise).
//
// The pool is process-wide and thread-safe; each thread keeps its last timer's pair of events for its next one
// (no lock per scope), and the pool takes those pairs back whenever it counts or releases its events. Its events are destroyed at exit (before the CUDA runtime's own
// teardown) and by gpuchrono::release_pools() (gpu/pools.hpp); the pool object itself is never destroyed, so a
// lease that ends during static destruction still finds it. Events are tagged with the CUDA context they were
// made in (gpu/context_id.hpp): after cudaDeviceReset the old ones are forgotten, never lent or destroyed again.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

namespace gpuchrono {

// One event on loan from the pool; it goes back when the lease ends. Move-only.
class EventLease {
public:
    EventLease() noexcept = default;
    // `context`: the id of the CUDA context the event was made in (gpu/context_id.hpp), 0 if unknown.
    EventLease(int device, cudaEvent_t event, std::uint64_t context = 0) noexcept
        : device_(device), event_(event), context_(context) {}
    EventLease(EventLease&& o) noexcept
        : device_(o.device_), event_(std::exchange(o.event_, nullptr)), context_(o.context_) {}
    EventLease& operator=(EventLease&& o) noexcept;
    EventLease(const EventLease&) = delete;
    EventLease& operator=(const EventLease&) = delete;
    ~EventLease();

    cudaEvent_t get() const noexcept { return event_; }
    int device() const noexcept { return device_; }
    explicit operator bool() const noexcept { return event_ != nullptr; }

    // True when the event's context has been destroyed since it was made (cudaDeviceReset): the handle is
    // dead and must not be passed to CUDA. False when alive or unknown. Two driver calls, no synchronisation.
    bool context_destroyed() const noexcept;

    // Ends both leases together, as a timer's start and stop events go back: into this thread's slot for its
    // next timer when the slot is empty, else to the pool with one lock instead of two.
    static void return_together(EventLease& a, EventLease& b) noexcept;

private:
    int device_ = -1;
    cudaEvent_t event_ = nullptr;
    std::uint64_t context_ = 0;
};

class EventPool {
public:
    static EventPool& instance();

    // A timing-enabled event (cudaEventDefault: spin-waits, no BlockingSync latency) on `device`.
    // Creates one only when the device's free list is empty. Throws CudaError.
    EventLease acquire(int device);
    // Two events at once, for a timer's start and stop: the pair this thread gave back last when it is of this
    // device and the current context (one context check, no lock), else from the pool under its lock.
    std::pair<EventLease, EventLease> acquire_pair(int device);

    // Counters for tests and reports, on `device`: events ever created, events free now, events destroyed
    // (by release_pools or at exit), and events forgotten because their context was destroyed (cudaDeviceReset).
    std::size_t created(int device) const;
    std::size_t available(int device) const;
    std::size_t destroyed(int device) const;
    std::size_t forgotten(int device) const;

    // Destroys the free events (see release_pools in gpu/pools.hpp). Returns how many; throws CudaError for
    // the first failure after trying them all.
    std::size_t release_idle();
    // At exit: destroys what is free, ignoring errors, and from then on each event as its lease ends.
    void close() noexcept;

private:
    friend class EventLease;
    friend struct ThreadPairSlot;  // event_pool.cpp: each thread keeps its last timer's pair
    EventPool() = default;
    // Keeps a timer's returned pair in this thread's slot for its next timer; false when the slot is taken.
    bool keep_for_this_thread(int device, cudaEvent_t start, cudaEvent_t stop, std::uint64_t context) noexcept;
    void release(int device, std::span<const cudaEvent_t> events, std::uint64_t context) noexcept;
    template <std::size_t N>
    std::array<EventLease, N> acquire_n(int device);
    struct Impl;
    Impl& impl() const;
};

}  // namespace gpuchrono
