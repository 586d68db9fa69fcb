#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/policies/event_pool.hpp>

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gpuchrono {

struct EventPool::Impl {
    struct PerDevice {
        std::vector<cudaEvent_t> free;
        std::size_t created = 0;
    };
    mutable std::mutex mutex;
    std::map<int, PerDevice> devices;
};

EventPool& EventPool::instance() {
    static EventPool* pool = new EventPool();  // intentionally never destroyed (see header)
    return *pool;
}

EventPool::Impl& EventPool::impl() const {
    static Impl* impl = new Impl();
    return *impl;
}

EventLease EventPool::acquire(int device) {
    {
        std::lock_guard lock(impl().mutex);
        auto& d = impl().devices[device];
        if (!d.free.empty()) {
            cudaEvent_t e = d.free.back();
            d.free.pop_back();
            return EventLease(device, e);
        }
    }
    // Created outside the lock: cudaEventCreate can take long on first use of a device.
    DeviceGuard on(device);
    cudaEvent_t e = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDefault),
                         "creating a timing event for the pool on device " + std::to_string(device));
    std::lock_guard lock(impl().mutex);
    ++impl().devices[device].created;
    return EventLease(device, e);
}

void EventPool::release(int device, cudaEvent_t event) noexcept {
    try {
        std::lock_guard lock(impl().mutex);
        impl().devices[device].free.push_back(event);
    } catch (...) {
        // Out of memory growing the free list: the event leaks rather than being destroyed under a
        // possibly pending record.
    }
}

std::size_t EventPool::created(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.created;
}

std::size_t EventPool::available(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.free.size();
}

EventLease& EventLease::operator=(EventLease&& o) noexcept {
    if (this != &o) {
        if (event_) EventPool::instance().release(device_, event_);
        device_ = o.device_;
        event_ = std::exchange(o.event_, nullptr);
    }
    return *this;
}

EventLease::~EventLease() {
    if (event_) EventPool::instance().release(device_, event_);
}

}  // namespace gpuchrono
