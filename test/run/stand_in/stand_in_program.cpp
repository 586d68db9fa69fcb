// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Plays the CUDA driver and a program for libgpuchrono_inject.so over the stand-in CUPTI (fake_cupti.cpp):
// loads both, calls InitializeInjection() as the driver does, then "runs" kernels with NVTX ranges on two
// threads and ends as MODE says. The options come from GPUCHRONO_RUN_* variables, as under a launcher.
//
//   stand_in_program FAKE_CUPTI.so INJECT.so MODE [LIBRARY.so]
//   MODE: exit (exit(3)), dropped, sigterm, sigint-handled, crash, held (another CUPTI user), fork,
//         window (kernels "before", then SIGUSR1, "inside", SIGUSR2, "after", at the stand-in's real clock),
//         timed ("early" kernels, 400 ms later "late" ones, for --delay and --duration),
//         library-ranges (LIBRARY.so, a stand-in cuBLAS, pushes its own domain's range around each of its
//         kernels: 10 calls outside every range; then 10 kernels in a domain range of the program's own, its
//         message a registered string; then 10 library calls inside the program's range "forward", and 5 CUB
//         calls there, each a range in CUB's domain "CCCL" around its kernel),
//         shared, shared-churn, shared-other-cupti (the program's own gpuchrono scopes: shared_scopes.hpp),
//         profiler-inside (10 kernels, then a cuptiSubscribe of the program's own, as a profiler started inside
//         it makes, then 10 more: run under LD_PRELOAD of libgpuchrono_run_watch.so)
#include "shared_scopes.hpp"

#include <cupti.h>

#include <dlfcn.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

using Push = void (*)(const char*);
using Pop = void (*)();
using Kernel = void (*)(const char*, std::uint64_t, std::uint64_t, int);
using Memcpy = void (*)(std::uint64_t, std::uint64_t, std::uint64_t);
using Drop = void (*)(std::size_t);
using Refuse = void (*)(int);

Push push;
Pop pop;
Kernel kernel;
Memcpy memcpy_;
// The stand-in's records are on its cuptiGetTimestamp() clock (steady_clock), after the injection started.
std::atomic<std::uint64_t> clock_ns{0};

void launch(const char* name, std::uint64_t ns) {
    const std::uint64_t start = clock_ns.fetch_add(ns + 100);
    kernel(name, start, start + ns, 0);
}

void work(int thread) {
    const std::string mine = "thread-" + std::to_string(thread);
    for (int i = 0; i < 100; ++i) {
        push("step");
        launch("_Z6k_stepv", 3000);
        push(mine.c_str());
        launch("_Z4spinm", 10000);
        launch("_Z4spinm", 10000);
        pop();
        pop();
        launch("outside", 5000);
    }
}

// A kernel at the stand-in clock's present (the recording window is on that clock).
void launch_now(const char* name) {
    const auto now = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    kernel(name, now, now + 1000, 0);
}

void pause_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

std::atomic<bool> handled{false};
void program_handler(int) { handled = true; }

