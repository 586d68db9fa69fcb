// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Google Benchmark bridge where there may be no GPU: a benchmark built with <gpuchrono/gbench.hpp> against the
// installed Google Benchmark runs, and without a device reports the reason as the benchmark's error instead of
// crashing; bad options are refused the same way.
#include <boost/test/unit_test.hpp>

#include "gbench_capture.hpp"

#include <spin.hpp>

#include <gpuchrono/core/device.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/gbench.hpp>

BOOST_AUTO_TEST_SUITE(gbench_bridge)

BOOST_AUTO_TEST_CASE(without_a_device_the_benchmark_errors_with_the_reason) {
    gpuchrono::gbench::register_benchmark("bridge_spin", [](cudaStream_t s) {
        gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(2'000), s);
    })->Unit(benchmark::kNanosecond)->MinTime(0.01);
    const auto reported = gbench_test::run_registered("bridge_spin");
    BOOST_REQUIRE_EQUAL(reported.size(), 1u);
    if (const auto why = gpuchrono::no_device_reason()) {
        BOOST_REQUIRE(reported[0].error.has_value());
        BOOST_TEST(*reported[0].error == "gpuchrono: no usable CUDA device: " + *why);
        BOOST_TEST(reported[0].counters.empty());
    } else {  // a GPU machine: the same program times the spin
        BOOST_TEST(!reported[0].error.has_value(), reported[0].error.value_or(""));
        BOOST_TEST(reported[0].manual_ns_per_iteration >= 2'000.0);
    }
}

BOOST_AUTO_TEST_CASE(a_zero_batch_is_refused_naming_the_option) {
    gpuchrono::gbench::register_benchmark("bridge_zero_batch", [](cudaStream_t) {}, {.batch = 0});
    const auto reported = gbench_test::run_registered("bridge_zero_batch");
    BOOST_REQUIRE_EQUAL(reported.size(), 1u);
    BOOST_REQUIRE(reported[0].error.has_value());
    BOOST_TEST(*reported[0].error == "gpuchrono::gbench::Options::batch must be at least 1");
}

BOOST_AUTO_TEST_SUITE_END()
