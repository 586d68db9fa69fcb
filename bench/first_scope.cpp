// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Open question: how far the first EventPolicy scope of a process reads above the steady median (target: within
// 3%), and what of it is the driver's rather than the library's. Each row is a fresh child process: spin(10 us)
// after 20 warm-up spins, its first and second scope against the median of 50 more; EventPolicy as it comes, with
// the GPU-state reads off, after prepare(); KernelPolicy; and two baselines without the library (a raw event pair,
// the same after an NVML read).
// Not a test: it asserts nothing. Run on a GPU: bench_first_scope
#include <cuda_runtime_api.h>

#include "bench_timing.hpp"
#include "device_banner.hpp"

#include <spin.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <gpuchrono/gpu/gpu_state.hpp>

#include <gpuchrono/api.hpp>

namespace {

// Child process: the first scope of `which` policy in a fresh process (after 20 warm-up spins),
// then the steady median of 50 more. Prints "first <ns> steady <ns>".
int first_scope_child(const char* which) {
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the stream");
    if (std::strcmp(which, "event-prepared") == 0) gpuchrono::prepare(stream);  // before the program's own warm-up
    warm(stream);
    const Duration d = Duration::from_us(10);
    double launch_ns = 0;  // host time of the timed launch call
    // The baselines without the library: a raw event pair created before the warm-up (what a fresh process's
    // first pair costs by itself), and the same after an NVML read made here with one empty launch after it
    // (what the library did before it settled the launch path after driver work).
    const bool raw = std::strncmp(which, "raw", 3) == 0;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    if (raw) {
        GPUCHRONO_CUDA_CHECK(cudaEventCreate(&e0), "creating an event");
        GPUCHRONO_CUDA_CHECK(cudaEventCreate(&e1), "creating an event");
        warm(stream);
        if (std::strcmp(which, "raw-nvml") == 0) {
            (void)gpuchrono::read_gpu_state(0);
            kernels::launch_empty(stream);
        }
    }
    auto one = [&]() -> double {
        if (raw) {
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(e0, stream), "recording");
            const auto t0 = Clock::now();
            kernels::launch_spin(d, stream);
            launch_ns = ns_since(t0);
            GPUCHRONO_CUDA_CHECK(cudaEventRecord(e1, stream), "recording");
            GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(e1), "waiting");
            float ms = 0;
            GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1), "reading");
            return ms * 1e6;
        }
        if (std::strcmp(which, "kernel") == 0) {
            ScopedTimer<KernelPolicy> t(stream);
            const auto t0 = Clock::now();
            kernels::launch_spin(d, stream);
            launch_ns = ns_since(t0);
            return t.stop().duration().ns();
        }
        ScopedTimer<EventPolicy> t(stream);
        const auto t0 = Clock::now();
        kernels::launch_spin(d, stream);
        launch_ns = ns_since(t0);
        return t.stop().duration().ns();
    };
    const double first = one();
    const double first_launch = launch_ns;
    const double second = one();  // a first-use cost that moved rather than vanished would show here
    std::vector<double> rest, rest_launch;
    for (int i = 0; i < 50; ++i) {
        rest.push_back(one());
        rest_launch.push_back(launch_ns);
    }
    const Spread steady = spread(rest);
    std::printf("first %.0f second %.0f steady %.0f p95 %.0f launch %.0f %.0f\n", first, second, steady.median, steady.p95,
                first_launch, spread(rest_launch).median);
    return 0;
}

void first_scopes(const char* self) {
    std::printf("\n[1] first scope of a process vs the steady median (spin 10 us, after 20 warm-up spins; 10 processes "
                "each; the steady p95 beside it: one steady scope's own spread)\n");
    // EventPolicy three times: as it comes, with the GPU-state reads off (NVML's initialisation before the first
    // interval is most of what makes the user's first launch slow; gpu/gpu_state.hpp), and with prepare() called
    // before the program's warm-up (gpu/prepare.hpp).
    for (const auto& [which, env] : {std::pair{"raw", ""}, std::pair{"raw-nvml", ""}, std::pair{"event", ""},
                                     std::pair{"event", "GPUCHRONO_GPU_STATE=0 "}, std::pair{"event-prepared", ""},
                                     std::pair{"kernel", ""}}) {
        if (*env) std::printf("  with %s:\n", env);
        std::vector<double> excess;
        int above_p95 = 0;
        for (int run = 0; run < 10; ++run) {
            const std::string command = std::string(env) + self + " --first-scope " + which;
            FILE* child = popen(command.c_str(), "r");
            if (!child) {
                std::printf("  could not start %s\n", command.c_str());
                return;
            }
            double first = 0, second = 0, steady = 0, p95 = 0, launch_first = 0, launch_steady = 0;
            const int got = std::fscanf(child, "first %lf second %lf steady %lf p95 %lf launch %lf %lf", &first, &second,
                                        &steady, &p95, &launch_first, &launch_steady);
            const int status = pclose(child);
            if (got != 6 || status != 0) {
                std::printf("  %s: child failed (status %d)\n", which, status);
                continue;
            }
            excess.push_back(100.0 * (first - steady) / steady);
            if (first > p95) ++above_p95;
            std::printf("  %-14s process %d: first %8.0f ns, steady median %8.0f ns (p95 %+.1f%%), first - steady %+7.0f ns "
                        "(%+.1f%%), second - steady %+7.0f ns (%+.1f%%); timed launch call first %.0f ns, steady %.0f ns\n",
                        which, run, first, steady, 100.0 * (p95 - steady) / steady, first - steady, excess.back(),
                        second - steady, 100.0 * (second - steady) / steady, launch_first, launch_steady);
        }
        if (!excess.empty())
            std::printf("  %s%s: first - steady median over the processes %+.1f%% (%.1f%%..%+.1f%%); first above its process's "
                        "steady p95 in %d of %zu\n", which, *env ? " (GPU state off)" : "", spread(excess).median,
                        *std::min_element(excess.begin(), excess.end()), *std::max_element(excess.begin(), excess.end()),
                        above_p95, excess.size());
        if (!excess.empty() && std::strcmp(which, "event") == 0 && !*env)
            std::printf("  => target: first EventPolicy scope (default settings) within 3%% of the steady median "
                        "over 10 fresh processes: %+.1f%% (median), %s\n", spread(excess).median,
                        std::abs(spread(excess).median) <= 3.0 ? "met" : "missed");
    }
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc == 3 && std::strcmp(argv[1], "--first-scope") == 0) return first_scope_child(argv[2]);
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_first_scope: no CUDA device (%s); run it on a GPU machine\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_first_scope");
    first_scopes(argv[0]);
    print_sm_clock("after the table");  // read here: the children's first NVML read is part of the question
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_first_scope: %s\n", e.what());
    return 1;
}
