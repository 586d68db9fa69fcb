// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hardware metrics in process (gpuchrono::metrics::MetricsScope) against Nsight Compute:
// three kernels of known character (a 256 MiB device-to-device copy, a compute-bound FMA loop, a cache-resident
// gather), each set (memory, compute, speed_of_light): every metric's value and the wall time to collect the set
// per kernel (scope opened, kernel launched and replayed, values evaluated), median of 5 after one first use
// that also builds the set's configuration (reported apart). bench/metrics_vs_ncu.sh runs this binary with
// --launch-only under `ncu --metrics <same names>` and prints the table side by side.
//
//   bench_metrics_vs_ncu                 in-process values and times; lines "VALUE set kernel metric value unit"
//                                        and "TIME set kernel first_ms median_ms passes" (MetricsScope, kernel
//                                        replay), "UTIME ..."/"UVALUE ..." (measure(), user replay, cold caches),
//                                        "CTIME set all first_ms median_ms passes kernels"/"CVALUE ..." (one
//                                        collect() over the three kernels, cold caches: the per-pass cost
//                                        shared), "FLOOR set median_ms passes" (collect() of a trivial kernel:
//                                        CUPTI's own cost per collection, whatever the kernel) and "FLOOR4 set
//                                        median_ms" (the same with a 4-range counter-data image)
//   bench_metrics_vs_ncu --launch-only [--repeat N]   only the launches (each kernel N times), for ncu
#include <gpuchrono/api.hpp>

#include "metrics/metric_kernels.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e));
}

struct Kernel {
    const char* name;  // as the profiler names its range
    std::function<void(cudaStream_t)> launch;
};

// Six collections of one kind: the first (which builds the set's configuration and enables a profiler) apart,
// the median of the other five, and the last one's result. Timed by the wall clock around the call, or by the
// result's own collection_ns (measure(), whose timing samples are not part of it).
enum class Clock { wall, collection_ns };
struct Runs {
    double first_ms = 0;
    double median_ms = 0;
    gpuchrono::metrics::MetricsResult last;
};

Runs six_runs(const std::function<gpuchrono::metrics::MetricsResult()>& once, Clock clock = Clock::wall) {
    Runs r;
    std::vector<double> ms;
    for (int i = 0; i < 6; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        r.last = once();
        const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ms.push_back(clock == Clock::wall ? wall : r.last.collection_ns / 1e6);
    }
    r.first_ms = ms.front();
    std::sort(ms.begin() + 1, ms.end());
    r.median_ms = ms[1 + (ms.size() - 1) / 2];
    return r;
}

