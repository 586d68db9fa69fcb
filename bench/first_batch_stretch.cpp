// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Open question: what stretches the first batch of lazy KernelPolicy scopes in a process (0.5-1.2 us over, with
// no finding), where later batches, eager scopes and other threads' driver calls stretch nothing.
//   bench_first_batch_stretch [hot|launches|probed|eager]
// Default: one thread's 1000 lazy stream-mode scopes of spin(20 us) while another thread sleeps or loops driver
// calls that launch nothing (streams, events, memory created and destroyed); hot: after a 300 ms spin on every SM;
// launches: after 20,000 empty kernels on the timed stream; eager: the same scopes, each stop waiting; probed:
// eager, with each spin's block timed inside it.
// Not a test: it asserts nothing. Run on a GPU: bench_first_batch_stretch
#include <cuda_runtime_api.h>

#include "bench_timing.hpp"
#include "device_banner.hpp"

#include <spin.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gpuchrono/gpu/stream.hpp>

#include <gpuchrono/api.hpp>

namespace {

// [1] What stretches a kernel with nothing else running: one thread times 1000 lazy stream-mode KernelPolicy scopes
// of spin(20 us) one after another on its own stream (the host paces them: on the H100 the stream idles 15-55 us
// between the spins, printed for each stretched one) while a second thread of the process does nothing (twice),
// or creates and destroys streams, or events, or allocates and frees 1 MiB, in a loop that launches no work; three
// rounds. Readings more than 500 ns over the first batch's median, and how many carry a finding. Two of
// bench_stretched_readings' stretched readings (2026-11-26) followed only 28-32 us of idle, while the other threads of their run were
// destroying their streams: this asks whether such calls of another thread slow a running stream's kernels.
// `hot` runs a 300 ms spin on every SM first, so that the rounds start at a settled SM clock;
// `launches` launches 20,000 empty kernels on the timed stream first.
void churn_stretch(std::string_view first) {
    std::printf("\n[1] 1000 lazy stream-mode scopes of spin(20 us) one after another, while another thread loops "
                "driver calls that launch nothing: readings > quiet median + 500 ns, and how many carry a finding\n");
    gpuchrono::ScopedFindingReaction quiet_findings(gpuchrono::Reaction::collect);
    const Duration d = Duration::from_us(20);
    struct Churn { const char* name; std::function<void()> step; };
    const auto sleeps = [] { std::this_thread::sleep_for(std::chrono::microseconds(20)); };
    const std::vector<Churn> churns = {
        {"nothing (sleeps 20 us)", sleeps},
        {"nothing (sleeps 20 us), again", sleeps},
        {"cudaStreamCreate + cudaStreamDestroy", [] {
             cudaStream_t s = nullptr;
             GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a churn stream");
             GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(s), "destroying a churn stream");
         }},
        {"cudaEventCreate + cudaEventDestroy", [] {
             cudaEvent_t e = nullptr;
             GPUCHRONO_CUDA_CHECK(cudaEventCreate(&e), "creating a churn event");
             GPUCHRONO_CUDA_CHECK(cudaEventDestroy(e), "destroying a churn event");
         }},
        {"cudaMalloc + cudaFree (1 MiB)", [] {
             void* p = nullptr;
             GPUCHRONO_CUDA_CHECK(cudaMalloc(&p, 1u << 20), "allocating churn memory");
             GPUCHRONO_CUDA_CHECK(cudaFree(p), "freeing churn memory");
         }},
    };
    cudaStream_t timed = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&timed, cudaStreamNonBlocking), "creating the timed stream");
    if (first == "launches") {
        // Launches without a scope first, as many as several batches of scopes make: the stream's command path
        // has then carried that many launches before the first timed one.
        std::printf("  launches first: 20,000 empty kernels on the timed stream\n");
        for (int i = 0; i < 20000; ++i) kernels::launch_empty(timed);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(timed), "waiting for the empty kernels");
    }
    if (first == "hot") {
        // The SM clock rises from idle (345 MHz on the H100) to its maximum over the first work of a process: the
        // GPU is kept busy first, so the rounds start at a settled clock.
        std::printf("  pre-heated: one spin(300 ms) on all SMs first\n");
        int sms = 0;
        GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "the SM count");
        kernels::launch_spin(Duration::from_ms(300), timed, static_cast<unsigned>(sms));
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(timed), "waiting for the pre-heat");
    }
    double quiet_median = 0;
    for (int round = 0; round < 3; ++round)
        for (const Churn& churn : churns) {
            std::atomic<bool> done{false};
            long long calls = 0;
            std::thread other([&] {
                while (!done.load(std::memory_order_relaxed)) {
                    churn.step();
                    ++calls;
                }
            });
            gpuchrono::Series series("churn");
            for (int i = 0; i < 1000; ++i) {
                ScopedTimer<KernelPolicy> t(series, timed, KernelPolicy::Options{.wait_at_stop = false});
                kernels::launch_spin(d, timed);
            }
            const std::vector<Duration> durations = series.durations();
            done = true;
            other.join();
            std::vector<double> ns;
            for (const Duration& x : durations) ns.push_back(x.ns());
            if (round == 0 && &churn == &churns.front()) quiet_median = spread(ns).median;
            int stretched = 0, flagged = 0;
            std::string codes, which;
            for (std::size_t i = 0; i < series.measurements().size(); ++i) {
                const gpuchrono::Measurement& m = series.measurements()[i];
                if (m.duration().ns() > quiet_median + 500) {
                    ++stretched;
                    flagged += !m.findings().empty();
                    for (const gpuchrono::Finding& f : m.findings())
                        if (codes.find(f.code) == std::string::npos) codes += " " + f.code;
                    // How long the stream had been idle before it: the previous scope's kernel to this one's.
                    long long idle_ns = -1;
                    if (i > 0 && !m.activities().empty() && !series.measurements()[i - 1].activities().empty())
                        idle_ns = static_cast<long long>(m.activities().front().start_ns) -
                                  static_cast<long long>(series.measurements()[i - 1].activities().back().end_ns);
                    if (stretched <= 8)
                        which += " #" + std::to_string(i) + " " + std::to_string(static_cast<long>(m.duration().ns())) +
                                 " ns after " + std::to_string(idle_ns) + " ns idle";
                }
            }
            if (!which.empty()) codes += " (scopes" + which + ")";
            std::printf("  round %d, the other thread: %-38s %6lld calls | median %.0f ns, p95 %.0f, max %.0f | "
                        "stretched %d of 1000, %d with a finding%s\n",
                        round, churn.name, calls, spread(ns).median, spread(ns).p95,
                        *std::max_element(ns.begin(), ns.end()), stretched, flagged, codes.c_str());
        }
    (void)cudaStreamDestroy(timed);
}

