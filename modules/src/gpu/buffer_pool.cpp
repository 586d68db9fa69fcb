// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/buffer_pool.hpp>
#include "gpu/context_id.hpp"
#include <gpuchrono/gpu/pools.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {
struct Buffer {
    void* device_memory;
    void* host_memory;
    std::size_t capacity;
};
constexpr std::size_t min_records = 64;

// Frees one buffer on `device`; the first failure goes into `first` (when given). Leaves the current device
// as it found it.
void free_buffer(int device, const Buffer& b, std::optional<CudaError>* first) noexcept {
    int previous = -1;
    const bool switch_device = cudaGetDevice(&previous) == cudaSuccess && previous != device;
    if (switch_device) (void)cudaSetDevice(device);
    const std::string where = "freeing a probe buffer on device " + std::to_string(device);
    const cudaError_t d = cudaFree(b.device_memory);
    const cudaError_t h = cudaFreeHost(b.host_memory);
    if (first && !*first) {
        if (d != cudaSuccess) first->emplace(d, "cudaFree(device_memory)", where, std::source_location::current());
        else if (h != cudaSuccess) first->emplace(h, "cudaFreeHost(host_memory)", where + " (its pinned host mirror)",
                           std::source_location::current());
    }
    if (d != cudaSuccess || h != cudaSuccess) (void)cudaGetLastError();
    if (switch_device) (void)cudaSetDevice(previous);
}

}  // namespace

struct ProbeBufferPool::Impl {
    struct PerDevice {
        std::uint64_t context = 0;  // the context the buffers below were made in (0: none yet, or unknown)
        std::vector<Buffer> free;
        std::vector<Buffer> abandoned_buffers;  // in flight when their lease ended: freed after a device sync
        std::size_t allocated = 0;
        std::size_t abandoned = 0;
        std::size_t freed = 0;
        std::size_t forgotten = 0;

        // The device's context is not the one these buffers were made in: they died with theirs.
        void forget_for(std::uint64_t current) {
            if (current == 0 || context == current) return;
            forgotten += free.size() + abandoned_buffers.size();
            free.clear();
            abandoned_buffers.clear();
            context = current;
        }
    };
    mutable std::mutex mutex;
    std::map<int, PerDevice> devices;
    bool closed = false;  // the exit handler ran: buffers are freed as their leases end
};

ProbeBufferPool& ProbeBufferPool::instance() {
    static ProbeBufferPool* pool = new ProbeBufferPool();  // intentionally never destroyed (see header)
    return *pool;
}

ProbeBufferPool::Impl& ProbeBufferPool::impl() const {
    static Impl* impl = new Impl();
    return *impl;
}

ProbeBufferLease ProbeBufferPool::acquire(int device, std::size_t records) {
    if (records == 0) throw std::invalid_argument("gpuchrono::ProbeBufferPool::acquire: 0 record slots asked for");
    DeviceGuard on(device);
    const std::uint64_t context = detail::runtime_context_id();
    {
        std::lock_guard lock(impl().mutex);
        auto& per_device = impl().devices[device];
        per_device.forget_for(context);
        auto& free = per_device.free;
        auto best = free.end();
        for (auto it = free.begin(); it != free.end(); ++it)
            if (it->capacity >= records && (best == free.end() || it->capacity < best->capacity)) best = it;
        if (best != free.end()) {
            const Buffer b = *best;
            free.erase(best);
            return ProbeBufferLease(device, context, b.device_memory, b.host_memory, b.capacity);
        }
    }
    // Allocated outside the lock: cudaMalloc can synchronise and take long.
    const std::size_t capacity = std::bit_ceil(std::max(records, min_records));
    const std::size_t bytes = probe_bytes(capacity);
    const std::string what = "allocating a " + std::to_string(bytes) + "-byte probe buffer (" +
                             std::to_string(capacity) + " record slots) on device " + std::to_string(device);
    void* d = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&d, bytes), what);
    void* h = nullptr;
    const cudaError_t e = cudaMallocHost(&h, bytes);
    if (e != cudaSuccess) {
        (void)cudaFree(d);
        check(e, "cudaMallocHost(&h, bytes)", what + " (its pinned host mirror)");
    }
    detail::release_pools_at_exit();  // registered after the runtime's own teardown, so it runs before it
    std::lock_guard lock(impl().mutex);
    ++impl().devices[device].allocated;
    return ProbeBufferLease(device, context, d, h, capacity);
}

void ProbeBufferPool::release(int device, std::uint64_t context, void* device_memory, void* host_memory,
                              std::size_t capacity, bool in_flight) noexcept {
    const Buffer b{device_memory, host_memory, capacity};
    bool free_now = false;
    try {
        std::lock_guard lock(impl().mutex);
        auto& d = impl().devices[device];
        if (context != 0 && d.context != 0 && context != d.context) {
            ++d.forgotten;  // made in a context that has since been destroyed: its memory went with it
            return;
        }
        if (in_flight) ++d.abandoned;
        if (impl().closed && !in_flight) {
            free_now = true;
            ++d.freed;
        } else if (in_flight) {
            d.abandoned_buffers.push_back(b);
        } else {
            d.free.push_back(b);
        }
    } catch (...) {
        // Out of memory growing a list: the buffer leaks rather than being freed under pending work.
    }
    if (free_now) free_buffer(device, b, nullptr);
}

