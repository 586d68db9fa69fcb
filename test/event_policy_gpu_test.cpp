// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include "cross_path.hpp"
#include "gpu_fixture.hpp"

#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

// Internals the module does not export, reached through their headers.
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include <gpuchrono/gpu/event_pool.hpp>

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
namespace kernels = gpuchrono::kernels;

namespace {
const std::vector<Duration> known_lengths = {Duration::from_us(50), Duration::from_us(200), Duration::from_ms(1),
                                             Duration::from_ms(5)};

void report_bias(const char* what, Duration known, Duration measured) {
    BOOST_TEST_MESSAGE(what << ": known " << known << ", measured " << measured << ", bias " << (measured - known));
}
}  // namespace

BOOST_FIXTURE_TEST_SUITE(event_policy, GpuStream)

BOOST_AUTO_TEST_CASE(measures_at_least_the_known_spin) {
    for (Duration known : known_lengths) {
        const HostSpan host;
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
        kernels::launch_spin(known, stream);
        const gpuchrono::Measurement& m = t.stop();
        BOOST_TEST((m.state() == gpuchrono::Measurement::State::ok));
        const Duration measured = m.duration();
        report_bias("event", known, measured);
        BOOST_TEST(measured.ns() >= known.ns() - event_resolution_ns);
        BOOST_TEST(measured.ns() <= host.bound_ns());  // inside the host's own span: no unit error, no stale event
        BOOST_TEST(m.device() == gpuchrono::stream_device(stream));
        BOOST_TEST(m.policy() == "event");
    }
}

BOOST_AUTO_TEST_CASE(a_warm_pool_creates_no_events) {
    const int device = gpuchrono::stream_device(stream);
    { gpuchrono::ScopedTimer<gpuchrono::EventPolicy> warm(stream); }
    const std::size_t created = gpuchrono::EventPool::instance().created(device);
    for (int i = 0; i < 100; ++i) {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
        kernels::launch_empty(stream);
    }
    BOOST_TEST(gpuchrono::EventPool::instance().created(device) == created);
    BOOST_TEST(gpuchrono::EventPool::instance().available(device) >= 2u);
}

BOOST_AUTO_TEST_CASE(lazy_stops_queue_without_waiting_and_resolve_later) {
    const Duration known = Duration::from_us(100);
    gpuchrono::Series series("lazy");
    for (int i = 0; i < 20; ++i) {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(series, stream, gpuchrono::EventPolicy::Options{.wait_at_stop = false});
        kernels::launch_spin(known, stream);
    }
    BOOST_REQUIRE(series.size() == 20u);
    // 20 x 100 us are queued; the last stop cannot have been waited for.
    BOOST_TEST(series.measurements().back().pending());
    const auto durations = series.durations();
    BOOST_TEST(durations.size() == 20u);
    BOOST_TEST(series.failed_count() == 0u);
    for (Duration d : durations) BOOST_TEST(d.ns() >= known.ns() - event_resolution_ns);
    report_bias("event, lazy, last of 20", known, durations.back());
}

BOOST_AUTO_TEST_CASE(times_the_legacy_default_stream_too) {
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(cudaStream_t{});
    kernels::launch_spin(Duration::from_us(200), cudaStream_t{});
    BOOST_TEST(t.stop().duration().ns() >= 200e3 - event_resolution_ns);
}

BOOST_AUTO_TEST_CASE(a_cu_file_times_through_the_header_path) {
    const Duration known = Duration::from_us(300);
    const gpuchrono::Measurement m = cross_path::time_spin_in_cu(stream, known);
    report_bias("event from a .cu file", known, m.duration());
    BOOST_TEST(m.duration().ns() >= known.ns() - event_resolution_ns);
}

BOOST_AUTO_TEST_CASE(a_second_device_gets_its_own_events) {
    if (gpuchrono::device_count() < 2) {
        BOOST_TEST_MESSAGE("skipped: only one CUDA device, the second-device case needs two");
        return;
    }
    gpuchrono::DeviceGuard on(1);
    cudaStream_t s1 = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "creating a stream on device 1");
    {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(s1);
        kernels::launch_spin(Duration::from_us(100), s1);
        BOOST_TEST(t.stop().device() == 1);
        BOOST_TEST(t.result().duration().ns() >= 100e3 - event_resolution_ns);
    }
    BOOST_TEST(gpuchrono::EventPool::instance().created(1) >= 2u);
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(s1), "destroying the stream on device 1");
}

BOOST_AUTO_TEST_SUITE_END()
