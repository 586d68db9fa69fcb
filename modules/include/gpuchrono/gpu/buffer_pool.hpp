// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ProbeBufferPool: device memory for in-kernel probes, with a pinned host mirror to copy it back into,
// allocated once and reused, so a warm ScopedTimer<DeviceClockPolicy> makes no cudaMalloc (which can
// synchronise the device) and no cudaMallocHost.
//
// A buffer is lent for one timed scope. While GPU work may still touch it (between the clearing memset
// and the end of the copy back) the lease is "in flight"; a lease that ends in flight (the scope was
// abandoned, or a CUDA error stopped it) is never lent again, since a kernel may still write into it: it is
// counted as abandoned and kept aside until gpuchrono::release_pools() (or the exit) frees it after waiting for
// its device.
//
// Like EventPool, the pool is process-wide and thread-safe. Its memory is freed at exit and by
// gpuchrono::release_pools() (gpu/pools.hpp); the pool object itself is never destroyed, so a lease that ends
// during static destruction still finds it. Buffers are tagged with the CUDA context they were made in
// (gpu/context_id.hpp): after cudaDeviceReset the old ones are forgotten, never lent or freed again.
#pragma once

#include <gpuchrono/core/probe_layout.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

namespace gpuchrono {

class ProbeBufferLease {
public:
    ProbeBufferLease() noexcept = default;
    ProbeBufferLease(ProbeBufferLease&& o) noexcept
        : device_(o.device_), device_memory_(std::exchange(o.device_memory_, nullptr)),
          host_memory_(std::exchange(o.host_memory_, nullptr)), capacity_(std::exchange(o.capacity_, 0)),
          context_(o.context_), in_flight_(std::exchange(o.in_flight_, false)) {}
    ProbeBufferLease& operator=(ProbeBufferLease&& o) noexcept;
    ProbeBufferLease(const ProbeBufferLease&) = delete;
    ProbeBufferLease& operator=(const ProbeBufferLease&) = delete;
    ~ProbeBufferLease();

    explicit operator bool() const noexcept { return device_memory_ != nullptr; }
    int device() const noexcept { return device_; }
    std::size_t capacity_records() const noexcept { return capacity_; }

    // Device memory: header at offset 0, records at probe_records_offset.
    void* device_memory() const noexcept { return device_memory_; }
    // Pinned host memory of the same size, for the copy back.
    void* host_memory() const noexcept { return host_memory_; }

    // The probe a kernel gets over this memory. capacity_blocks x region_count must fit the buffer.
    DeviceProbe probe(std::uint32_t capacity_blocks, std::uint32_t region_count) const;

    // The host mirror, read after the copy back has completed.
    const ProbeHeader& host_header() const noexcept { return *static_cast<const ProbeHeader*>(host_memory_); }
    std::span<const ProbeRecord> host_records(std::size_t count) const;

    // Set once GPU work that touches the buffer is enqueued; cleared once that work is known complete.
    void mark_in_flight() noexcept { in_flight_ = true; }
    void mark_idle() noexcept { in_flight_ = false; }
    bool in_flight() const noexcept { return in_flight_; }

private:
    friend class ProbeBufferPool;
    ProbeBufferLease(int device, std::uint64_t context, void* device_memory, void* host_memory,
                     std::size_t capacity) noexcept
        : device_(device), device_memory_(device_memory), host_memory_(host_memory), capacity_(capacity),
          context_(context) {}
    void give_back() noexcept;

    int device_ = -1;
    void* device_memory_ = nullptr;
    void* host_memory_ = nullptr;
    std::size_t capacity_ = 0;  // record slots
    std::uint64_t context_ = 0;  // the CUDA context it was made in (0: unknown)
    bool in_flight_ = false;
};

class ProbeBufferPool {
public:
    static ProbeBufferPool& instance();

    // A buffer on `device` with room for at least `records` record slots. Reuses the smallest free buffer
    // that is large enough; otherwise allocates one (slots rounded up to a power of two, at least 64).
    // Throws CudaError.
    ProbeBufferLease acquire(int device, std::size_t records);

    // Counters for tests and reports, per device: buffers ever allocated, buffers free now, buffers ever
    // abandoned in flight, buffers freed (by release_pools or at exit), and buffers forgotten because their
    // context was destroyed (cudaDeviceReset).
    std::size_t allocated(int device) const;
    std::size_t available(int device) const;
    std::size_t abandoned(int device) const;
    std::size_t freed(int device) const;
    std::size_t forgotten(int device) const;

    // Frees the idle and abandoned buffers (see release_pools in gpu/pools.hpp). Returns the number of
    // buffers freed; throws CudaError for the first failure after trying them all.
    std::size_t release_idle();
    // At exit: frees what is idle, ignoring errors, and from then on frees each buffer as its lease ends.
    void close() noexcept;

private:
    friend class ProbeBufferLease;
    ProbeBufferPool() = default;
    void release(int device, std::uint64_t context, void* device_memory, void* host_memory, std::size_t capacity,
                 bool in_flight) noexcept;
    struct Impl;
    Impl& impl() const;
};

}  // namespace gpuchrono
