// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A user's TU compiled with --default-stream per-thread (per_thread_stream.cu): stream 0 there is the
// thread's own stream, while the library (compiled without) reads a literal 0 as the legacy stream.
// GPUCHRONO_DEFAULT_STREAM (gpu/default_stream.hpp) expands to cudaStreamPerThread there, and the timers
// must then measure the kernel that TU launched on its stream 0.
#include <boost/test/unit_test.hpp>

#include "gpu_fixture.hpp"
#include "per_thread_stream.hpp"

#include <gpuchrono/gpu/stream.hpp>  // macros do not cross import

#include <cuda_runtime_api.h>

#include <string_view>
#include <thread>

#include <gpuchrono/gpuchrono.hpp>  // the internals (pools, stream_device) the module does not export

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
using gpuchrono::Measurement;
using gpuchrono::test::TimerKind;

namespace {

constexpr Duration spin = Duration::from_us(500);

bool has(const Measurement& m, std::string_view code) {
    for (const auto& f : m.findings())
        if (f.code == code) return true;
    return false;
}

void check_measures_the_spin(const char* what, const Measurement& m, double lower_ns) {
    BOOST_TEST_MESSAGE(what << ": " << (m.failed() ? "failed: " + m.error() : gpuchrono::to_string(m.duration())));
    BOOST_TEST_REQUIRE(!m.failed(), m.error());
    BOOST_TEST(m.duration().ns() >= lower_ns, what << " read " << gpuchrono::to_string(m.duration()));
    BOOST_TEST(!has(m, gpuchrono::codes::legacy_default_stream), what);
    // The kernel was on the timed stream: the interval holds it (above). The stream can still be idle at the stop
    // when the host paused longer than the kernel ran (a loaded or sanitized host), and the finding then says so
    // rightly; it must count at least the kernel's run.
    for (const auto& f : m.findings())
        if (f.code == gpuchrono::codes::timed_stream_idle)
            BOOST_TEST(f.evidence_or("host_time_ns", 0) >= lower_ns, what << ": " << gpuchrono::to_string(f));
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(per_thread_stream, GpuStream)

BOOST_AUTO_TEST_CASE(the_macro_names_the_per_thread_stream_in_a_per_thread_tu) {
    BOOST_TEST(gpuchrono::test::per_thread_tu_is_per_thread());
    BOOST_TEST(gpuchrono::test::per_thread_tu_default_stream() == cudaStreamPerThread);
    BOOST_TEST(GPUCHRONO_DEFAULT_STREAM == cudaStreamLegacy);  // this TU is compiled in the legacy mode
}

struct launches_follow_the_mode {
    boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const {
        boost::test_tools::assertion_result r(gpuchrono::test::per_thread_tu_launches_on_the_per_thread_stream());
        r.message() << "skipped: the per-thread TU was compiled by clang, whose <<<>>> launches on stream 0 go to the "
                       "legacy stream whatever the default-stream mode";
        return r;
    }
};

BOOST_AUTO_TEST_CASE(timers_on_the_per_thread_stream_measure_the_kernel_launched_on_stream_zero,
                     *boost::unit_test::precondition(launches_follow_the_mode())) {
    gpuchrono::ScopedFindingReaction collect{gpuchrono::Reaction::collect};
    check_measures_the_spin("event", gpuchrono::test::time_spin_on_default_stream(TimerKind::event, spin),
                            spin.ns() - event_resolution_ns);
    check_measures_the_spin("host-sync", gpuchrono::test::time_spin_on_default_stream(TimerKind::host_sync, spin),
                            spin.ns());
    check_measures_the_spin("device-clock", gpuchrono::test::time_spin_on_default_stream(TimerKind::device_clock, spin),
                            spin.ns());
    // The per-thread stream is per thread: another thread's timers measure its own stream 0.
    Measurement other;
    std::thread([&] { other = gpuchrono::test::time_spin_on_default_stream(TimerKind::event, spin); }).join();
    check_measures_the_spin("event on another thread", other, spin.ns() - event_resolution_ns);
}

BOOST_AUTO_TEST_CASE(a_literal_stream_zero_means_the_legacy_stream_to_the_library_and_is_named) {
    gpuchrono::ScopedFindingReaction collect{gpuchrono::Reaction::collect};
    const Measurement m = gpuchrono::test::time_spin_passing_stream_zero(spin);
    BOOST_TEST_MESSAGE("stream 0 passed from a per-thread TU: "
                       << (m.failed() ? "failed: " + m.error() : gpuchrono::to_string(m.duration())));
    BOOST_TEST(has(m, gpuchrono::codes::legacy_default_stream));
}

BOOST_AUTO_TEST_SUITE_END()
