// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono-example-performance-test: a performance test of seed 004's kernels, written the way a user writes
// one in a Boost.Test suite. Seed 004 found that letting thread t read elements t, t + T, t + 2T, ...
// (interleaved: a warp's loads fall into one cache line) beats giving each thread a contiguous chunk (a warp's
// loads touch 32 lines): 7.26x on the seed's GPU, 2.94x on an H100 in the tour. This program pins that
// direction as a test, in the seed's launch and over the whole GPU:
//
//     GPUCHRONO_CHECK_FASTER(chunked, interleaved);       compare()'s verdict is "faster", CI and all
//     GPUCHRONO_CHECK_NOT_SLOWER(chunked, interleaved);   the check that guards against a regression
//     GPUCHRONO_WARN_NO_FINDINGS(interleaved);            timing pitfalls, as a warning in the log
//
// Each series comes from gpuchrono::measure(), which warms up, picks the timing method and stops sampling
// when the median's confidence interval is narrow enough. Without a GPU it prints why and exits 77.
#define BOOST_TEST_MODULE gpuchrono_performance_example
#define BOOST_TEST_NO_MAIN
#include <boost/test/included/unit_test.hpp>

#include <cuda_runtime_api.h>

#include <gpuchrono/boost_test.hpp>        // the GPUCHRONO_CHECK_* macros: before the import
#include <gpuchrono/core/cuda_error.hpp>   // GPUCHRONO_CUDA_CHECK

#include <sum_of_cubes.hpp>

#include <cstdio>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include <gpuchrono/api.hpp>

namespace {

using gpuchrono::kernels::AccessPattern;

// The seed's data on the device: random digits 0..9 (their cubes' sum fits in 64 bits), and the sum.
struct SumOfCubes {
    static constexpr std::size_t n_max = std::size_t{1} << 26;  // 256 MiB of ints: five times an H100's L2
    cudaStream_t stream = nullptr;
    int* values = nullptr;
    unsigned long long* sum = nullptr;

    SumOfCubes() {
        GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the stream");
        std::vector<int> host(n_max);
        std::mt19937 rng(2024);
        for (int& v : host) v = static_cast<int>(rng() % 10);
        GPUCHRONO_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&values), n_max * sizeof(int)), "allocating the values");
        GPUCHRONO_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&sum), sizeof *sum), "allocating the sum");
        GPUCHRONO_CUDA_CHECK(cudaMemcpy(values, host.data(), n_max * sizeof(int), cudaMemcpyHostToDevice), "copying the values");
    }
    ~SumOfCubes() {
        (void)cudaFree(values);
        (void)cudaFree(sum);
        (void)cudaStreamDestroy(stream);
    }

    // The sum is not read here (the tour's example checks it against the CPU), so it is not cleared between
    // calls: one launch per call is what is timed.
    gpuchrono::Series measure(AccessPattern pattern, std::size_t n, unsigned blocks, unsigned threads, const std::string& launch) {
        return gpuchrono::measure(std::string(gpuchrono::kernels::to_string(pattern)) + ", " + launch, stream,
                                  [&](cudaStream_t s) {
                                      gpuchrono::kernels::launch_sum_of_cubes(pattern, values, n, sum, blocks, threads, s);
                                  });
    }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(sum_of_cubes, SumOfCubes)

BOOST_AUTO_TEST_CASE(interleaved_is_faster_in_the_seeds_launch) {
    // The seed's shape: one block of 1024 threads over 1 Mi ints (4 MiB).
    const gpuchrono::Series chunked = measure(AccessPattern::chunked, std::size_t{1} << 20, 1, 1024, "seed's launch");
    const gpuchrono::Series interleaved = measure(AccessPattern::interleaved, std::size_t{1} << 20, 1, 1024, "seed's launch");
    GPUCHRONO_CHECK_FASTER(chunked, interleaved);
    GPUCHRONO_CHECK_NOT_SLOWER(chunked, interleaved);
    GPUCHRONO_WARN_NO_FINDINGS(interleaved);
}

BOOST_AUTO_TEST_CASE(interleaved_is_faster_over_the_whole_gpu) {
    int device = 0, sms = 0;
    GPUCHRONO_CUDA_CHECK(cudaGetDevice(&device), "reading the device");
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "reading the SM count");
    const auto blocks = static_cast<unsigned>(sms * gpuchrono::kernels::sum_of_cubes_resident_blocks_per_sm(AccessPattern::interleaved, 256));
    const std::string launch = "whole GPU, " + std::to_string(blocks) + " blocks";
    const gpuchrono::Series chunked = measure(AccessPattern::chunked, n_max, blocks, 256, launch);
    const gpuchrono::Series interleaved = measure(AccessPattern::interleaved, n_max, blocks, 256, launch);
    GPUCHRONO_CHECK_FASTER(chunked, interleaved);
    GPUCHRONO_CHECK_NOT_SLOWER(chunked, interleaved);
    GPUCHRONO_WARN_NO_FINDINGS(interleaved);
}

BOOST_AUTO_TEST_SUITE_END()

int main(int argc, char* argv[]) {
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("skipped: no CUDA device (%s)\n", why->c_str());
        return 77;
    }
    // The checks' messages carry the findings; keep stderr for Boost.Test's own report.
    gpuchrono::set_finding_reaction(gpuchrono::Reaction::collect);
    return boost::unit_test::unit_test_main(&init_unit_test_suite, argc, argv);
}
