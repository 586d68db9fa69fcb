// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The comparison checks on the GPU, against a known truth: a spin kernel 10% longer than the base is caught by
// check_not_slower (and shown slower by check_faster the other way round), and a spin against itself passes.
// Both series are timed inside the kernels (DeviceClockPolicy, %globaltimer), interleaved launch by launch, so
// drift of the clock hits both alike and launch latency is in neither: under compute-sanitizer a launch takes
// milliseconds, and an event pair around a 100 us spin then reads mostly noisy launch time.
#include <boost/test/unit_test.hpp>

#include <gpuchrono/boost_test.hpp>

#include "gpu_fixture.hpp"

#include <spin.hpp>

#include <string>
#include <utility>

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;

namespace {

constexpr int samples = 30;

// Two device-clock-timed series of spin kernels of lengths a and b, launched alternately on `stream`.
std::pair<gpuchrono::Series, gpuchrono::Series> interleaved(cudaStream_t stream, Duration a, Duration b) {
    gpuchrono::Series sa("spin " + gpuchrono::to_string(a)), sb("spin " + gpuchrono::to_string(b) + " (candidate)");
    for (int i = 0; i < samples; ++i) {
        {
            gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(sa, stream);
            gpuchrono::kernels::launch_spin(a, stream, 1, 32, t.policy().probe());
        }
        {
            gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(sb, stream);
            gpuchrono::kernels::launch_spin(b, stream, 1, 32, t.policy().probe());
        }
    }
    return {std::move(sa), std::move(sb)};
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(testing_checks_gpu, GpuStream)

BOOST_AUTO_TEST_CASE(a_ten_percent_longer_spin_fails_check_not_slower) {
    const auto [base, longer] = interleaved(stream, Duration::from_us(100), Duration::from_us(110));
    const gpuchrono::CheckResult r = gpuchrono::check_not_slower(base, longer);
    BOOST_TEST_MESSAGE(r.message);
    BOOST_TEST(!r.passed, r.message);
    BOOST_TEST(r.message.find("is slower than") != std::string::npos, r.message);
    // The same pair read the other way: the base is faster than the longer spin.
    const gpuchrono::CheckResult f = gpuchrono::check_faster(longer, base);
    BOOST_TEST(f.passed, f.message);
}

BOOST_AUTO_TEST_CASE(a_spin_against_itself_passes_check_not_slower) {
    const auto [a, again] = interleaved(stream, Duration::from_us(100), Duration::from_us(100));
    const gpuchrono::CheckResult r = gpuchrono::check_not_slower(a, again);
    BOOST_TEST_MESSAGE(r.message);
    BOOST_TEST(r.passed, r.message);
    GPUCHRONO_CHECK_NOT_SLOWER(a, again);
    // And it is not "faster" either: the verdict is no difference.
    BOOST_TEST(!gpuchrono::check_faster(a, again).passed);
}

BOOST_AUTO_TEST_SUITE_END()