// "TAG set kernel metric value unit" per value, as bench/metrics_vs_ncu.sh reads them.
void print_values(const char* tag, const char* set, const gpuchrono::metrics::MetricsResult& r) {
    for (const auto& km : r.kernels)
        for (const auto& v : km.values)
            std::printf("%s %s %s %s %.6g %s\n", tag, set, km.kernel.c_str(), v.name.c_str(), v.value,
                        v.unit.empty() ? "-" : v.unit.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    bool launch_only = false;
    int repeat = 1;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--launch-only") == 0) launch_only = true;
        else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s [--launch-only [--repeat N]]\n", argv[0]);
            return 2;
        }
    }
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("skipped: no CUDA device (%s)\n", why->c_str());
        return 77;
    }
    try {
        int sms = 0;
        ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
        cudaDeviceProp prop{};
        ok(cudaGetDeviceProperties(&prop, 0), "properties");
        constexpr std::size_t copy_bytes = 256u << 20;
        constexpr std::size_t table_words = (1u << 20) / sizeof(float);  // 1 MiB: resident in L2
        const unsigned blocks = static_cast<unsigned>(sms) * 8, threads = 256;
        void* src = nullptr;
        void* dst = nullptr;
        float* out = nullptr;
        float* table = nullptr;
        ok(cudaMalloc(&src, copy_bytes), "cudaMalloc");
        ok(cudaMalloc(&dst, copy_bytes), "cudaMalloc");
        ok(cudaMalloc(reinterpret_cast<void**>(&out), sizeof(float) * blocks * threads), "cudaMalloc");
        ok(cudaMalloc(reinterpret_cast<void**>(&table), table_words * sizeof(float)), "cudaMalloc");
        ok(cudaMemset(src, 1, copy_bytes), "cudaMemset");
        ok(cudaMemset(table, 0, table_words * sizeof(float)), "cudaMemset");
        ok(cudaDeviceSynchronize(), "sync");
        const std::vector<Kernel> kernels{
            {"copy_kernel", [&](cudaStream_t s) { metric_kernels::launch_copy(dst, src, copy_bytes, s); }},
            {"fma_kernel", [&](cudaStream_t s) { metric_kernels::launch_fma(out, blocks, threads, 8192, s); }},
            {"gather_kernel", [&](cudaStream_t s) { metric_kernels::launch_gather(out, table, table_words, blocks, threads, 64, s); }},
        };
        if (launch_only) {
            for (int r = 0; r < repeat; ++r)
                for (const Kernel& k : kernels) k.launch(nullptr);
            ok(cudaDeviceSynchronize(), "sync");
            return 0;
        }
        std::printf("device: %s, %d SMs, CUDA %d\n", prop.name, sms, CUDART_VERSION);
        for (const char* set : {"memory", "compute", "speed_of_light"}) {
            for (const Kernel& k : kernels) {
                const Runs r = six_runs([&] {
                    gpuchrono::metrics::MetricsScope scope({set});
                    k.launch(nullptr);
                    return scope.stop();
                });
                std::printf("TIME %s %s %.3f %.3f %zu\n", set, k.name, r.first_ms, r.median_ms, r.last.passes);
                print_values("VALUE", set, r.last);
                for (const auto& n : r.last.notes) std::printf("NOTE %s %s %s\n", set, k.name, n.c_str());
            }
        }
        // measure()'s path: user replay (the callable run once per pass), its collection time from the record
        // (session opened to values evaluated; the timing samples are not in it). The graph method: the kernel
        // method's KernelPolicy scopes would disable the kept profiler before every collection (docs/metrics.md).
        for (const char* set : {"memory", "compute", "speed_of_light"}) {
            for (const Kernel& k : kernels) {
                gpuchrono::MeasureOptions options;
                options.metrics = {set};
                options.cache = gpuchrono::CacheState::cold;  // each pass cold and clean, as ncu's default
                options.method = gpuchrono::Method::graph;
                options.min_samples = 3;
                options.max_samples = 3;
                const Runs r = six_runs(
                    [&] { return *gpuchrono::measure(k.name, nullptr, k.launch, options).measure_record()->kernel_metrics; },
                    Clock::collection_ns);
                std::printf("UTIME %s %s %.3f %.3f %zu\n", set, k.name, r.first_ms, r.median_ms, r.last.passes);
                print_values("UVALUE", set, r.last);
                for (const auto& n : r.last.notes) std::printf("UNOTE %s %s %s\n", set, k.name, n.c_str());
            }
        }
        // One collect() over the three kernels: CUPTI's cost per pass is paid once for all three, as ncu's
        // application replay would. Per kernel = the whole collection / 3.
        const auto all_three = [&] {
            for (const Kernel& k : kernels) k.launch(nullptr);
        };
        for (const char* set : {"memory", "compute", "speed_of_light"}) {
            gpuchrono::metrics::CollectOptions options;
            options.cold_caches = true;
            const Runs r = six_runs([&] { return gpuchrono::metrics::collect({set}, all_three, options); });
            std::printf("CTIME %s all %.3f %.3f %zu %zu\n", set, r.first_ms, r.median_ms, r.last.passes, r.last.kernels.size());
            print_values("CVALUE", set, r.last);
            for (const auto& n : r.last.notes) std::printf("CNOTE %s %s\n", set, n.c_str());
        }
        // CUPTI's floor: the same collection of one trivial kernel (nothing to count, nothing to flush), with the
        // image collect() starts with (16 ranges), then with one of 4 ranges: what the image's size costs.
        const auto trivial = [&] { metric_kernels::launch_first_named(out, nullptr); };
        for (const char* set : {"memory", "compute", "speed_of_light"}) {
            const Runs r = six_runs([&] { return gpuchrono::metrics::collect({set}, trivial); });
            std::printf("FLOOR %s %.3f %zu\n", set, r.median_ms, r.last.passes);
        }
        for (const char* set : {"memory", "compute", "speed_of_light"}) {
            gpuchrono::metrics::CollectOptions small;
            small.max_kernels = 4;
            const Runs r = six_runs([&] { return gpuchrono::metrics::collect({set}, trivial, small); });
            std::printf("FLOOR4 %s %.3f\n", set, r.median_ms);
        }
        return 0;
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
}
