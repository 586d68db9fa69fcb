// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include "gpu_fixture.hpp"

#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
namespace kernels = gpuchrono::kernels;

BOOST_FIXTURE_TEST_SUITE(host_sync, GpuStream)

BOOST_AUTO_TEST_CASE(measures_at_least_the_known_spin_with_either_scope) {
    for (gpuchrono::SyncScope scope : {gpuchrono::SyncScope::stream, gpuchrono::SyncScope::device}) {
        for (Duration known : {Duration::from_us(50), Duration::from_ms(1), Duration::from_ms(5)}) {
            const HostSpan host;
            gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(stream, scope);
            kernels::launch_spin(known, stream);
            const Duration measured = t.stop().duration();
            BOOST_TEST_MESSAGE("host-sync (" << (scope == gpuchrono::SyncScope::stream ? "stream" : "device")
                                             << "): known " << known << ", measured " << measured << ", bias "
                                             << (measured - known));
            // The host clock and %globaltimer are different clocks; the kernel cannot finish before it spun.
            BOOST_TEST(measured.ns() >= known.ns());
            BOOST_TEST(measured.ns() <= host.bound_ns());  // inside the host's own span around the scope
        }
    }
}

BOOST_AUTO_TEST_CASE(the_start_waits_for_earlier_work) {
    // Work queued before the timer is not part of the interval: the constructor drains it first.
    // The queued kernel is long enough that no launch, however slowed (a sanitizer), comes near it.
    const Duration queued = Duration::from_ms(100);
    kernels::launch_spin(queued, stream);
    gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(stream);
    kernels::launch_spin(Duration::from_us(100), stream);
    const Duration measured = t.stop().duration();
    BOOST_TEST(measured.ns() < queued.ns(), "measured " << measured << " includes the " << queued << " queued before start");
}

BOOST_AUTO_TEST_SUITE_END()
