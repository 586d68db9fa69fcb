// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Open question: what gpuchrono's hold of CUPTI costs. gpuchrono holds CUPTI only while a KernelPolicy (a
// ScopedTimer<KernelPolicy> is one), a measure() by the kernel method, a metrics collection or a CuptiHold is alive,
// and gives it back when the last ends (docs/pitfalls.md, "Who holds CUPTI"). So a scope with nothing else holding
// CUPTI sets it up and gives it back; a scope under a CuptiHold does neither.
//   1. a scope's host time (construct, start, spin(10 us), stop, destroy) and its reading: the first after CUPTI
//      was given back, against scopes under a CuptiHold; and what setting up and giving back cost alone;
//   2. a loop of 1000 scopes: one KernelPolicy reused (start/stop: the policy holds CUPTI throughout), a
//      ScopedTimer per scope under a CuptiHold, and a ScopedTimer per scope with no hold (each sets CUPTI up);
//      beside them, 1000 samples of one segmented batch (compare(fn_a, fn_b)'s KernelBatch: one mark per sample, one
//      wait and flush per batch), and the median reading of a scope and of a batch's sample (they should agree);
//   3. a launch call's host time inside a scope under a hold, against one inside the first scope after a release
//      (bench_kernel_policy [1] compares the former with CUPTI's kernel records alone, in processes of their own).
// Not a test: it asserts nothing. Run on a GPU: bench_cupti_hold
#include <cuda_runtime_api.h>

#include "bench_timing.hpp"
#include "device_banner.hpp"

#include <spin.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "policies/kernel/kernel_batch.hpp"

#include "cupti/hold_counts.hpp"
#include <gpuchrono/gpu/gpu_state.hpp>

#include <gpuchrono/api.hpp>

