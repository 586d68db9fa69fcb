#include <boost/test/unit_test.hpp>

#include "gpu_fixture.hpp"

#include <spin.hpp>

#include <cuda_runtime_api.h>

import gpuchrono;

using gpuchrono::Duration;
namespace kernels = gpuchrono::kernels;

BOOST_FIXTURE_TEST_SUITE(host_sync, GpuStream)

BOOST_AUTO_TEST_CASE(measures_at_least_the_known_spin_with_either_scope) {
    for (gpuchrono::SyncScope scope : {gpuchrono::SyncScope::stream, gpuchrono::SyncScope::device}) {
        for (Duration known : {Duration::from_us(50), Duration::from_ms(1), Duration::from_ms(5)}) {
            gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(stream, scope);
            kernels::launch_spin(known, stream);
            const Duration measured = t.stop().duration();
            BOOST_TEST_MESSAGE("host-sync (" << (scope == gpuchrono::SyncScope::stream ? "stream" : "device")
                                             << "): known " << known << ", measured " << measured << ", bias "
                                             << (measured - known));
            // The host clock and %globaltimer are different clocks; the kernel cannot finish before it spun.
            BOOST_TEST(measured.ns() >= known.ns());
            BOOST_TEST(measured.ns() < 2 * known.ns() + 1e6);
        }
    }
}

BOOST_AUTO_TEST_CASE(the_start_waits_for_earlier_work) {
    // Work queued before the timer is not part of the interval: the constructor drains it first.
    kernels::launch_spin(Duration::from_ms(20), stream);
    gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(stream);
    kernels::launch_spin(Duration::from_us(100), stream);
    const Duration measured = t.stop().duration();
    BOOST_TEST(measured.ms() < 10.0, "measured " << measured << " includes the 20 ms queued before start");
}

BOOST_AUTO_TEST_SUITE_END()
