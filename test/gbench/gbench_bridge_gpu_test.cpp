// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Google Benchmark bridge on a GPU: the time Google Benchmark reports per iteration is the CUPTI record of the
// iteration's %globaltimer spin (against the same spin timed alone by KernelPolicy), with Google Benchmark's
// iteration count honoured across batches; the declared bytes become bytes_per_second; a body that launches
// nothing on the given stream, launches on another stream, or throws, makes the benchmark an error with the reason;
// 2 us spins over some 10^5 iterations are each read, in stream and in thread mode.
#include <boost/test/unit_test.hpp>

#include "gbench_capture.hpp"

#include <spin.hpp>

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/core/scoped_timer.hpp>
#include <gpuchrono/gbench.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

constexpr double spin_ns = 10'000;

void spin(cudaStream_t s) { gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(spin_ns), s); }
void short_spin(cudaStream_t s) { gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(2'000), s); }

// The spin timed alone, one scope at a time with a wait each: the CUPTI record the bridge must reproduce.
template <class Spin>
double spin_record_median_ns(Spin spin) {
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "test stream");
    std::vector<double> ns;
    {
        gpuchrono::KernelPolicy policy(stream);
        for (int i = 0; i < 101; ++i) {
            policy.start();
            spin(stream);
            ns.push_back(policy.stop().duration().ns());
        }
    }
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(stream), "test stream");
    std::nth_element(ns.begin(), ns.begin() + 50, ns.end());
    return ns[50];
}

gbench_test::Reported run_one(const char* name) {
    const auto reported = gbench_test::run_registered(name);
    BOOST_REQUIRE_EQUAL(reported.size(), 1u);
    return reported[0];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gbench_bridge_gpu)

BOOST_AUTO_TEST_CASE(each_iteration_is_its_cupti_record) {
    BOOST_REQUIRE_MESSAGE(gpuchrono::KernelPolicy::available(), gpuchrono::KernelPolicy::unavailable_reason());
    spin(nullptr);  // load the kernel before anything is timed
    GPUCHRONO_CUDA_CHECK(cudaDeviceSynchronize(), "warm-up");
    const double record = spin_record_median_ns(spin);
    gpuchrono::gbench::register_benchmark("bridge_spin_10us", spin, {.batch = 64, .bytes_read = 1'000'000})
        ->Unit(benchmark::kNanosecond)->MinTime(0.2);
    const auto r = run_one("bridge_spin_10us");
    BOOST_REQUIRE_MESSAGE(!r.error, r.error.value_or(""));
    BOOST_TEST_MESSAGE("bridge " << r.manual_ns_per_iteration << " ns/iteration over " << r.iterations
                                 << " iterations; the spin alone " << record << " ns");
    BOOST_TEST(r.manual_ns_per_iteration >= spin_ns);
    BOOST_TEST(std::abs(r.manual_ns_per_iteration - record) <= 0.01 * record);
    // 0.2 s of 10 us iterations: Google Benchmark grew the count past one batch on the manual time.
    BOOST_TEST(r.iterations > 64);
    BOOST_TEST(r.counters.at("bytes_per_second") ==
               1e6 / (r.manual_ns_per_iteration * 1e-9), boost::test_tools::tolerance(1e-6));
    BOOST_TEST(r.counters.count("gpuchrono_warnings") == 1u);
}

// A 2 us spin ends about when the next launch reaches the stream: each of ~10^5 iterations must still be read
// (a single iteration read as empty makes the whole benchmark an error) and equal the spin's record.
BOOST_AUTO_TEST_CASE(every_iteration_of_a_2us_kernel_is_read_over_many_batches) {
    BOOST_REQUIRE_MESSAGE(gpuchrono::KernelPolicy::available(), gpuchrono::KernelPolicy::unavailable_reason());
    const double record = spin_record_median_ns(short_spin);
    for (const auto count : {gpuchrono::KernelPolicy::Count::stream, gpuchrono::KernelPolicy::Count::thread}) {
        const char* name = count == gpuchrono::KernelPolicy::Count::stream ? "bridge_spin_2us_stream" : "bridge_spin_2us_thread";
        gpuchrono::gbench::register_benchmark(name, short_spin, {.count = count})->Unit(benchmark::kNanosecond)->MinTime(0.3);
        const auto r = run_one(name);
        BOOST_REQUIRE_MESSAGE(!r.error, name << ": " << r.error.value_or(""));
        BOOST_TEST_MESSAGE(name << ": " << r.manual_ns_per_iteration << " ns/iteration over " << r.iterations
                                << " iterations; the spin alone " << record << " ns");
        BOOST_TEST(r.iterations >= 50'000, name);
        BOOST_TEST(std::abs(r.manual_ns_per_iteration - record) <= 0.01 * record, name);
    }
}

BOOST_AUTO_TEST_CASE(a_fixed_count_that_is_no_multiple_of_the_batch_is_run_exactly) {
    gpuchrono::gbench::register_benchmark("bridge_spin_37", spin, {.batch = 8})
        ->Unit(benchmark::kNanosecond)->Iterations(37);
    const auto r = run_one("bridge_spin_37");
    BOOST_REQUIRE_MESSAGE(!r.error, r.error.value_or(""));
    BOOST_TEST(r.iterations == 37);
    BOOST_TEST(r.manual_ns_per_iteration >= spin_ns);
}

BOOST_AUTO_TEST_CASE(a_body_that_launches_nothing_is_an_error) {
    gpuchrono::gbench::register_benchmark("bridge_nothing", [](cudaStream_t) {})->MinTime(0.01);
    const auto r = run_one("bridge_nothing");
    BOOST_REQUIRE(r.error.has_value());
    BOOST_TEST(r.error->find("launched no GPU work on the stream it was given") != std::string::npos, *r.error);
}

BOOST_AUTO_TEST_CASE(a_body_that_launches_on_another_stream_is_an_error) {
    cudaStream_t other = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), "another stream");
    gpuchrono::gbench::register_benchmark("bridge_elsewhere", [other](cudaStream_t) { spin(other); })->MinTime(0.01);
    const auto r = run_one("bridge_elsewhere");
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(other), "another stream");
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(other), "another stream");
    BOOST_REQUIRE(r.error.has_value());
    BOOST_TEST(r.error->find("launched no GPU work on the stream it was given") != std::string::npos, *r.error);
}

BOOST_AUTO_TEST_CASE(a_body_that_throws_is_an_error_with_its_message) {
    gpuchrono::gbench::register_benchmark("bridge_throws", [](cudaStream_t) {
        throw std::runtime_error("the user's setup failed");
    })->MinTime(0.01);
    const auto r = run_one("bridge_throws");
    BOOST_REQUIRE(r.error.has_value());
    BOOST_TEST(*r.error == "gpuchrono: the benchmark stopped: the user's setup failed");
}

BOOST_AUTO_TEST_SUITE_END()
