#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/device_clock/buffer_pool.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
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
}  // namespace

struct ProbeBufferPool::Impl {
    struct PerDevice {
        std::vector<Buffer> free;
        std::size_t allocated = 0;
        std::size_t abandoned = 0;
    };
    mutable std::mutex mutex;
    std::map<int, PerDevice> devices;
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
    {
        std::lock_guard lock(impl().mutex);
        auto& free = impl().devices[device].free;
        auto best = free.end();
        for (auto it = free.begin(); it != free.end(); ++it)
            if (it->capacity >= records && (best == free.end() || it->capacity < best->capacity)) best = it;
        if (best != free.end()) {
            const Buffer b = *best;
            free.erase(best);
            return ProbeBufferLease(device, b.device_memory, b.host_memory, b.capacity);
        }
    }
    // Allocated outside the lock: cudaMalloc can synchronise and take long.
    const std::size_t capacity = std::bit_ceil(std::max(records, min_records));
    const std::size_t bytes = probe_bytes(capacity);
    const std::string what = "allocating a " + std::to_string(bytes) + "-byte probe buffer (" +
                             std::to_string(capacity) + " record slots) on device " + std::to_string(device);
    DeviceGuard on(device);
    void* d = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&d, bytes), what);
    void* h = nullptr;
    const cudaError_t e = cudaMallocHost(&h, bytes);
    if (e != cudaSuccess) {
        (void)cudaFree(d);
        check(e, "cudaMallocHost(&h, bytes)", what + " (its pinned host mirror)");
    }
    std::lock_guard lock(impl().mutex);
    ++impl().devices[device].allocated;
    return ProbeBufferLease(device, d, h, capacity);
}

void ProbeBufferPool::release(int device, void* device_memory, void* host_memory, std::size_t capacity,
                              bool in_flight) noexcept {
    try {
        std::lock_guard lock(impl().mutex);
        auto& d = impl().devices[device];
        if (in_flight)
            ++d.abandoned;
        else
            d.free.push_back(Buffer{device_memory, host_memory, capacity});
    } catch (...) {
        // Out of memory growing the free list: the buffer leaks rather than being freed under pending work.
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
    if (device_memory_) ProbeBufferPool::instance().release(device_, device_memory_, host_memory_, capacity_, in_flight_);
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
        in_flight_ = std::exchange(o.in_flight_, false);
    }
    return *this;
}

ProbeBufferLease::~ProbeBufferLease() { give_back(); }

}  // namespace gpuchrono
