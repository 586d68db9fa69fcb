// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A program that knows nothing of gpuchrono, recorded by `gpuchrono run` in run_gpu_test.py: kernels of known
// length, NVTX ranges on two threads, a CUDA graph, and the endings a report must survive.
//
//   run_target spin N D_US        N spins of D_US microseconds, then 2N empty kernels
//   run_target nvtx               two threads, each: range "step" { 5 empty kernels, range "thread-<i>" { 10 spins of 20 us } }
//   run_target graph              a graph of 3 spins of 10 us, launched 10 times inside NVTX range "graph"
//   run_target sigterm            spins of 10 us until a signal ends it
//   run_target crash              100 spins of 10 us, 2.5 s of waiting (the periodic flush), then abort()
//   run_target exit K             10 spins, then exit(K)
// Exit status 77 when there is no CUDA device.
#include "spin.hpp"

#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

using gpuchrono::Duration;
using gpuchrono::kernels::launch_empty;
using gpuchrono::kernels::launch_spin;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "run_target: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

Duration us(double v) { return Duration::from_ns(v * 1000.0); }

}  // namespace

int main(int argc, char** argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::puts("run_target: no CUDA device");
        return 77;
    }
    const std::string mode = argc > 1 ? argv[1] : "spin";
    if (mode == "spin") {
        const int n = argc > 2 ? std::atoi(argv[2]) : 1000;
        const double d = argc > 3 ? std::atof(argv[3]) : 10.0;
        for (int i = 0; i < n; ++i) launch_spin(us(d), nullptr);
        for (int i = 0; i < 2 * n; ++i) launch_empty(nullptr);
        check(cudaDeviceSynchronize(), "spin");
    } else if (mode == "nvtx") {
        auto work = [](int t) {
            cudaStream_t s;
            check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
            nvtxRangePushA("step");
            for (int i = 0; i < 5; ++i) launch_empty(s);
            const std::string mine = "thread-" + std::to_string(t);
            nvtxRangePushA(mine.c_str());
            for (int i = 0; i < 10; ++i) launch_spin(us(20), s);
            nvtxRangePop();
            nvtxRangePop();
            check(cudaStreamSynchronize(s), "nvtx");
            check(cudaStreamDestroy(s), "stream");
        };
        check(cudaFree(nullptr), "context");
        std::thread a(work, 0), b(work, 1);
        a.join();
        b.join();
    } else if (mode == "graph") {
        cudaStream_t s;
        check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
        cudaGraph_t g;
        check(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), "capture");
        for (int i = 0; i < 3; ++i) launch_spin(us(10), s);
        check(cudaStreamEndCapture(s, &g), "capture");
        cudaGraphExec_t e;
        check(cudaGraphInstantiate(&e, g, 0), "instantiate");
        nvtxRangePushA("graph");
        for (int i = 0; i < 10; ++i) check(cudaGraphLaunch(e, s), "graph launch");
        nvtxRangePop();
        check(cudaStreamSynchronize(s), "graph");
    } else if (mode == "sigterm") {
        std::puts("run_target: spinning until a signal");
        std::fflush(stdout);
        for (;;) {
            for (int i = 0; i < 100; ++i) launch_spin(us(10), nullptr);
            check(cudaDeviceSynchronize(), "sigterm");
        }
    } else if (mode == "crash") {
        for (int i = 0; i < 100; ++i) launch_spin(us(10), nullptr);
        check(cudaDeviceSynchronize(), "crash");
        std::this_thread::sleep_for(std::chrono::milliseconds(2500));
        std::abort();
    } else if (mode == "exit") {
        for (int i = 0; i < 10; ++i) launch_spin(us(10), nullptr);
        check(cudaDeviceSynchronize(), "exit");
        std::exit(argc > 2 ? std::atoi(argv[2]) : 0);
    } else {
        std::fprintf(stderr, "run_target: unknown mode %s\n", mode.c_str());
        return 2;
    }
    return 0;
}