std::size_t ProbeBufferPool::release_idle() {
    std::map<int, Impl::PerDevice> taken;
    {
        std::lock_guard lock(impl().mutex);
        for (auto& [device, d] : impl().devices) {
            Impl::PerDevice& t = taken[device];
            t.context = d.context;
            t.free.swap(d.free);
            t.abandoned_buffers.swap(d.abandoned_buffers);
        }
    }
    std::optional<CudaError> first;
    std::size_t freed = 0;
    std::map<int, std::pair<std::size_t, std::size_t>> counts;  // device -> freed, forgotten
    for (auto& [device, t] : taken) {
        if (t.free.empty() && t.abandoned_buffers.empty()) continue;
        int previous = -1;
        const bool switch_device = cudaGetDevice(&previous) == cudaSuccess && previous != device;
        if (switch_device) (void)cudaSetDevice(device);
        const std::uint64_t current = detail::runtime_context_id();
        if (current != 0 && t.context != 0 && current != t.context) {
            counts[device].second += t.free.size() + t.abandoned_buffers.size();  // died with their context
        } else {
            if (!t.abandoned_buffers.empty()) {
                // GPU work enqueued before the lease ended may still write into them.
                const cudaError_t e = cudaDeviceSynchronize();
                if (e != cudaSuccess) {
                    (void)cudaGetLastError();
                    if (!first)
                        first.emplace(e, "cudaDeviceSynchronize()",
                                      "waiting for device " + std::to_string(device) +
                                          " before freeing probe buffers abandoned in flight",
                                      std::source_location::current());
                }
                // A failed wait means a broken context: its memory is gone with it, and freeing is harmless.
            }
            for (const Buffer& b : t.free) free_buffer(device, b, &first);
            for (const Buffer& b : t.abandoned_buffers) free_buffer(device, b, &first);
            counts[device].first += t.free.size() + t.abandoned_buffers.size();
            freed += t.free.size() + t.abandoned_buffers.size();
        }
        if (switch_device) (void)cudaSetDevice(previous);
    }
    {
        std::lock_guard lock(impl().mutex);
        for (const auto& [device, c] : counts) {
            impl().devices[device].freed += c.first;
            impl().devices[device].forgotten += c.second;
        }
    }
    if (first) throw *first;
    return freed;
}

void ProbeBufferPool::close() noexcept {
    try {
        {
            std::lock_guard lock(impl().mutex);
            impl().closed = true;
        }
        (void)release_idle();
    } catch (...) {
        // At exit nothing can be reported usefully: a poisoned context refuses the frees, and its memory goes
        // with it (docs/errors.md).
    }
}

std::size_t ProbeBufferPool::allocated(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.allocated;
}

std::size_t ProbeBufferPool::available(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.free.size();
}

std::size_t ProbeBufferPool::abandoned(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.abandoned;
}

std::size_t ProbeBufferPool::freed(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.freed;
}

std::size_t ProbeBufferPool::forgotten(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.forgotten;
}

DeviceProbe ProbeBufferLease::probe(std::uint32_t capacity_blocks, std::uint32_t region_count) const {
    if (!device_memory_) throw std::logic_error("gpuchrono::ProbeBufferLease::probe: empty lease");
    if (static_cast<std::size_t>(capacity_blocks) * region_count > capacity_)
        throw std::invalid_argument("gpuchrono::ProbeBufferLease::probe: " + std::to_string(capacity_blocks) +
                                    " blocks x " + std::to_string(region_count) + " regions exceed the buffer's " +
                                    std::to_string(capacity_) + " record slots");
    DeviceProbe p;
    p.header = static_cast<ProbeHeader*>(device_memory_);
    p.records = reinterpret_cast<ProbeRecord*>(static_cast<char*>(device_memory_) + probe_records_offset);
    p.capacity_blocks = capacity_blocks;
    p.region_count = region_count;
    return p;
}

std::span<const ProbeRecord> ProbeBufferLease::host_records(std::size_t count) const {
    if (count > capacity_)
        throw std::invalid_argument("gpuchrono::ProbeBufferLease::host_records: " + std::to_string(count) +
                                    " records asked for, the buffer holds " + std::to_string(capacity_));
    return {reinterpret_cast<const ProbeRecord*>(static_cast<const char*>(host_memory_) + probe_records_offset), count};
}

void ProbeBufferLease::give_back() noexcept {
    if (device_memory_)
        ProbeBufferPool::instance().release(device_, context_, device_memory_, host_memory_, capacity_, in_flight_);
    device_memory_ = nullptr;
    host_memory_ = nullptr;
    capacity_ = 0;
    in_flight_ = false;
}

ProbeBufferLease& ProbeBufferLease::operator=(ProbeBufferLease&& o) noexcept {
    if (this != &o) {
        give_back();
        device_ = o.device_;
        device_memory_ = std::exchange(o.device_memory_, nullptr);
        host_memory_ = std::exchange(o.host_memory_, nullptr);
        capacity_ = std::exchange(o.capacity_, 0);
        context_ = o.context_;
        in_flight_ = std::exchange(o.in_flight_, false);
    }
    return *this;
}

ProbeBufferLease::~ProbeBufferLease() { give_back(); }

}  // namespace gpuchrono
