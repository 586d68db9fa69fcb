// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A benchmark registered through <gpuchrono/gbench.hpp>, run by the fetched Google Benchmark with a reporter that
// keeps what it was told: without a device the run is an error naming the reason (never a crash or a time); on a
// GPU it is a manual time of at least the spin's length. Exits 1, saying what differed, otherwise.
#include <benchmark/benchmark.h>
#include <gpuchrono/gbench.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

__global__ void spin_for(long long ns) {
    long long start = 0, now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < ns);
}

struct Seen {
    std::optional<std::string> error;
    double real_ns = 0;
    long long iterations = 0;
};

class KeepRuns : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs) {
            Seen s;
            if (r.skipped) s.error = r.skip_message;  // Google Benchmark >= 1.8 reports errors as skips
            s.iterations = static_cast<long long>(r.iterations);
            if (r.iterations > 0) s.real_ns = r.GetAdjustedRealTime();
            seen.push_back(s);
        }
    }
    std::vector<Seen> seen;
};

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    gpuchrono::gbench::register_benchmark("spin_5us", [](cudaStream_t s) { spin_for<<<1, 1, 0, s>>>(5000); })
        ->Unit(benchmark::kNanosecond)
        ->MinTime(0.01);
    KeepRuns reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    if (reporter.seen.size() != 1) {
        std::printf("FAIL: Google Benchmark %s reported %zu runs of one benchmark\n", GBENCH_VERSION, reporter.seen.size());
        return 1;
    }
    const Seen& s = reporter.seen[0];
    if (const std::optional<std::string> why = gpuchrono::no_device_reason()) {
        const std::string expected = "gpuchrono: no usable CUDA device: " + *why;
        if (s.error != expected) {
            std::printf("FAIL: without a device the run should be the error \"%s\"; it was %s\n", expected.c_str(),
                        s.error ? ("the error \"" + *s.error + "\"").c_str() : "a time");
            return 1;
        }
        std::printf("Google Benchmark %s, no device: the bridge reported \"%s\"\n", GBENCH_VERSION, s.error->c_str());
        return 0;
    }
    if (s.error || s.iterations == 0 || s.real_ns < 5000.0) {
        std::printf("FAIL: on a GPU the 5 us spin should read at least 5000 ns per iteration; it read %.1f ns over %lld "
                    "iterations%s%s\n", s.real_ns, s.iterations, s.error ? ", error: " : "", s.error ? s.error->c_str() : "");
        return 1;
    }
    std::printf("Google Benchmark %s, GPU: %.1f ns per iteration over %lld iterations\n", GBENCH_VERSION, s.real_ns,
                s.iterations);
    return 0;
}
