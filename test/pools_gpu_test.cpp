// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The pools give back what they hold: gpuchrono::release_pools() frees every idle event and probe buffer
// (the exit handler does the same at process end: compute-sanitizer --leak-check full checks that), leaves
// leases that are out alone, and timers keep working afterwards.
#include <boost/test/unit_test.hpp>

#include "gpu_fixture.hpp"

#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <gpuchrono/gpuchrono.hpp>  // the internals (pools, stream_device) the module does not export

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
using gpuchrono::Measurement;
namespace kernels = gpuchrono::kernels;

namespace {

bool is_allocated(const void* p) {
    cudaPointerAttributes a{};
    const cudaError_t e = cudaPointerGetAttributes(&a, p);
    (void)cudaGetLastError();
    return e == cudaSuccess && a.type != cudaMemoryTypeUnregistered;
}

void time_one_of_each(cudaStream_t stream) {
    {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
        kernels::launch_spin(Duration::from_us(20), stream);
    }
    gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(stream);
    kernels::launch_spin(Duration::from_us(20), stream, 1, 32, t.policy().probe());
    BOOST_TEST((t.stop().state() == Measurement::State::ok));
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(pools_gpu, GpuStream)

BOOST_AUTO_TEST_CASE(release_pools_frees_idle_events_and_buffers_and_timers_work_after) {
    gpuchrono::ScopedFindingReaction collect{gpuchrono::Reaction::collect};
    const int device = gpuchrono::stream_device(stream);
    auto& events = gpuchrono::EventPool::instance();
    auto& buffers = gpuchrono::ProbeBufferPool::instance();
    time_one_of_each(stream);
    // A buffer on loan across the release: it must survive it.
    gpuchrono::ProbeBufferLease held = buffers.acquire(device, 1);
    void* held_memory = held.device_memory();
    void* held_host = held.host_memory();
    // The address of an idle pooled buffer, to see it freed.
    void* idle_memory = nullptr;
    {
        gpuchrono::ProbeBufferLease idle = buffers.acquire(device, 1);
        idle_memory = idle.device_memory();
    }
    BOOST_REQUIRE(events.available(device) >= 2u);
    BOOST_REQUIRE(buffers.available(device) >= 1u);
    BOOST_TEST(is_allocated(idle_memory));
    const std::size_t destroyed = events.destroyed(device);
    const std::size_t freed = buffers.freed(device);
    const std::size_t idle_events = events.available(device);
    const std::size_t idle_buffers = buffers.available(device);

    gpuchrono::release_pools();

    BOOST_TEST(events.available(device) == 0u);
    BOOST_TEST(buffers.available(device) == 0u);
    BOOST_TEST(events.destroyed(device) == destroyed + idle_events);
    BOOST_TEST(buffers.freed(device) == freed + idle_buffers);
    BOOST_TEST(!is_allocated(idle_memory));  // really given back to the driver
    BOOST_TEST(is_allocated(held_memory));   // the lease that was out is untouched
    BOOST_TEST(is_allocated(held_host));
    held = gpuchrono::ProbeBufferLease();    // back to the pool now
    BOOST_TEST(buffers.available(device) == 1u);

    // Timers allocate anew and measure as before.
    const std::size_t created = events.created(device);
    time_one_of_each(stream);
    BOOST_TEST(events.created(device) >= created + 2);
    gpuchrono::release_pools();
    BOOST_TEST(!is_allocated(held_memory));
}

// Each thread keeps its last timer's pair for its next timer (event_pool.cpp). Those pairs are still the pool's:
// counted and released while their thread lives, handed back when it ends, and a thread whose pair the pool took
// times on as before. Nothing leaks: every event made is destroyed by the final release.
BOOST_AUTO_TEST_CASE(pairs_kept_by_threads_are_counted_released_and_handed_back_at_thread_exit) {
    gpuchrono::ScopedFindingReaction collect{gpuchrono::Reaction::collect};
    const int device = gpuchrono::stream_device(stream);
    auto& events = gpuchrono::EventPool::instance();
    gpuchrono::release_pools();
    BOOST_REQUIRE(events.available(device) == 0u);
    const std::size_t destroyed_before = events.destroyed(device);
    const std::size_t forgotten_before = events.forgotten(device);
    const std::size_t created_before = events.created(device);

    // Boost.Test's assertions are not thread-safe: the threads count what failed, the test checks the count.
    std::atomic<int> failures{0};
    const auto time_twice = [&](cudaStream_t s) {
        for (int i = 0; i < 2; ++i) {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(s);
            kernels::launch_spin(Duration::from_us(20), s);
            if (t.stop().state() != Measurement::State::ok || t.stop().duration() < Duration::from_us(20)) ++failures;
        }
    };
    const auto on_own_stream = [&](const auto& work) {
        cudaStream_t own = nullptr;
        if (cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking) != cudaSuccess) {
            ++failures;
            return;
        }
        work(own);
        if (cudaStreamSynchronize(own) != cudaSuccess || cudaStreamDestroy(own) != cudaSuccess) ++failures;
    };
    // A thread that stays alive with its pair kept, until the pool has counted and released it.
    std::mutex mutex;
    std::condition_variable changed;
    int step = 0;  // 1: the living thread timed; 2: the pool released
    std::thread living([&] {
        on_own_stream([&](cudaStream_t own) {
            time_twice(own);
            std::unique_lock lock(mutex);
            step = 1;
            changed.notify_all();
            changed.wait(lock, [&] { return step == 2; });
            lock.unlock();
            time_twice(own);  // its kept pair was taken: it gets one from the pool, or new events
        });
    });
    {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return step == 1; });
    }
    // The living thread's pair is idle in its slot: the pool counts it and releases it.
    BOOST_TEST(events.available(device) >= 2u);
    gpuchrono::release_pools();
    BOOST_TEST(events.available(device) == 0u);
    BOOST_TEST(events.destroyed(device) >= destroyed_before + 2);
    {
        std::lock_guard lock(mutex);
        step = 2;
        changed.notify_all();
    }
    living.join();
    // Threads that ended: their kept pairs came back to the pool when they ended.
    std::vector<std::thread> ended;
    for (int i = 0; i < 4; ++i)
        ended.emplace_back([&] { on_own_stream(time_twice); });
    for (std::thread& t : ended) t.join();
    BOOST_TEST(failures.load() == 0);
    BOOST_TEST(events.available(device) >= 2u);
    gpuchrono::release_pools();
    BOOST_TEST(events.available(device) == 0u);
    // Every event made since the start of this case is destroyed now: none stayed behind in a thread's slot.
    const std::size_t made = events.created(device) - created_before;
    BOOST_TEST(made >= 2u);
    BOOST_TEST(events.destroyed(device) + events.forgotten(device) - destroyed_before - forgotten_before == made);
}

BOOST_AUTO_TEST_SUITE_END()
