// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Google Benchmark bridge against the truth and against what people write today, side by side: for %globaltimer
// spins of known length, the time per iteration Google Benchmark reports through <gpuchrono/gbench.hpp> (stream and
// thread mode) and through an event pair + a synchronization per iteration, each against the spin's CUPTI record
// timed alone (bias), with the wall time of Google Benchmark's run and the host time per iteration (the time between
// consecutive calls of the body inside a batch) against a bare launch loop, without CUPTI and with CUPTI recording and
// calling back at each launch as it does while the bridge runs (the part of the cost that is CUPTI's, not the
// bridge's).
#include "bench_timing.hpp"
#include "device_banner.hpp"

#include <benchmark/benchmark.h>
#include <gpuchrono/gbench.hpp>

#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using bench::Clock;

struct Row {
    double ns_per_iteration = 0;
    double host_ns_per_iteration = 0;
    double wall_s = 0;
    long long iterations = 0;
    std::string error;
};

// Google Benchmark 1.7 reports an error as error_occurred/error_message, 1.8 and later as skipped/skip_message.
template <class Run>
std::string error_of(const Run& r) {
    if constexpr (requires { r.error_occurred; }) return r.error_occurred ? std::string(r.error_message) : "";
    else return r.skipped ? std::string(r.skip_message) : "";
}

class Capture : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs) {
            ran = true;
            row.error = error_of(r);
            row.iterations = static_cast<long long>(r.iterations);
            row.ns_per_iteration = r.iterations > 0 ? r.GetAdjustedRealTime() : 0;
        }
    }
    Row row;
    bool ran = false;
};

Row run_one(const std::string& name, std::vector<Clock::time_point>& calls) {
    Capture capture;
    calls.clear();
    const auto t0 = Clock::now();
    benchmark::RunSpecifiedBenchmarks(&capture, "^" + name + "(/|$)");  // its full name ends in /manual_time
    capture.row.wall_s = bench::ns_since(t0) * 1e-9;
    if (!capture.ran) capture.row.error = "no benchmark named " + name + " ran";
    benchmark::ClearRegisteredBenchmarks();
    std::vector<double> gaps;
    for (std::size_t i = 1; i < calls.size(); ++i) gaps.push_back(std::chrono::duration<double, std::nano>(calls[i] - calls[i - 1]).count());
    if (!gaps.empty()) capture.row.host_ns_per_iteration = bench::spread(gaps).median;  // batch waits are the tail
    return capture.row;
}

double cupti_record_ns(cudaStream_t stream, gpuchrono::Duration d) {
    std::vector<double> ns;
    gpuchrono::KernelPolicy policy(stream);
    for (int i = 0; i < 201; ++i) {
        policy.start();
        gpuchrono::kernels::launch_spin(d, stream);
        ns.push_back(policy.stop().duration().ns());
    }
    return bench::spread(ns).median;
}

double bare_launch_ns(cudaStream_t stream) {
    std::vector<double> per_launch;
    for (int b = 0; b < 21; ++b) {
        const auto t0 = Clock::now();
        for (int i = 0; i < 200; ++i) gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(1'000), stream);
        per_launch.push_back(bench::ns_since(t0) / 200);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "bare launches");
    }
    return bench::spread(per_launch).median;
}

}  // namespace

int main() {
    print_device_banner("bench_gbench_bridge");
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "the bench's stream");
    gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(1'000), stream);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "warm-up");
    const double bare = bare_launch_ns(stream);
    double bare_cupti = 0;
    {
        // Thread mode holds CUPTI and turns its launch callbacks on, as the bridge does in both modes.
        gpuchrono::KernelPolicy recording(stream, {.count = gpuchrono::KernelPolicy::Count::thread});
        bare_cupti = bare_launch_ns(stream);
    }
    std::printf("bare launch: %.0f ns of host time per launch without CUPTI, %.0f ns with CUPTI recording and calling "
                "back at each launch (as while the bridge runs); Google Benchmark min time 0.5 s per row\n\n",
                bare, bare_cupti);
    std::printf("%-9s %-26s %14s %10s %16s %12s %12s %9s %11s\n", "spin", "timing", "ns/iteration", "bias",
                "host ns/iter", "vs bare", "vs CUPTI bare", "wall s", "iterations");
    std::vector<Clock::time_point> calls;
    calls.reserve(1 << 22);
    for (double spin_ns : {2'000.0, 10'000.0, 50'000.0}) {
        const gpuchrono::Duration d = gpuchrono::Duration::from_ns(spin_ns);
        const double record = cupti_record_ns(stream, d);
        auto body = [&calls, d](cudaStream_t s) {
            calls.push_back(Clock::now());
            gpuchrono::kernels::launch_spin(d, s);
        };
        std::vector<std::pair<std::string, Row>> rows;
        gpuchrono::gbench::register_benchmark("bridge_stream", body)->MinTime(0.5)->Unit(benchmark::kNanosecond);
        rows.emplace_back("gbench bridge (stream)", run_one("bridge_stream", calls));
        gpuchrono::gbench::register_benchmark("bridge_thread", body, {.count = gpuchrono::KernelPolicy::Count::thread})
            ->MinTime(0.5)->Unit(benchmark::kNanosecond);
        rows.emplace_back("gbench bridge (thread)", run_one("bridge_thread", calls));
        benchmark::RegisterBenchmark("event_pair", [&](benchmark::State& state) {
            cudaEvent_t start = nullptr, stop = nullptr;
            GPUCHRONO_CUDA_CHECK(cudaEventCreate(&start), "event");
            GPUCHRONO_CUDA_CHECK(cudaEventCreate(&stop), "event");
            for (auto _ : state) {
                GPUCHRONO_CUDA_CHECK(cudaEventRecord(start, stream), "event");
                body(stream);
                GPUCHRONO_CUDA_CHECK(cudaEventRecord(stop, stream), "event");
                GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(stop), "event");
                float ms = 0;
                GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop), "event");
                state.SetIterationTime(ms * 1e-3);
            }
            cudaEventDestroy(start);
            cudaEventDestroy(stop);
        })->UseManualTime()->MinTime(0.5)->Unit(benchmark::kNanosecond);
        rows.emplace_back("event pair + sync per iter", run_one("event_pair", calls));
        std::printf("%6.0f us %-26s %14.0f %10s %16s %12s %12s %9s %11s\n", spin_ns / 1e3, "CUPTI record (alone)", record,
                    "", "", "", "", "", "");
        for (const auto& [what, r] : rows) {
            if (!r.error.empty()) {
                std::printf("%6.0f us %-26s error: %s\n", spin_ns / 1e3, what.c_str(), r.error.c_str());
                continue;
            }
            std::printf("%6.0f us %-26s %14.0f %+9.2f%% %16.0f %+11.0f %+12.0f %9.2f %11lld\n", spin_ns / 1e3, what.c_str(),
                        r.ns_per_iteration, 100 * (r.ns_per_iteration - record) / record, r.host_ns_per_iteration,
                        r.host_ns_per_iteration - bare, r.host_ns_per_iteration - bare_cupti, r.wall_s, r.iterations);
        }
    }
    std::printf("\nTargets: the bridge's ns/iteration within 1%% of the CUPTI record (every iteration read: a row that "
                "failed prints its error); its host ns per iteration within 2000 ns of a bare launch (vs bare: without "
                "CUPTI; vs CUPTI bare: beside CUPTI's own cost per launch). The event pair's host ns/iter includes its sync.\n");
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(stream), "the bench's stream");
}