namespace {

using gpuchrono::CuptiHold;
using gpuchrono::Measurement;

constexpr Duration spin_length = Duration::from_us(10);

struct Scope {
    double host_ns;
    double reading_ns;
};

Scope one_scope(cudaStream_t stream) {
    const auto t0 = Clock::now();
    double reading = 0;
    {
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(spin_length, stream);
        reading = t.stop().duration().ns();
    }
    return {ns_since(t0), reading};
}

void first_scope_after_release(cudaStream_t stream) {
    std::printf("\n[1] one scope (spin 10 us, eager stop), 200 of each, alternating; median (p5..p95)\n");
    std::vector<double> free_host, free_reading, held_host, held_reading, acquire_ns, release_ns;
    for (int i = 0; i < 200; ++i) {
        gpuchrono::release_cupti();             // given back now, not after the linger
        const Scope alone = one_scope(stream);  // nothing else holds CUPTI: set up, then left to linger
        free_host.push_back(alone.host_ns);
        free_reading.push_back(alone.reading_ns);
        {
            CuptiHold hold;
            (void)one_scope(stream);  // the hold's own first scope is not the question
            const Scope held = one_scope(stream);
            held_host.push_back(held.host_ns);
            held_reading.push_back(held.reading_ns);
        }
        gpuchrono::release_cupti();
        const auto t0 = Clock::now();
        auto hold = std::make_unique<CuptiHold>();
        acquire_ns.push_back(ns_since(t0));
        const auto t1 = Clock::now();
        hold.reset();
        gpuchrono::release_cupti();
        release_ns.push_back(ns_since(t1));
    }
    auto row = [](const char* what, const std::vector<double>& v) {
        const Spread s = spread(v);
        std::printf("  %-58s %10.0f ns (%.0f..%.0f)\n", what, s.median, s.p5, s.p95);
    };
    row("host time, first scope after CUPTI was given back", free_host);
    row("host time, a scope under a CuptiHold", held_host);
    row("setting CUPTI up (a CuptiHold constructed, none alive)", acquire_ns);
    row("giving CUPTI back (the last CuptiHold destroyed, release_cupti())", release_ns);
    row("reading, first scope after CUPTI was given back", free_reading);
    row("reading, a scope under a CuptiHold", held_reading);
    std::printf("  ratio first scope / scope under a hold: host time %.2fx, reading %.4fx\n",
                spread(free_host).median / spread(held_host).median,
                spread(free_reading).median / spread(held_reading).median);
}

void loop_of_scopes(cudaStream_t stream) {
    std::printf("\n[2] host ns per scope of a loop of 1000 scopes (spin 10 us, lazy stop, one read per batch); "
                "median of 11 batches\n");
    KernelPolicy::Options lazy;
    lazy.wait_at_stop = false;
    std::vector<double> readings;  // of the last loop's scopes
    auto batches = [&](const std::function<Measurement()>& scope) {
        std::vector<double> per;
        std::vector<Measurement> pending;
        pending.reserve(1000);
        readings.clear();
        for (int b = 0; b < 11; ++b) {
            pending.clear();
            const auto t0 = Clock::now();
            for (int i = 0; i < 1000; ++i) pending.push_back(scope());
            for (const Measurement& m : pending) (void)m.duration();
            per.push_back(ns_since(t0) / 1000);
            for (const Measurement& m : pending) readings.push_back(m.duration().ns());
        }
        return spread(per).median;
    };
    double reused = 0;
    {
        KernelPolicy policy(stream, lazy);  // holds CUPTI for every scope of the loop
        reused = batches([&] {
            policy.start();
            kernels::launch_spin(spin_length, stream);
            return policy.stop();
        });
    }
    double held = 0;
    {
        CuptiHold hold;
        held = batches([&] {
            ScopedTimer<KernelPolicy> t(stream, lazy);
            kernels::launch_spin(spin_length, stream);
            return t.stop();
        });
    }
    const double scope_reading = spread(readings).median;
    double segmented = 0, sample_reading = 0;
    {
        CuptiHold hold;
        std::vector<double> per, samples;
        for (int b = 0; b < 11; ++b) {
            const auto t0 = Clock::now();
            gpuchrono::detail::KernelBatch batch(stream);
            for (int i = 0; i < 1000; ++i) {
                batch.begin_sample(false);
                kernels::launch_spin(spin_length, stream);
                batch.end_sample();
            }
            const std::vector<Duration>& got = batch.read();
            per.push_back(ns_since(t0) / 1000);
            for (const Duration d : got) samples.push_back(d.ns());
        }
        segmented = spread(per).median;
        sample_reading = spread(samples).median;
    }
    gpuchrono::release_cupti();
    const std::size_t before = gpuchrono::cupti::cupti_acquisitions();
    const double unheld = batches([&] {
        ScopedTimer<KernelPolicy> t(stream, lazy);
        kernels::launch_spin(spin_length, stream);
        return t.stop();
    });
    const std::size_t set_ups = gpuchrono::cupti::cupti_acquisitions() - before;
    std::printf("  one KernelPolicy reused (start/stop)              %10.0f ns\n", reused);
    std::printf("  ScopedTimer per scope under a CuptiHold           %10.0f ns  (%.3fx of the reused policy)\n", held,
                held / reused);
    std::printf("  ScopedTimer per scope, no hold                    %10.0f ns  (%.3fx; %zu set-ups of CUPTI: the scopes follow within the linger)\n",
                unheld, unheld / reused, set_ups);
    std::printf("  host ns per sample, segmented batch (kernel method) %8.0f ns  (%.3fx; one KernelBatch of 1000 samples)\n",
                segmented, segmented / reused);
    std::printf("  median reading: scope under a hold %.1f ns, segmented batch's sample %.1f ns (%+.1f ns)\n",
                scope_reading, sample_reading, sample_reading - scope_reading);
}

void launch_inside(cudaStream_t stream) {
    std::printf("\n[3] host ns per launch call (empty kernel, median of 1000) inside a scope\n");
    double held_ns = 0, first_ns = 0;
    {
        CuptiHold hold;
        ScopedTimer<KernelPolicy> t(stream);
        (void)launch_call_ns(stream);  // the path warmed with CUPTI on
        held_ns = launch_call_ns(stream);
        (void)t.stop();
    }
    std::vector<double> firsts;
    for (int i = 0; i < 21; ++i) {
        gpuchrono::release_cupti();
        ScopedTimer<KernelPolicy> t(stream);  // the first scope after CUPTI was given back
        firsts.push_back(launch_call_ns(stream, 50));
        (void)t.stop();
    }
    first_ns = spread(firsts).median;
    std::printf("  inside a scope under a CuptiHold                  %10.0f ns\n", held_ns);
    std::printf("  inside the first scope after a release (50 calls) %10.0f ns  (%.3fx)\n", first_ns, first_ns / held_ns);
    std::printf("  (bench_kernel_policy [1]: the first row against raw CUPTI kernel records alone)\n");
}

}  // namespace

int main() try {
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_cupti_hold: no CUDA device (%s); run it on a GPU machine\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_cupti_hold");
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    if (!KernelPolicy::available()) {
        std::printf("KernelPolicy unavailable: %s\n", KernelPolicy::unavailable_reason().c_str());
        return 1;
    }
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the stream");
    warm(stream);
    first_scope_after_release(stream);
    loop_of_scopes(stream);
    launch_inside(stream);
    print_sm_clock("after the tables");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cupti_hold: %s\n", e.what());
    return 1;
}
