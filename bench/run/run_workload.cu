// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The programs run_overhead.py times with and without `gpuchrono run`: plain CUDA, no gpuchrono in them.
//
//   run_overhead_workload spin N D_US     N back-to-back launches of a D_US spin (GPU-bound)
//   run_overhead_workload empty N         N empty kernels (launch-bound)
//   run_overhead_workload startup         starts CUDA and ends (start-up cost)
//   run_overhead_workload kernels200 N SLOW   200 distinct 5 us kernels, N calls each, interleaved; kernel 17
//                                      spins SLOW times as long (1.03: 3% slower) for the diff target
//
// Prints "loop_ns=<ns>": the host wall time of the loop and its final synchronize, start-up excluded.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace {

__device__ __forceinline__ std::uint64_t globaltimer() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void bench_spin(std::uint64_t ns) {
    const std::uint64_t start = globaltimer();
    while (globaltimer() - start < ns) {
    }
}

__global__ void bench_empty() {}

// 200 kernels of distinct names: the diff target's program.
template <int K>
__global__ void bench_kernel(std::uint64_t ns) {
    const std::uint64_t start = globaltimer();
    while (globaltimer() - start < ns) {
    }
}

using SpinFn = void (*)(std::uint64_t);

template <int... K>
void launch_nth(int n, std::uint64_t ns, std::integer_sequence<int, K...>) {
    ((n == K ? (bench_kernel<K><<<1, 32>>>(ns), 0) : 0), ...);
}

void check(cudaError_t e) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "run_overhead_workload: %s\n", cudaGetErrorString(e));
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "startup";
    check(cudaFree(nullptr));
    const auto t0 = std::chrono::steady_clock::now();
    if (mode == "spin") {
        const long n = argc > 2 ? std::atol(argv[2]) : 100000;
        const double d = argc > 3 ? std::atof(argv[3]) : 5.0;
        for (long i = 0; i < n; ++i) bench_spin<<<1, 32>>>(static_cast<std::uint64_t>(d * 1000));
    } else if (mode == "empty") {
        const long n = argc > 2 ? std::atol(argv[2]) : 100000;
        for (long i = 0; i < n; ++i) bench_empty<<<1, 1>>>();
    } else if (mode == "kernels200") {
        const int n = argc > 2 ? std::atoi(argv[2]) : 50;
        const double slow = argc > 3 ? std::atof(argv[3]) : 1.0;
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < 200; ++k)
                launch_nth(k, static_cast<std::uint64_t>(5000 * (k == 17 ? slow : 1.0)), std::make_integer_sequence<int, 200>{});
    } else if (mode != "startup") {
        std::fprintf(stderr, "run_overhead_workload: unknown mode %s\n", mode.c_str());
        return 2;
    }
    check(cudaDeviceSynchronize());
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    std::printf("loop_ns=%lld\n", static_cast<long long>(ns));
    return 0;
}
