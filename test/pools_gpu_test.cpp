// The pools give back what they hold: gpuchrono::release_pools() frees every idle event and probe buffer
// (the exit handler does the same at process end: compute-sanitizer --leak-check full checks that), leaves
// leases that are out alone, and timers keep working afterwards.
#include <boost/test/unit_test.hpp>

#include "gpu_fixture.hpp"

#include <spin.hpp>

#include <cuda_runtime_api.h>

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

BOOST_AUTO_TEST_SUITE_END()
