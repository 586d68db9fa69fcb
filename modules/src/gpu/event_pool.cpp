// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include "gpu/context_id.hpp"
#include <gpuchrono/gpu/pools.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include <gpuchrono/gpu/event_pool.hpp>

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
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

// A timer's pair goes back to its thread's own slot and the thread's next timer takes it from there: no lock
// and no map lookup per scope. On the H100 the pool's lock, lookup and context check in place between a
// scope's CUDA calls cost 0.07x of a raw event pair (bench_event_policy_cost [1]), about twice
// what they cost timed alone. The pool can still reach every idle event: it lists the slots and takes a full
// one over (full -> taking -> empty) when it counts or releases; the owner only fills an empty slot and only
// empties a full one, each with one atomic operation on a line no other thread touches.
struct ThreadPair {
    enum : int { empty, full, taking };
    std::atomic<int> state{empty};
    int device = -1;
    std::uint64_t context = 0;  // never 0 while full
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
};

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
    std::atomic<bool> closing{false};  // `closed`, read without the lock by the threads' own pairs
    std::vector<ThreadPair*> thread_pairs;  // every live thread's pair (below), so the pool can gather them

    // Puts events back on `device`'s free list, or counts them forgotten (their context died) or, once closed,
    // destroyed (the caller destroys that many, outside the lock). Under `mutex`.
    std::size_t put_back_locked(int device, std::span<const cudaEvent_t> events, std::uint64_t context) {
        auto& d = devices[device];
        if (context != 0 && d.context != 0 && context != d.context) {
            d.forgotten += events.size();  // made in a context that has since been destroyed
            return 0;
        }
        if (closed) {
            d.destroyed += events.size();
            return events.size();
        }
        d.free.insert(d.free.end(), events.begin(), events.end());
        return 0;
    }

    // Takes a full slot's pair over into the pool (put_back_locked): returns how many of `events` the caller
    // must destroy outside the lock (only once closed). Under `mutex`.
    std::size_t take_over_locked(ThreadPair& t, std::array<cudaEvent_t, 2>& events, int& device) {
        int full = ThreadPair::full;
        if (!t.state.compare_exchange_strong(full, ThreadPair::taking, std::memory_order_acquire)) return 0;
        events = {t.start, t.stop};
        device = t.device;
        const std::uint64_t context = t.context;
        t.state.store(ThreadPair::empty, std::memory_order_release);
        return put_back_locked(device, events, context);
    }

    // Takes every thread's idle pair into the free lists, so that counting and releasing see them. Under `mutex`.
    // Once closed, a pair kept in the moment before (keep_for_this_thread read `closing` just before close() set
    // it) stays in its slot and is destroyed when its thread ends.
    void gather_thread_pairs_locked() {
        if (closed) return;
        std::array<cudaEvent_t, 2> events{};
        int device = -1;
        for (ThreadPair* t : thread_pairs) (void)take_over_locked(*t, events, device);
    }
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
    // On the H100 (bench_first_scope [1] "raw") the first pair of fresh events a process recorded
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

// The thread's slot: registered with the pool at the thread's first kept pair, given back to the pool when the
// thread ends (the idle pair with it).
struct ThreadPairSlot {
    ThreadPair* pair = nullptr;

    ThreadPairSlot() = default;
    ThreadPairSlot(const ThreadPairSlot&) = delete;
    ThreadPairSlot& operator=(const ThreadPairSlot&) = delete;
    ~ThreadPairSlot() {
        if (!pair) return;
        EventPool::Impl& impl = EventPool::instance().impl();
        std::array<cudaEvent_t, 2> both{};
        int device = -1;
        std::size_t destroy_now = 0;
        {
            std::lock_guard lock(impl.mutex);
            std::erase(impl.thread_pairs, pair);
            try {
                destroy_now = impl.take_over_locked(*pair, both, device);
            } catch (...) {
                // Out of memory growing the free list: the two events leak.
            }
        }
        for (std::size_t i = 0; i < destroy_now; ++i) destroy_event(device, both[i], nullptr);
        delete pair;
    }

