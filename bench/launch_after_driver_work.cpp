// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Why does a timed launch right after an NVML read come out slow? (gpu-run-3: an empty kernel's event
// interval read 12.7 us when the timer's start had read NVML, 5.5 us when it had not, although the library
// launches one empty kernel after the NVML read and before the start record, see modules/src/launch_warmup.hpp.)
//
// Each condition times one empty kernel with a raw, pre-created event pair on a non-blocking stream, after
// the stream has drained, 30 times; it reports the median event interval and the median host time of the
// launch call itself, so a host-side cost (the call returns late) and a GPU-side cost (the kernel starts late)
// can be told apart. Nothing here goes through a gpuchrono timer: the point is the driver's behaviour.
//
// Seen on an H100 in a VM (driver 580.159.04, CUDA 13.0), two runs, medians of 30:
//   nothing before the start record          5.50 / 6.37 us   launch call 3.5 / 4.4 us
//   NVML read                               6.66 / 12.9 us   launch call 4.4 / 9.9 us
//   NVML read, one empty launch (library)    5.98 / 6.78 us   launch call 4.3 / 4.4 us
//   5 ms host sleep                          24.0 / 18.3 us   launch call 18.5 / 13.6 us
//   5 ms host sleep, one empty launch        9.38 / 9.28 us   launch call 5.3 / 5.6 us
// The extra time is host time in the launch call: the first launch after the thread did something else
// (an NVML read, or nothing at all for 5 ms) returns late, and with an event pair on an idle stream that
// time is inside the interval. The library's one empty launch after its NVML read takes that cost out
// (to within 10%); a user's own pause before a timed launch is the user's, and host-time-in-event-interval
// reports it when it is large.
#include <cuda_runtime_api.h>

#include <spin.hpp>

#include "device_banner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

// The GPU-state query is internal.
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>

#include <gpuchrono/api.hpp>

namespace {

constexpr int repetitions = 30;

struct Result {
    double interval_us;
    double launch_call_us;
};

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

// `before` runs after the stream drained and before the start record.
Result time_empty_kernel(cudaStream_t stream, cudaEvent_t a, cudaEvent_t b, const std::function<void()>& before) {
    std::vector<double> interval, call;
    for (int i = 0; i < repetitions; ++i) {
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining before a sample");
        before();
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(a, stream), "recording the start");
        const auto t0 = std::chrono::steady_clock::now();
        gpuchrono::kernels::launch_empty(stream);
        const auto t1 = std::chrono::steady_clock::now();
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(b, stream), "recording the stop");
        GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(b), "waiting for the stop");
        float ms = 0;
        GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b), "reading the interval");
        interval.push_back(ms * 1e3);
        call.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    return {median(interval), median(call)};
}

}  // namespace

int main() try {
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_launch_after_driver_work: no CUDA device (%s); run it on a GPU machine\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_launch_after_driver_work");
    const int device = gpuchrono::current_device();
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the stream");
    cudaEvent_t a = nullptr, b = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreate(&a), "creating an event");
    GPUCHRONO_CUDA_CHECK(cudaEventCreate(&b), "creating an event");
    // Load the kernel's module, NVML, and wake the GPU before anything is compared.
    (void)gpuchrono::read_gpu_state(device);
    gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ms(100), stream);
    (void)time_empty_kernel(stream, a, b, [] {});

    auto nvml = [&] { (void)gpuchrono::read_gpu_state(device); };
    auto warm = [&] { gpuchrono::kernels::launch_empty(stream); };
    auto warm_and_wait = [&] {
        gpuchrono::kernels::launch_empty(stream);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for the warm-up launch");
    };
    auto pause = [] { std::this_thread::sleep_for(std::chrono::milliseconds(5)); };

    struct Condition {
        const char* what;
        std::function<void()> before;
    };
    const std::vector<Condition> conditions = {
        {"nothing before the start record", [] {}},
        {"NVML read", nvml},
        {"NVML read, one empty launch (the library)", [&] { nvml(); warm(); }},
        {"NVML read, one empty launch, waited for", [&] { nvml(); warm_and_wait(); }},
        {"5 ms host sleep", pause},
        {"5 ms host sleep, one empty launch", [&] { pause(); warm(); }},
        {"5 ms host sleep, one empty launch, waited for", [&] { pause(); warm_and_wait(); }},
        {"nothing (again, to see drift)", [] {}},
    };
    std::printf("\nempty kernel, raw event pair, median of %d (stream drained before each)\n", repetitions);
    std::printf("%-48s %14s %16s %10s\n", "before the start record", "interval [us]", "launch call [us]", "vs first");
    double first = 0;
    for (const Condition& c : conditions) {
        const Result r = time_empty_kernel(stream, a, b, c.before);
        if (first == 0) first = r.interval_us;
        std::printf("%-48s %14.2f %16.2f %9.2fx\n", c.what, r.interval_us, r.launch_call_us, r.interval_us / first);
    }
    GPUCHRONO_CUDA_CHECK(cudaEventDestroy(a), "destroying an event");
    GPUCHRONO_CUDA_CHECK(cudaEventDestroy(b), "destroying an event");
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(stream), "destroying the stream");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_launch_after_driver_work: %s\n", e.what());
    return 1;
}
