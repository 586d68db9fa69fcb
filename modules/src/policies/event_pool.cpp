#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/context_id.hpp>
#include <gpuchrono/gpu/pools.hpp>
#include <gpuchrono/gpu/stream_state.hpp>
#include <gpuchrono/policies/event_pool.hpp>

#include <array>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {
// Destroys one event of `device`; the first failure goes into `first` (when given).
void destroy_event(int device, cudaEvent_t event, std::optional<CudaError>* first) noexcept {
    int previous = -1;
    const bool switch_device = cudaGetDevice(&previous) == cudaSuccess && previous != device;
    if (switch_device) (void)cudaSetDevice(device);
    const cudaError_t e = cudaEventDestroy(event);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        if (first && !*first)
            first->emplace(e, "cudaEventDestroy(event)", "destroying a pooled timing event on device " + std::to_string(device),
                           std::source_location::current());
    }
    if (switch_device) (void)cudaSetDevice(previous);
}
}  // namespace

struct EventPool::Impl {
    struct PerDevice {
        std::uint64_t context = 0;  // the context the events below were made in (0: none yet, or unknown)
        std::vector<cudaEvent_t> free;
        std::size_t created = 0;
        std::size_t destroyed = 0;
        std::size_t forgotten = 0;

        // The device's context is not the one these events were made in: they died with theirs.
        void forget_for(std::uint64_t current) {
            if (current == 0 || context == current) return;
            forgotten += free.size();
            free.clear();
            context = current;
        }
    };
    mutable std::mutex mutex;
    std::map<int, PerDevice> devices;
    bool closed = false;  // the exit handler ran: events are destroyed as their leases end
};

EventPool& EventPool::instance() {
    static EventPool* pool = new EventPool();  // intentionally never destroyed (see header)
    return *pool;
}

EventPool::Impl& EventPool::impl() const {
    static Impl* impl = new Impl();
    return *impl;
}

namespace {
// Created outside the pool's lock: cudaEventCreate can take long on first use of a device.
cudaEvent_t create_event(int device) {
    cudaEvent_t e = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDefault),
                         "creating a timing event for the pool on device " + std::to_string(device));
    detail::release_pools_at_exit();  // registered after the runtime's own teardown, so it runs before it
    // Recorded once now, on a stream of its own, and waited for: an event's first record is slow on the GPU side.
    // On the H100 (issue 27, bench/kernel_policy [4] "raw") the first pair of fresh events a process recorded
    // around a 10 us spin read +39..+66% above the same pair's steady median while the launch call between
    // them was not slower; a pooled event would otherwise pay that inside the first timer's interval.
    RelaxedCaptureMode relaxed;  // another stream of this thread may be capturing; this one is not
    cudaStream_t own = nullptr;
    const std::string where = " for a new pool event on device " + std::to_string(device);
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking), "creating a stream" + where);
    const cudaError_t recorded = cudaEventRecord(e, own);
    const cudaError_t waited = recorded == cudaSuccess ? cudaEventSynchronize(e) : recorded;
    (void)cudaStreamDestroy(own);
    if (waited != cudaSuccess) (void)cudaEventDestroy(e);
    GPUCHRONO_CUDA_CHECK(waited, "recording and waiting for the first record" + where);
    return e;
}
}  // namespace

EventLease EventPool::acquire(int device) {
    return std::move(acquire_n<1>(device)[0]);
}

std::pair<EventLease, EventLease> EventPool::acquire_pair(int device) {
    std::array<EventLease, 2> two = acquire_n<2>(device);
    return {std::move(two[0]), std::move(two[1])};
}

