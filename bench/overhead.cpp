// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Host-side cost of a timed scope, against the raw CUDA calls it wraps, side by side in one run:
//   raw event pair      two cudaEventRecord calls on pre-created events
//   ScopedTimer<Event>  the same pair through gpuchrono, lazy (no wait at stop): pool, stream lookup, checks
//   minimal mode        the same with EventPolicy::Options::checks = false
//   raw steady_clock    two steady_clock::now() calls
//   ScopedTimer<Host>   the same through gpuchrono
// Reported as ns per scope (median over rounds of the batch means) and as the ratio gpuchrono / raw (median of
// the per-round ratios).
//
// Why short batches on a warm GPU, interleaved: a record the host enqueues faster than the GPU retires it
// deepens the stream's queue, and once the queue is deep enough the record call waits for the GPU. A batch
// then measures the GPU's pace, not the host's cost, and that pace hides any host overhead below it. On the
// H100 with its SM clock idle (345 MHz) the first version of this bench (batches of 2000 scopes, no warm-up)
// read EventPolicy at 1.03x the raw pair; the same binary on the warm GPU read 1.56x. So the GPU is warmed
// first, its clock is printed before and after, a batch is 200 scopes (400 records: the queue never fills)
// and the stream is drained after each batch; raw and timed batches alternate so drift falls on both.
#include <cuda_runtime_api.h>

#include "device_banner.hpp"

#include <spin.hpp>

#include <gpuchrono/gpu/gpu_state.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <vector>

#include <gpuchrono/api.hpp>

namespace {

constexpr int rounds = 41;  // the first warms every path and is dropped
constexpr int per_batch = 200;

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

struct Cost {
    std::vector<double> ns;     // per scope kind: median over rounds of the batch mean
    std::vector<double> ratio;  // per scope kind: median over rounds of batch mean / the raw kind's batch mean
};

// `scopes` in pairs: {raw, gpuchrono, ...}; a ratio is taken against the raw kind given by `raw_of`.
Cost measure(const std::vector<std::function<void()>>& scopes, const std::vector<std::size_t>& raw_of, cudaStream_t stream) {
    std::vector<std::vector<double>> ns(scopes.size()), ratio(scopes.size());
    for (int r = 0; r < rounds; ++r) {
        std::vector<double> round(scopes.size());
        for (std::size_t k = 0; k < scopes.size(); ++k) {
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < per_batch; ++i) scopes[k]();
            round[k] = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / per_batch;
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining between batches");
        }
        if (r == 0) continue;
        for (std::size_t k = 0; k < scopes.size(); ++k) {
            ns[k].push_back(round[k]);
            ratio[k].push_back(round[k] / round[raw_of[k]]);
        }
    }
    Cost c;
    for (std::size_t k = 0; k < scopes.size(); ++k) {
        c.ns.push_back(median(ns[k]));
        c.ratio.push_back(median(ratio[k]));
    }
    return c;
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

    print_sm_clock("before the warm-up");
    for (int i = 0; i < 200; ++i) gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ms(1), stream);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "warming the GPU up");
    print_sm_clock("after the warm-up");

    volatile long long sink = 0;
    const Cost cost = measure(
        {
            [&] {
                GPUCHRONO_CUDA_CHECK(cudaEventRecord(a, stream), "raw start record");
                GPUCHRONO_CUDA_CHECK(cudaEventRecord(b, stream), "raw stop record");
            },
            [&] {
                gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream, gpuchrono::EventPolicy::Options{.wait_at_stop = false});
            },
            [&] {
                gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(
                    stream, gpuchrono::EventPolicy::Options{.wait_at_stop = false, .checks = false});
            },
            [&] {
                const auto t0 = std::chrono::steady_clock::now();
                sink = (std::chrono::steady_clock::now() - t0).count();
            },
            [&] { gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t; },
        },
        {0, 0, 0, 3, 3}, stream);
    print_sm_clock("after the measurement");

    std::printf("\n%-40s %12s %12s\n", "scope (host time per scope)", "ns", "vs raw");
    const char* names[] = {"raw cudaEventRecord pair", "ScopedTimer<EventPolicy>, lazy", "ScopedTimer<EventPolicy>, minimal",
                           "raw steady_clock pair", "ScopedTimer<HostClockPolicy>"};
    for (std::size_t k = 0; k < cost.ns.size(); ++k)
        std::printf("%-40s %12.1f %11.2fx\n", names[k], cost.ns[k], cost.ratio[k]);

    GPUCHRONO_CUDA_CHECK(cudaEventDestroy(a), "destroying a raw event");
    GPUCHRONO_CUDA_CHECK(cudaEventDestroy(b), "destroying a raw event");
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(stream), "destroying the benchmark stream");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_overhead: %s\n", e.what());
    return 1;
}
