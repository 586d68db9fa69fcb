// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Faults on purpose: a kernel that traps, an illegal address, a stream destroyed while a lazy measurement is
// pending, a device reset by another part of the program. Each must give a failed Measurement (or, once the
// context is poisoned, a CudaError at the next timer's start) whose message names the cause: never a crash,
// a hang or a silent wrong number. docs/errors.md says which errors are sticky and what happens then.
//
// A trap or an illegal address poisons the CUDA context for the rest of the process, so each suite here runs
// in a process of its own (ctest and scripts/gpu-run run one suite per process; running this program without
// --run_test would let the first fault spoil the other suites). These are the intentional errors that
// `scripts/gpu-run --sanitize` names and keeps out of its error count.
#include <boost/test/unit_test.hpp>

#include "fault_kernels.hpp"
#include "gpu_fixture.hpp"

#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <string>
#include <string_view>

#include <gpuchrono/gpuchrono.hpp>  // the internals (pools, stream_device) the module does not export

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
using gpuchrono::Measurement;
namespace kernels = gpuchrono::kernels;
namespace fault = gpuchrono::test;

namespace {

constexpr Duration spin = Duration::from_us(200);

bool names(const std::string& message, cudaError_t e) {
    return message.find(cudaGetErrorName(e)) != std::string::npos;
}

// The sticky error now held by the context: every call returns it from here on.
cudaError_t sticky_error() {
    const cudaError_t e = cudaDeviceSynchronize();
    (void)cudaGetLastError();
    return e;
}

// One scope of `Policy` on a context after a sticky error: what it gave. The start may throw CudaError (there
// is nothing to measure), or the start passes and the Measurement is failed. Either must name `sticky`.
template <class Policy>
std::string scope_after_fault(cudaStream_t stream, cudaError_t sticky) {
    gpuchrono::Series series("after the fault");
    try {
        gpuchrono::ScopedTimer<Policy> t(series, stream);
        if constexpr (std::is_same_v<Policy, gpuchrono::DeviceClockPolicy>)
            kernels::launch_spin(spin, stream, 1, 32, t.policy().probe());
        else
            kernels::launch_spin(spin, stream);
    } catch (const gpuchrono::CudaError& e) {
        BOOST_TEST(e.code() == sticky, Policy::name << ": CudaError " << e.name() << " instead of the sticky "
                                                      << cudaGetErrorName(sticky));
        BOOST_TEST(names(e.what(), sticky), e.what());
        return std::string("refused at start: ") + e.what();
    }
    BOOST_REQUIRE(series.size() == 1u);
    const Measurement& m = series.measurements().front();
    BOOST_TEST((m.resolve() == Measurement::State::failed), Policy::name << " measured on a poisoned context");
    BOOST_TEST(names(m.error(), sticky), m.error());
    return "failed measurement: " + m.error();
}

void later_scopes_fail_naming(cudaStream_t stream, cudaError_t sticky) {
    // Each outcome is computed before it is logged: a check inside a log statement would swallow the line.
    const std::string host_sync = scope_after_fault<gpuchrono::HostSyncPolicy>(stream, sticky);
    BOOST_TEST_MESSAGE("later host-sync scope: " << host_sync);
    const std::string event = scope_after_fault<gpuchrono::EventPolicy>(stream, sticky);
    BOOST_TEST_MESSAGE("later event scope: " << event);
    const std::string device_clock = scope_after_fault<gpuchrono::DeviceClockPolicy>(stream, sticky);
    BOOST_TEST_MESSAGE("later device-clock scope: " << device_clock);
    // Giving the pools back reaches the dead context too: it may refuse (CudaError naming the error) but
    // must not crash.
    try {
        gpuchrono::release_pools();
        BOOST_TEST_MESSAGE("release_pools after the fault: returned");
    } catch (const gpuchrono::CudaError& e) {
        BOOST_TEST_MESSAGE("release_pools after the fault: " << e.what());
        BOOST_TEST(names(e.what(), sticky), e.what());
    }
}

// A fixture whose stream is left alone at the end: after a sticky error destroying it fails, which is fine.
struct FaultStream : GpuStream {
    gpuchrono::ScopedFindingReaction collect{gpuchrono::Reaction::collect};
};

}  // namespace

