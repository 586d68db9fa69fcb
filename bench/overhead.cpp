// Host-side cost of a timed scope, against the raw CUDA calls it wraps, side by side in one run:
//   raw event pair      two cudaEventRecord calls on pre-created events
//   ScopedTimer<Event>  the same pair through gpuchrono, lazy (no wait at stop): pool, stream lookup, checks
//   raw steady_clock    two steady_clock::now() calls
//   ScopedTimer<Host>   the same through gpuchrono
// Reported as ns per scope (median of batches) and as the ratio gpuchrono / raw.
#include <cuda_runtime_api.h>

#include "device_banner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <vector>

import gpuchrono;

namespace {

constexpr int batches = 21;
constexpr int per_batch = 2000;

// Median over batches of the mean host time per call of `scope`, in ns.
double ns_per_scope(const std::function<void()>& scope, cudaStream_t stream) {
    std::vector<double> per_call;
    for (int b = 0; b < batches; ++b) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < per_batch; ++i) scope();
        const auto t1 = std::chrono::steady_clock::now();
        per_call.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / per_batch);
        if (stream) GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining between batches");
    }
    std::nth_element(per_call.begin(), per_call.begin() + batches / 2, per_call.end());
    return per_call[batches / 2];
}

}  // namespace

int main() try {
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_overhead: no CUDA device (%s); run it on a GPU machine (scripts/gpu-run)\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_overhead");
    // The timed scopes are empty on purpose, which the library rightly reports (timed-stream-idle): keep quiet.
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the benchmark stream");
    cudaEvent_t a = nullptr, b = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreate(&a), "creating a raw event");
    GPUCHRONO_CUDA_CHECK(cudaEventCreate(&b), "creating a raw event");

    const double raw_events = ns_per_scope(
        [&] {
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(a, stream), "raw start record");
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(b, stream), "raw stop record");
        },
        stream);
    const double timer_events = ns_per_scope(
        [&] {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream, gpuchrono::EventPolicy::Options{.wait_at_stop = false});
        },
        stream);
    volatile long long sink = 0;
    const double raw_clock = ns_per_scope(
        [&] {
            const auto t0 = std::chrono::steady_clock::now();
            sink = (std::chrono::steady_clock::now() - t0).count();
        },
        nullptr);
    const double timer_clock = ns_per_scope([&] { gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t; }, nullptr);

    std::printf("\n%-34s %12s %12s\n", "scope (host time per scope)", "ns", "vs raw");
    std::printf("%-34s %12.1f %12s\n", "raw cudaEventRecord pair", raw_events, "1.00x");
    std::printf("%-34s %12.1f %11.2fx\n", "ScopedTimer<EventPolicy>, lazy", timer_events, timer_events / raw_events);
    std::printf("%-34s %12.1f %12s\n", "raw steady_clock pair", raw_clock, "1.00x");
    std::printf("%-34s %12.1f %11.2fx\n", "ScopedTimer<HostClockPolicy>", timer_clock, timer_clock / raw_clock);

    GPUCHRONO_CUDA_CHECK(cudaEventDestroy(a), "destroying a raw event");
    GPUCHRONO_CUDA_CHECK(cudaEventDestroy(b), "destroying a raw event");
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(stream), "destroying the benchmark stream");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_overhead: %s\n", e.what());
    return 1;
}