// [1] probed: where a stretched reading's extra time lies. The first batch of a process's scopes has stretched
// readings (see [1]); here each of 2 x 1000 eager stream-mode KernelPolicy scopes holds a DeviceClockPolicy scope
// whose probe is the spin's, so each spin's one block records its start and stop on %globaltimer and clock64.
// For every reading: CUPTI's kernel start to the block's start (dispatch), the block's own time (the spin: 20 us
// by construction), the block's stop to CUPTI's kernel end (teardown), and the SM clock over the spin
// (clock64 cycles over %globaltimer time). CUPTI's timestamps and %globaltimer are the same clock on the H100.
void probed_batches(bool probe) {
    std::printf("\n[1] %s: 2 batches of 1000 eager stream-mode scopes of spin(20 us)%s\n", probe ? "probed" : "eager",
                probe ? ", each spin's block timed inside it: where the stretched readings' extra time lies" : "");
    gpuchrono::ScopedFindingReaction quiet_findings(gpuchrono::Reaction::collect);
    cudaStream_t timed = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&timed, cudaStreamNonBlocking), "creating the timed stream");
    struct Row { double kernel, dispatch, block, teardown, mhz; };
    for (int batch = 0; batch < 2; ++batch) {
        std::vector<Row> rows;
        for (int i = 0; i < 1000; ++i) {
            ScopedTimer<KernelPolicy> k(timed);
            gpuchrono::Measurement inner;
            if (probe) {
                ScopedTimer<gpuchrono::DeviceClockPolicy> dc(timed);
                kernels::launch_spin(Duration::from_us(20), timed, 1, 32, dc.policy().probe());
                inner = dc.stop();
            } else {
                kernels::launch_spin(Duration::from_us(20), timed);
            }
            const gpuchrono::Measurement& m = k.stop();
            const gpuchrono::KernelActivity* spin = nullptr;
            for (const gpuchrono::KernelActivity& a : m.activities())
                if (a.name.find("spin_kernel") != std::string::npos) spin = &a;
            if (spin && !probe) {
                rows.push_back({static_cast<double>(spin->duration_ns()), 0, 0, 0, 0});
                continue;
            }
            if (!spin || !inner.blocks() || inner.blocks()->samples.empty()) continue;
            const gpuchrono::BlockSample& b = inner.blocks()->samples.front();
            const double block_ns = static_cast<double>(b.stop_ns - b.start_ns);
            rows.push_back({static_cast<double>(spin->duration_ns()),
                            static_cast<double>(b.start_ns) - static_cast<double>(spin->start_ns), block_ns,
                            static_cast<double>(spin->end_ns) - static_cast<double>(b.stop_ns),
                            b.sm_start == b.sm_stop && block_ns > 0
                                ? static_cast<double>(b.stop_cycles - b.start_cycles) / block_ns * 1e3
                                : 0.0});
        }
        std::vector<double> kernel;
        for (const Row& r : rows) kernel.push_back(r.kernel);
        const double median = spread(kernel).median;
        const auto column = [&](auto field, bool stretched) {
            std::vector<double> v;
            for (const Row& r : rows)
                if ((r.kernel > median + 500) == stretched) v.push_back(r.*field);
            return v;
        };
        const auto show = [&](const char* what, bool stretched) {
            const std::vector<double> d = column(&Row::dispatch, stretched), bl = column(&Row::block, stretched),
                                      t = column(&Row::teardown, stretched), c = column(&Row::mhz, stretched);
            if (d.empty() || !probe) {
                std::printf("    %s: %zu\n", what, d.size());
                return;
            }
            std::printf("    %s (%zu): dispatch median %.0f ns (%.0f..%.0f), block %.0f ns (%.0f..%.0f), teardown %.0f ns "
                        "(%.0f..%.0f), SM clock %.0f MHz (%.0f..%.0f)\n",
                        what, d.size(), spread(d).median, *std::min_element(d.begin(), d.end()),
                        *std::max_element(d.begin(), d.end()), spread(bl).median, *std::min_element(bl.begin(), bl.end()),
                        *std::max_element(bl.begin(), bl.end()), spread(t).median, *std::min_element(t.begin(), t.end()),
                        *std::max_element(t.begin(), t.end()), spread(c).median, *std::min_element(c.begin(), c.end()),
                        *std::max_element(c.begin(), c.end()));
        };
        std::printf("  batch %d: %zu readings, kernel median %.0f ns\n", batch, rows.size(), median);
        show("stretched (> median + 500 ns)", true);
        show("the others", false);
    }
    (void)cudaStreamDestroy(timed);
}

}  // namespace

int main(int argc, char** argv) try {
    const std::string_view mode = argc == 2 ? argv[1] : "";
    if (argc > 2 || (mode != "" && mode != "hot" && mode != "launches" && mode != "probed" && mode != "eager")) {
        std::fprintf(stderr, "usage: bench_first_batch_stretch [hot|launches|probed|eager]\n");
        return 2;
    }
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_first_batch_stretch: no CUDA device (%s); run it on a GPU machine\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_first_batch_stretch");
    if (!KernelPolicy::available()) {
        std::printf("KernelPolicy unavailable: %s\n", KernelPolicy::unavailable_reason().c_str());
        return 1;
    }
    // CUPTI held for the whole run: the figures are those of scopes under a CuptiHold (bench_cupti_hold gives the
    // cost of a scope that sets CUPTI up itself).
    gpuchrono::CuptiHold hold;
    if (mode == "probed" || mode == "eager")
        probed_batches(mode == "probed");
    else
        churn_stretch(mode);
    print_sm_clock("after the table");  // not before: the first batch is the question
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_first_batch_stretch: %s\n", e.what());
    return 1;
}