template <class F>
F symbol(void* lib, const char* name) {
    auto f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f) {
        std::fprintf(stderr, "stand_in_program: %s missing\n", name);
        std::exit(2);
    }
    return f;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fputs("usage: stand_in_program FAKE_CUPTI.so INJECT.so MODE\n", stderr);
        return 2;
    }
    const std::string mode = argv[3];
    void* cupti = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);  // the injection's libcupti.so.13 resolves to it
    if (!cupti) {
        std::fprintf(stderr, "stand_in_program: %s\n", dlerror());
        return 2;
    }
    push = symbol<Push>(cupti, "fake_cupti_push");
    pop = symbol<Pop>(cupti, "fake_cupti_pop");
    kernel = symbol<Kernel>(cupti, "fake_cupti_kernel");
    memcpy_ = symbol<Memcpy>(cupti, "fake_cupti_memcpy");
    if (mode == "held") symbol<Refuse>(cupti, "fake_cupti_refuse_subscription")(1);
    if (mode == "sigint-handled") signal(SIGINT, program_handler);
    void* inject = dlopen(argv[2], RTLD_NOW);
    if (!inject) {
        std::fprintf(stderr, "stand_in_program: %s\n", dlerror());
        return 2;
    }
    symbol<int (*)()>(inject, "InitializeInjection")();
    clock_ns = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) + 1'000'000;

    if (mode == "window") {
        for (int i = 0; i < 10; ++i) launch_now("before");
        raise(SIGUSR1);
        pause_ms(200);  // the flush thread opens the window
        for (int i = 0; i < 10; ++i) launch_now("inside");
        pause_ms(200);
        raise(SIGUSR2);
        pause_ms(200);
        for (int i = 0; i < 10; ++i) launch_now("after");
        return 0;
    }
    if (mode == "shared") return shared_scopes(cupti, kernel, clock_ns.load()) == 0 ? 0 : 1;
    if (mode == "shared-churn") return shared_churn(kernel, clock_ns.load()) == 0 ? 0 : 1;
    if (mode == "shared-other-cupti") return shared_other_cupti(kernel, clock_ns.load()) == 0 ? 0 : 1;
    if (mode == "profiler-inside") {
        for (int i = 0; i < 10; ++i) launch_now("before");
        // Through the global scope, as a library linked against CUPTI calls it (the preloaded watch comes first).
        using Subscribe = CUptiResult (*)(CUpti_SubscriberHandle*, CUpti_CallbackFunc, void*);
        const auto subscribe = reinterpret_cast<Subscribe>(dlsym(RTLD_DEFAULT, "cuptiSubscribe"));
        CUpti_SubscriberHandle mine = nullptr;
        const CUptiResult r = subscribe ? subscribe(&mine, nullptr, nullptr) : CUPTI_ERROR_UNKNOWN;
        std::printf("stand_in_program: its own cuptiSubscribe answered %d\n", static_cast<int>(r));
        for (int i = 0; i < 10; ++i) launch_now("after");
        return r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? 0 : 1;
    }
    if (mode == "library-ranges") {
        using DomainPush = void (*)(const char*, const char*);
        const auto domain_push = symbol<DomainPush>(cupti, "fake_cupti_domain_push");
        const auto domain_pop = symbol<Pop>(cupti, "fake_cupti_domain_pop");
        void* library = argc > 4 ? dlopen(argv[4], RTLD_NOW) : nullptr;
        if (!library) {
            std::fprintf(stderr, "stand_in_program: library-ranges needs the stand-in library: %s\n", dlerror());
            return 2;
        }
        using LibraryCall = void (*)(DomainPush, Pop, void (*)(const char*, std::uint64_t));
        const auto library_call = symbol<LibraryCall>(library, "stand_in_library_call");
        for (int i = 0; i < 10; ++i) library_call(domain_push, domain_pop, launch);
        for (int i = 0; i < 10; ++i) {
            domain_push("stand-in program domain", "gemm");
            launch("gemm_kernel", 1000);
            domain_pop();
        }
        for (int i = 0; i < 10; ++i) {
            push("forward");
            library_call(domain_push, domain_pop, launch);
            if (i % 2 == 0) {
                domain_push("CCCL", "cub::DeviceReduce::Sum");
                launch("cub_kernel", 1000);
                domain_pop();
            }
            pop();
        }
        return 0;
    }
    if (mode == "timed") {
        for (int i = 0; i < 10; ++i) launch_now("early");
        pause_ms(400);
        for (int i = 0; i < 10; ++i) launch_now("late");
        return 0;
    }
    std::thread a(work, 0), b(work, 1);
    a.join();
    b.join();
    memcpy_(1 << 20, clock_ns.fetch_add(1000), clock_ns.load());
    if (mode == "exit") std::exit(3);
    if (mode == "dropped") {
        symbol<Drop>(cupti, "fake_cupti_drop")(5);
        return 0;
    }
    if (mode == "held") {
        std::puts("stand_in_program: ran to its end");
        return 0;
    }
    if (mode == "sigterm") {
        raise(SIGTERM);
        std::this_thread::sleep_for(std::chrono::seconds(10));
        return 1;  // not reached: SIGTERM's default action ends the process
    }
    if (mode == "sigint-handled") {
        raise(SIGINT);
        std::puts(handled ? "stand_in_program: its own SIGINT handler ran" : "stand_in_program: its handler did not run");
        return handled ? 0 : 1;
    }
    if (mode == "crash") {
        std::this_thread::sleep_for(std::chrono::milliseconds(800));  // several periodic flushes
        std::abort();
    }
    if (mode == "fork") {
        const pid_t child = fork();
        if (child == 0) _exit(0);  // a forked child ends: it must not write the parent's report
        int status = 0;
        waitpid(child, &status, 0);
        return 0;
    }
    std::fprintf(stderr, "stand_in_program: unknown mode %s\n", mode.c_str());
    return 2;
}
