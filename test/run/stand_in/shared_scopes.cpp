// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A program that uses gpuchrono itself, run under the injection over the stand-in CUPTI: its hold must share the
// injection's subscription (no cuptiSubscribe of its own, no buffer callbacks of its own), receive the records and
// the launch callbacks it asks for, and leave CUPTI to the injection when its last hold ends. There is no GPU here,
// so KernelPolicy's own code (which needs the CUDA runtime) is stood in for by the steps it takes through the
// session: a store window, a launch log, a flush, a collect.
#include "shared_scopes.hpp"

#include "cupti/cupti_session.hpp"
#include "cupti/launch_subscriber.hpp"

#include "cupti/buffers_delivered.hpp"
#include <gpuchrono/cupti/cupti_hold.hpp>
#include "cupti/hold_counts.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok) ++failures;
}

}  // namespace

int shared_scopes(void* cupti, FakeKernel kernel, std::uint64_t clock_start_ns) {
    using namespace gpuchrono;
    const auto registrations = reinterpret_cast<int (*)()>(dlsym(cupti, "fake_cupti_registrations"));
    const auto callback_enabled = reinterpret_cast<int (*)(int, std::uint32_t)>(dlsym(cupti, "fake_cupti_callback_enabled"));
    std::uint64_t clock_ns = clock_start_ns;
    const auto launch = [&](const char* name, std::uint64_t ns) {
        const std::uint64_t start = clock_ns;
        clock_ns += ns + 100;
        kernel(name, start, start + ns, 0);
    };
    const int registered_before = registrations();
    {
        CuptiHold hold;
        expect(hold.held(), "the program's hold is taken under the injection (" + hold.why_not() + ")");
        expect(cupti::cupti_shared_with_run(), "it shares the injection's CUPTI subscription");
        expect(registrations() == registered_before, "it registers no buffer callbacks of its own");
        expect(callback_enabled(CUPTI_CB_DOMAIN_RUNTIME_API, 1) == 1, "the launch callbacks it needs are enabled");
        std::string why;
        cupti::CuptiSession* session = hold.held() ? cupti::CuptiSession::get(why) : nullptr;
        if (!session) return failures + 1;
        const std::size_t delivered_before = cupti::buffers_delivered();
        const std::uint64_t opened_ns = session->timestamp();
        const cupti::ActivityStore::Window window = session->store().open_window(opened_ns);
        // The scope's kernels run after its window opened: taking the hold may have outlasted the 1 ms lead the
        // program's clock was given (ASan on a loaded machine), and the store drops what ran before its windows.
        clock_ns = std::max(clock_ns, opened_ns + 1000);
        cupti::LaunchLog log;
        cupti::open_launch_log(&log);
        launch("gpuchrono_stream_marker", 1000);
        for (int i = 0; i < 20; ++i) launch("_Z4spinm", 10000);
        launch("gpuchrono_stream_marker", 1000);
        cupti::close_launch_log(&log);
        // Two calls per kernel (the runtime's and the driver's inside it), as the stand-in's driver makes them.
        expect(log.correlations.size() == 44, "the scope's launch log saw each launch call (" +
                                                  std::to_string(log.correlations.size()) + " of 44)");
        session->flush();
        const cupti::ActivityStore::Collected got = session->store().collect(log.correlations, 0);
        const auto named = [&](std::string_view name) {
            return std::count_if(got.launched.begin(), got.launched.end(), [&](const KernelActivity& a) { return a.name == name; });
        };
        expect(named("spin(unsigned long)") == 20 && named("gpuchrono_stream_marker") == 2 && got.launched.size() == 22,
               "the flush delivered the scope's 22 records to the library's store (" + std::to_string(got.launched.size()) + ")");
        expect(cupti::buffers_delivered() > delivered_before, "through buffers the injection handed on");
        session->store().close_window(window);
    }
    expect(release_cupti() && !cupti::cupti_shared_with_run(), "the last hold ends: the library detaches");
    expect(callback_enabled(CUPTI_CB_DOMAIN_RUNTIME_API, 1) == 0,
           "the callbacks only the library wanted are off again (the program pushed no NVTX range)");
    const std::size_t delivered = cupti::buffers_delivered();
    for (int i = 0; i < 10; ++i) launch("after", 2000);
    // What a gpuchrono timer or measure() launches for itself in a program: not the program's kernels.
    for (int i = 0; i < 3; ++i) launch("_ZN9gpuchrono6detail12_GLOBAL__N_113warmup_kernelEv", 2000);
    launch("_ZN9gpuchrono6detail12_GLOBAL__N_116lead_spin_kernelEm", 50000);
    {
        CuptiHold again;
        expect(again.held() && cupti::cupti_shared_with_run(), "a later hold shares the subscription again");
    }
    expect(release_cupti(), "and gives it back");
    expect(cupti::buffers_delivered() >= delivered, "the library's counts stand");
    return failures;
}

int shared_churn(FakeKernel kernel, std::uint64_t clock_start_ns) {
    using namespace gpuchrono;
    std::atomic<bool> launching{true};
    std::thread launcher([&] {
        std::uint64_t t = clock_start_ns;
        for (int i = 0; i < 2000; ++i, t += 1100) {
            kernel("churn", t, t + 1000, 0);
            if (i % 50 == 0) std::this_thread::yield();
        }
        launching = false;
    });
    int holds = 0, shared = 0;
    while (launching.load() || holds < 100) {
        CuptiHold hold;
        ++holds;
        shared += cupti::cupti_shared_with_run() ? 1 : 0;
        std::string why;
        if (cupti::CuptiSession* session = hold.held() ? cupti::CuptiSession::get(why) : nullptr) session->flush();
        hold.release();
        (void)release_cupti();
    }
    launcher.join();
    expect(shared == holds, std::to_string(shared) + " of " + std::to_string(holds) + " holds shared the subscription");
    return failures;
}

int shared_other_cupti(FakeKernel kernel, std::uint64_t clock_start_ns) {
    using namespace gpuchrono;
    {
        CuptiHold hold;
        std::printf("  why not: %s\n", hold.why_not().c_str());
        expect(!hold.held() && hold.why_not().find("cannot read the injection's CUPTI records") != std::string::npos,
               "a gpuchrono that loaded another CUPTI is refused, and says why");
        expect(!cupti::cupti_shared_with_run(), "it shares nothing");
    }
    for (int i = 0; i < 5; ++i) kernel("late", clock_start_ns + i * 2000, clock_start_ns + i * 2000 + 1000, 0);
    return failures;
}