template <std::size_t N>
std::array<EventLease, N> EventPool::acquire_n(int device) {
    std::array<EventLease, N> out;
    // The common case asks no device (cudaGetDevice was a quarter of a lease's cost on the H100): the context
    // current on this thread is the one the device's free events were made in, so the device is current, its
    // context alive, and the events good. Context ids are unique for the life of the process (cuCtxGetId).
    if (const std::uint64_t current = detail::current_context_id(); current != 0) {
        std::lock_guard lock(impl().mutex);
        auto& d = impl().devices[device];
        if (d.context == current && d.free.size() >= N) {
            for (EventLease& lease : out) {
                lease = EventLease(device, d.free.back(), current);
                d.free.pop_back();
            }
            return out;
        }
    }
    DeviceGuard on(device);
    const std::uint64_t context = detail::runtime_context_id();
    std::size_t taken = 0;
    {
        std::lock_guard lock(impl().mutex);
        auto& d = impl().devices[device];
        d.forget_for(context);
        for (; taken < N && !d.free.empty(); ++taken) {
            out[taken] = EventLease(device, d.free.back(), context);
            d.free.pop_back();
        }
    }
    for (std::size_t i = taken; i < N; ++i) {
        out[i] = EventLease(device, create_event(device), context);
        std::lock_guard lock(impl().mutex);
        ++impl().devices[device].created;
    }
    return out;
}

void EventPool::release(int device, cudaEvent_t event, std::uint64_t context) noexcept {
    bool destroy_now = false;
    try {
        std::lock_guard lock(impl().mutex);
        auto& d = impl().devices[device];
        if (context != 0 && d.context != 0 && context != d.context) {
            ++d.forgotten;  // made in a context that has since been destroyed
            return;
        }
        if (impl().closed) {
            destroy_now = true;
            ++d.destroyed;
        } else {
            d.free.push_back(event);
        }
    } catch (...) {
        // Out of memory growing the free list: the event leaks rather than being destroyed under a
        // possibly pending record.
    }
    if (destroy_now) destroy_event(device, event, nullptr);
}

std::size_t EventPool::release_idle() {
    std::map<int, std::pair<std::uint64_t, std::vector<cudaEvent_t>>> taken;
    {
        std::lock_guard lock(impl().mutex);
        for (auto& [device, d] : impl().devices) {
            taken[device].first = d.context;
            taken[device].second.swap(d.free);
        }
    }
    std::optional<CudaError> first;
    std::size_t destroyed = 0;
    std::map<int, std::pair<std::size_t, std::size_t>> counts;  // device -> destroyed, forgotten
    for (auto& [device, t] : taken) {
        if (t.second.empty()) continue;
        int previous = -1;
        const bool switch_device = cudaGetDevice(&previous) == cudaSuccess && previous != device;
        if (switch_device) (void)cudaSetDevice(device);
        const std::uint64_t current = detail::runtime_context_id();
        if (switch_device) (void)cudaSetDevice(previous);
        if (current != 0 && t.first != 0 && current != t.first) {
            counts[device].second += t.second.size();  // died with their context
            continue;
        }
        // An event may be destroyed while a record on it is pending: the driver releases it once complete.
        for (cudaEvent_t e : t.second) destroy_event(device, e, &first);
        counts[device].first += t.second.size();
        destroyed += t.second.size();
    }
    {
        std::lock_guard lock(impl().mutex);
        for (const auto& [device, c] : counts) {
            impl().devices[device].destroyed += c.first;
            impl().devices[device].forgotten += c.second;
        }
    }
    if (first) throw *first;
    return destroyed;
}

void EventPool::close() noexcept {
    try {
        {
            std::lock_guard lock(impl().mutex);
            impl().closed = true;
        }
        (void)release_idle();
    } catch (...) {
        // At exit nothing can be reported usefully (docs/errors.md).
    }
}

std::size_t EventPool::destroyed(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.destroyed;
}

std::size_t EventPool::forgotten(int device) const {
    std::lock_guard lock(impl().mutex);
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.forgotten;
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
        if (event_) EventPool::instance().release(device_, event_, context_);
        device_ = o.device_;
        event_ = std::exchange(o.event_, nullptr);
        context_ = o.context_;
    }
    return *this;
}

bool EventLease::context_destroyed() const noexcept {
    if (!event_ || context_ == 0) return false;
    int previous = -1;
    const bool switch_device = cudaGetDevice(&previous) == cudaSuccess && previous != device_;
    if (switch_device) (void)cudaSetDevice(device_);
    const std::uint64_t current = detail::runtime_context_id();
    if (switch_device) (void)cudaSetDevice(previous);
    return current != 0 && current != context_;
}

EventLease::~EventLease() {
    if (event_) EventPool::instance().release(device_, event_, context_);
}

}  // namespace gpuchrono