// --- a kernel that traps, inside a lazy EventPolicy scope ---

BOOST_FIXTURE_TEST_SUITE(fault_trap, FaultStream)

BOOST_AUTO_TEST_CASE(a_trap_gives_a_failed_measurement_naming_the_error_then_every_timer_refuses) {
    gpuchrono::Series series("trap");
    {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(series, stream,
                                                         gpuchrono::EventPolicy::Options{.wait_at_stop = false});
        fault::launch_trap(stream);
    }
    BOOST_REQUIRE(series.size() == 1u);  // delivered, failed or pending, never lost
    const Measurement& m = series.measurements().front();
    const Measurement::State state = m.resolve();
    const cudaError_t sticky = sticky_error();
    BOOST_TEST_MESSAGE("trap: sticky error " << cudaGetErrorName(sticky) << "; measurement: " << m.error());
    BOOST_TEST(sticky != cudaSuccess);
    BOOST_TEST((state == Measurement::State::failed));
    BOOST_TEST(names(m.error(), sticky), m.error());
    BOOST_CHECK_THROW((void)m.duration(), gpuchrono::TimerError);  // a failed measurement never reads as a time
    BOOST_TEST(series.failed_count() == 1u);
    later_scopes_fail_naming(stream, sticky);
}

BOOST_AUTO_TEST_SUITE_END()

// --- an illegal address, inside a DeviceClockPolicy scope (its probe buffer is in flight) ---

BOOST_FIXTURE_TEST_SUITE(fault_illegal_address, FaultStream)

BOOST_AUTO_TEST_CASE(an_illegal_address_fails_the_device_clock_scope_and_abandons_its_buffer) {
    const int device = gpuchrono::stream_device(stream);
    auto& pool = gpuchrono::ProbeBufferPool::instance();
    const std::size_t abandoned = pool.abandoned(device);
    gpuchrono::Series series("illegal address");
    {
        gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(series, stream);
        (void)t.policy().probe();
        fault::launch_illegal_address(stream);
    }
    BOOST_REQUIRE(series.size() == 1u);
    const Measurement& m = series.measurements().front();
    const cudaError_t sticky = sticky_error();
    BOOST_TEST_MESSAGE("illegal address: sticky error " << cudaGetErrorName(sticky) << "; measurement: " << m.error());
    BOOST_TEST(sticky == cudaErrorIllegalAddress);
    BOOST_TEST(m.failed());
    BOOST_TEST(names(m.error(), sticky), m.error());
    // The buffer was cleared and possibly written on the GPU when the scope failed: never lent again.
    BOOST_TEST(pool.abandoned(device) == abandoned + 1);
    later_scopes_fail_naming(stream, sticky);
}

BOOST_AUTO_TEST_SUITE_END()

// --- the timed stream destroyed while a lazy measurement is pending (not an error: documented to work) ---

BOOST_FIXTURE_TEST_SUITE(fault_stream_destroyed, FaultStream)

BOOST_AUTO_TEST_CASE(a_pending_measurement_outlives_its_stream) {
    cudaStream_t doomed = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&doomed, cudaStreamNonBlocking), "creating the doomed stream");
    Measurement m;
    {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(doomed, gpuchrono::EventPolicy::Options{.wait_at_stop = false});
        kernels::launch_spin(spin, doomed);
        m = t.stop();
    }
    // The events were recorded; destroying the stream lets its work finish and then releases it.
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(doomed), "destroying the stream under a pending measurement");
    BOOST_TEST((m.resolve() == Measurement::State::ok), m.error());
    if (!m.failed()) {
        BOOST_TEST_MESSAGE("pending across cudaStreamDestroy: " << gpuchrono::to_string(m.duration()));
        BOOST_TEST(m.duration().ns() >= spin.ns() - event_resolution_ns);
    }
    // Nothing sticky happened: the next scope on another stream measures as usual.
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
    kernels::launch_spin(spin, stream);
    const Measurement& after = t.stop();
    BOOST_TEST((after.resolve() == Measurement::State::ok), after.error());
    BOOST_TEST(after.duration().ns() >= spin.ns() - event_resolution_ns);
}