    // The slot, registered now if it is not yet; null when that failed (out of memory).
    ThreadPair* registered(EventPool::Impl& impl) noexcept {
        if (pair) return pair;
        try {
            auto fresh = std::make_unique<ThreadPair>();
            std::lock_guard lock(impl.mutex);
            impl.thread_pairs.push_back(fresh.get());
            pair = fresh.release();
        } catch (...) {
            // Without a slot the thread's pairs go through the pool's lock, as every pair did before.
        }
        return pair;
    }
};

namespace {
thread_local ThreadPairSlot this_thread_pair;
}  // namespace

bool EventPool::keep_for_this_thread(int device, cudaEvent_t start, cudaEvent_t stop, std::uint64_t context) noexcept {
    if (context == 0 || impl().closing.load(std::memory_order_relaxed)) return false;
    ThreadPair* t = this_thread_pair.registered(impl());
    if (!t || t->state.load(std::memory_order_acquire) != ThreadPair::empty) return false;
    t->device = device;
    t->context = context;
    t->start = start;
    t->stop = stop;
    t->state.store(ThreadPair::full, std::memory_order_release);
    return true;
}

EventLease EventPool::acquire(int device) {
    return std::move(acquire_n<1>(device)[0]);
}

std::pair<EventLease, EventLease> EventPool::acquire_pair(int device) {
    if (ThreadPair* t = this_thread_pair.pair) {
        int full = ThreadPair::full;
        if (t->state.compare_exchange_strong(full, ThreadPair::empty, std::memory_order_acquire)) {
            const std::array<cudaEvent_t, 2> both = {t->start, t->stop};
            // The context current on this thread is the one the pair was made in: the device is current, its
            // context alive and the events good (as the pool's own fast path below).
            if (t->device == device && detail::current_context_id() == t->context)
                return {EventLease(device, both[0], t->context), EventLease(device, both[1], t->context)};
            release(t->device, both, t->context);  // another device, or a context since destroyed
        }
    }
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

void EventPool::release(int device, std::span<const cudaEvent_t> events, std::uint64_t context) noexcept {
    std::size_t destroy_now = 0;
    try {
        std::lock_guard lock(impl().mutex);
        destroy_now = impl().put_back_locked(device, events, context);
    } catch (...) {
        // Out of memory growing the free list: the events leak rather than being destroyed under a
        // possibly pending record.
    }
    for (std::size_t i = 0; i < destroy_now; ++i) destroy_event(device, events[i], nullptr);
}

std::size_t EventPool::release_idle() {
    std::map<int, std::pair<std::uint64_t, std::vector<cudaEvent_t>>> taken;
    {
        std::lock_guard lock(impl().mutex);
        impl().gather_thread_pairs_locked();
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
            impl().gather_thread_pairs_locked();
            impl().closed = true;
            impl().closing.store(true, std::memory_order_relaxed);
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
    impl().gather_thread_pairs_locked();
    auto it = impl().devices.find(device);
    return it == impl().devices.end() ? 0 : it->second.free.size();
}

void EventLease::return_together(EventLease& a, EventLease& b) noexcept {
    if (a.event_ && b.event_ && a.device_ == b.device_ && a.context_ == b.context_) {
        if (EventPool::instance().keep_for_this_thread(a.device_, a.event_, b.event_, a.context_)) {
            a.event_ = nullptr;
            b.event_ = nullptr;
            return;
        }
        const std::array<cudaEvent_t, 2> both = {std::exchange(a.event_, nullptr), std::exchange(b.event_, nullptr)};
        EventPool::instance().release(a.device_, both, a.context_);
        return;
    }
    a = EventLease();
    b = EventLease();
}

EventLease& EventLease::operator=(EventLease&& o) noexcept {
    if (this != &o) {
        if (event_) EventPool::instance().release(device_, std::span(&event_, 1), context_);
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
    if (event_) EventPool::instance().release(device_, std::span(&event_, 1), context_);
}

}  // namespace gpuchrono
