// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Host cost of gpuchrono's NVTX ranges with no profiler attached: the same timed scope with NVTX on and off
// (set_nvtx_enabled), side by side in one run, batches of the two interleaved so drift hits both alike.
//   ScopedTimer<HostClockPolicy> bound to a Series   two steady_clock reads, the range push and pop
//   ScopedTimer<EventPolicy>, lazy, bound to a Series two cudaEventRecord calls, the range push and pop
// Reported as ns per scope (median of batches), the difference, and the ratio on / off.
// With no tool attached (NVTX_INJECTION64_PATH unset) an NVTX call is a branch on a null function pointer.
#include <cuda_runtime_api.h>

#include "device_banner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <vector>

#include <gpuchrono/api.hpp>

namespace {

constexpr int batches = 41;
constexpr int per_batch = 2000;

struct OnOff {
    double on_ns, off_ns;
};

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// Median over batches of the mean host time per scope, NVTX on and off in alternate batches. The series are
// cleared after each batch so their growth costs the same in both.
OnOff on_and_off(const std::function<void()>& scope, gpuchrono::Series& series, cudaStream_t stream) {
    std::vector<double> on, off;
    for (int b = 0; b < 2 * batches; ++b) {
        const bool nvtx = b % 2 == 0;
        gpuchrono::set_nvtx_enabled(nvtx);
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < per_batch; ++i) scope();
        const auto t1 = std::chrono::steady_clock::now();
        (nvtx ? on : off).push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / per_batch);
        if (stream) GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining between batches");
        series.clear();
    }
    gpuchrono::set_nvtx_enabled(true);
    return {median(on), median(off)};
}

void row(const char* what, OnOff r) {
    std::printf("%-40s %10.1f %10.1f %+10.1f %9.3fx\n", what, r.on_ns, r.off_ns, r.on_ns - r.off_ns, r.on_ns / r.off_ns);
}

}  // namespace

int main() try {
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_nvtx_overhead: no CUDA device (%s); run it on a GPU machine (scripts/gpu-run)\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_nvtx_overhead");
    const char* tool = std::getenv("NVTX_INJECTION64_PATH");
    std::printf("NVTX tool attached: %s\n", tool && *tool ? tool : "none (NVTX_INJECTION64_PATH unset)");
    // The timed scopes are empty on purpose, which the library rightly reports (timed-stream-idle): keep quiet.
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the benchmark stream");

    gpuchrono::Series host_series("host scope"), event_series("event scope");
    const OnOff host = on_and_off([&] { gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t(host_series); }, host_series, nullptr);
    const OnOff event = on_and_off(
        [&] {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(event_series, stream,
                                                             gpuchrono::EventPolicy::Options{.wait_at_stop = false});
        },
        event_series, stream);

    std::printf("\n%-40s %10s %10s %10s %10s\n", "scope (host ns per scope)", "NVTX on", "NVTX off", "on - off", "on / off");
    row("ScopedTimer<HostClockPolicy>, Series", host);
    row("ScopedTimer<EventPolicy>, lazy, Series", event);

    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(stream), "destroying the benchmark stream");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_nvtx_overhead: %s\n", e.what());
    return 1;
}