BOOST_AUTO_TEST_SUITE_END()

// --- cudaDeviceReset by another part of the program ---

BOOST_AUTO_TEST_SUITE(fault_device_reset)

BOOST_AUTO_TEST_CASE(timers_after_a_device_reset_measure_with_fresh_events_and_buffers) {
    gpuchrono::ScopedFindingReaction collect{gpuchrono::Reaction::collect};
    int device = -1;
    Measurement pending;
    {
        GpuStream before;
        device = gpuchrono::stream_device(before.stream);
        for (int i = 0; i < 3; ++i) {  // fill both pools
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> e(before.stream);
            kernels::launch_spin(spin, before.stream);
            gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> d(before.stream);
            kernels::launch_spin(spin, before.stream, 1, 32, d.policy().probe());
        }
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> lazy(before.stream,
                                                            gpuchrono::EventPolicy::Options{.wait_at_stop = false});
        kernels::launch_spin(spin, before.stream);
        pending = lazy.stop();
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(before.stream), "draining before the reset");
    }
    auto& events = gpuchrono::EventPool::instance();
    auto& buffers = gpuchrono::ProbeBufferPool::instance();
    BOOST_TEST(events.created(device) >= 2u);  // two more are out, in the pending measurement
    BOOST_TEST(buffers.available(device) >= 1u);
    const std::size_t events_forgotten = events.forgotten(device);
    const std::size_t buffers_forgotten = buffers.forgotten(device);

    // Another part of the program resets the device: every event, buffer and stream of the old context is gone.
    GPUCHRONO_CUDA_CHECK(cudaDeviceReset(), "resetting the device");

    // The measurement taken before the reset lost its events with the context: it must fail saying so,
    // never read a destroyed event.
    BOOST_TEST((pending.resolve() == Measurement::State::failed), "a pending interval survived a device reset");
    BOOST_TEST_MESSAGE("pending across the reset: " << pending.error());
    BOOST_TEST(pending.error().find("reset") != std::string::npos, pending.error());

    GpuStream after;  // a new stream in the new context
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy> e(after.stream);
    kernels::launch_spin(spin, after.stream);
    const Measurement& event = e.stop();
    BOOST_TEST((event.resolve() == Measurement::State::ok), event.error());
    if (event.resolve() == Measurement::State::ok) BOOST_TEST(event.duration().ns() >= spin.ns() - event_resolution_ns);

    gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> d(after.stream);
    kernels::launch_spin(spin, after.stream, 1, 32, d.policy().probe());
    const Measurement& clock = d.stop();
    BOOST_TEST((clock.resolve() == Measurement::State::ok), clock.error());
    if (clock.resolve() == Measurement::State::ok) BOOST_TEST(clock.duration().ns() >= spin.ns());

    gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> h(after.stream);
    kernels::launch_spin(spin, after.stream);
    const Measurement& host = h.stop();
    BOOST_TEST((host.resolve() == Measurement::State::ok), host.error());
    if (host.resolve() == Measurement::State::ok) BOOST_TEST(host.duration().ns() >= spin.ns());

    // The old context's events and buffers were forgotten (they died with it), not lent again.
    BOOST_TEST(events.forgotten(device) > events_forgotten);
    BOOST_TEST(buffers.forgotten(device) > buffers_forgotten);
    BOOST_TEST_MESSAGE("forgotten after the reset: " << events.forgotten(device) << " events, "
                                                     << buffers.forgotten(device) << " probe buffers");
}

BOOST_AUTO_TEST_SUITE_END()
