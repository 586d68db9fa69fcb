// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono's hold of CUPTI, counted, on a stand-in CUPTI (fake_cupti_hold.cpp, named by GPUCHRONO_CUPTI): no GPU
// needed, as a hold touches CUPTI only. Checks: nested holds set CUPTI up once; after the last one ends CUPTI
// lingers, a hold taken meanwhile reuses it, and then (after the linger, or at once with release_cupti()) it is
// flushed (forced), every activity kind it enabled disabled and unsubscribed; the next hold subscribes and registers its
// buffer callbacks again; while another tool holds the subscriber slot no hold is taken, and KernelPolicy says
// which tool; holds taken and ended on many threads leave CUPTI given back.
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cupti/hold_counts.hpp"
#include <gpuchrono/api.hpp>

namespace {

struct Counts {
    int subscribes, unsubscribes, enabled_kinds, registrations, forced_flushes, subscribed;
};

using CountsFn = void (*)(int*);
using TakeFn = void (*)(bool);
CountsFn counts_fn = nullptr;
TakeFn take_fn = nullptr;
int failures = 0;

Counts counts() {
    int v[6] = {};
    counts_fn(v);
    return {v[0], v[1], v[2], v[3], v[4], v[5]};
}

void expect(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

}  // namespace

int main() {
    const char* path = std::getenv("GPUCHRONO_CUPTI");
    void* fake = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : nullptr;
    if (!fake) {
        std::printf("FAILED: GPUCHRONO_CUPTI must name the stand-in CUPTI (fake_cupti_hold)\n");
        return 1;
    }
    counts_fn = reinterpret_cast<CountsFn>(dlsym(fake, "fake_cupti_counts"));
    take_fn = reinterpret_cast<TakeFn>(dlsym(fake, "fake_cupti_take"));
    using gpuchrono::cupti::cupti_acquisitions;
    using gpuchrono::cupti::cupti_holders;

    {
        gpuchrono::CuptiHold outer;
        expect(outer.held() && outer.why_not().empty(), "a hold is taken on a working CUPTI");
        expect(counts().subscribes == 1 && counts().enabled_kinds == 3 && counts().registrations == 1,
               "the first hold subscribes, registers its buffers and enables three activity kinds");
        {
            gpuchrono::CuptiHold inner;
            expect(cupti_holders() == 2 && cupti_acquisitions() == 1 && counts().subscribes == 1,
                   "a nested hold counts, without setting CUPTI up again");
        }
        expect(cupti_holders() == 1 && counts().unsubscribes == 0 && counts().subscribed == 1,
               "ending a hold that is not the last keeps CUPTI");
    }
    expect(cupti_holders() == 0 && counts().subscribed == 1, "after the last hold CUPTI lingers");
    {
        gpuchrono::CuptiHold within;
        expect(cupti_acquisitions() == 1 && counts().subscribes == 1, "a hold within the linger reuses the set-up");
    }
    // Given back by the library's own thread after the linger (polled up to 10 s: a slow machine must not fail it).
    for (int i = 0; i < 1000 && counts().subscribed == 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    Counts c = counts();
    expect(cupti_holders() == 0 && c.unsubscribes == 1 && c.subscribed == 0, "after the linger CUPTI is given back");
    expect(c.enabled_kinds == 0, "the last hold disables every activity kind it enabled");
    expect(c.forced_flushes == 1, "the last hold flushes CUPTI's buffers (forced) before giving CUPTI back");

    {
        gpuchrono::CuptiHold again;
        c = counts();
        expect(again.held() && cupti_acquisitions() == 2 && c.subscribes == 2 && c.registrations == 2,
               "the next hold subscribes and registers its buffer callbacks again");
        gpuchrono::CuptiHold moved = std::move(again);
        expect(!again.held() && moved.held() && cupti_holders() == 1, "a moved hold is one hold");
        expect(!gpuchrono::release_cupti() && counts().subscribed == 1, "release_cupti() leaves CUPTI to a live hold");
    }
    expect(gpuchrono::release_cupti() && counts().subscribed == 0,
           "release_cupti() gives CUPTI back at once after the moved hold ends");

    take_fn(true);  // another tool subscribes while gpuchrono holds nothing
    {
        gpuchrono::CuptiHold refused;
        expect(!refused.held() && refused.why_not().find("taken by another tool") != std::string::npos,
               "no hold while another tool holds the subscriber slot, and the reason says so");
        expect(cupti_holders() == 0 && cupti_acquisitions() == 2, "a refused hold counts nothing");
        expect(!gpuchrono::KernelPolicy::available(), "KernelPolicy is unavailable meanwhile");
        const std::string why = gpuchrono::KernelPolicy::unavailable_reason();
        expect(why.find("taken by another tool") != std::string::npos, "KernelPolicy's reason names the other tool");
        std::printf("  reason: %s\n", why.c_str());
    }
    take_fn(false);  // the tool unsubscribed
    expect(gpuchrono::KernelPolicy::available() && gpuchrono::release_cupti() && counts().subscribed == 0,
           "after the tool leaves, KernelPolicy is available again, and CUPTI is given back");

    const std::size_t before = cupti_acquisitions();
    {
        gpuchrono::CuptiHold loop_hold;
        for (int i = 0; i < 100; ++i) gpuchrono::CuptiHold per_scope;
        expect(cupti_acquisitions() == before + 1, "under a hold, a loop of holds sets CUPTI up once");
    }

    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([] {
            for (int i = 0; i < 500; ++i) {
                gpuchrono::CuptiHold h;
                if (!h.held()) std::abort();
            }
        });
    for (std::thread& t : threads) t.join();
    expect(gpuchrono::release_cupti(), "no hold is left after the threads");
    c = counts();
    expect(cupti_holders() == 0 && c.subscribed == 0 && c.subscribes == c.unsubscribes && c.enabled_kinds == 0,
           "holds on 8 threads leave CUPTI given back, every subscription ended");
    std::printf("%d acquisitions in all\n", static_cast<int>(cupti_acquisitions()));
    return failures == 0 ? 0 : 1;
}
