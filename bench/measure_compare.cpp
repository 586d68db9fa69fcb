// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// measure() and compare() against the floor and against their peers, in one run on one GPU:
//   (a) spin(D), D = 1, 10, 100 us: median - D of each measure() method, beside a raw CUDA graph replay
//       (100 launches per graph, interval / 100), a naive event pair (record, launch, record, synchronize) and
//       a raw CUPTI record; the graph method and replay both before and after CUPTI is set up;
//   (b) wall time until the stopping rule is met for a 10 us kernel at 1% and 0.5% target width, beside the
//       budgets of nvbench (at least 0.5 s per state) and triton's do_bench (25 ms warm-up + 100 ms);
//   (c) A/A: compare() of one kernel against itself, 200 times: how often the verdict is faster or slower;
//   (d) A/B: B spins 2% of A's measured time longer: how often compare() says slower (power);
//   (e) summarize() over 10 million samples against a hand-written nth_element loop computing the same figures;
//   (f) measure()'s own cost, method automatic (kernel where CUPTI can be used), spin(D) for D = 1, 10, 100 us and
//       2.5 ms: its wall time split into warm-up and sampling, and the host cost per sample (sampling time minus
//       the GPU time of the sampled calls, per sample), beside a bare launch's host cost in the same run, with and
//       without CUPTI's kernel records.
// Usage: bench_measure_compare [--quick] [--only a|b|c|d|e|f]. Findings are collected, not printed.
#include <cuda_runtime_api.h>

#include <spin.hpp>

#include "device_banner.hpp"
#include "verdict_counts.hpp"

#include <gpuchrono/measure/measure.hpp>  // kernel_method_available (not exported: a question for benchmarks)

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
namespace kernels = gpuchrono::kernels;

namespace {

using Clock = std::chrono::steady_clock;

double median_ns(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Events {
    cudaEvent_t start = nullptr, stop = nullptr;
    Events() {
        GPUCHRONO_CUDA_CHECK(cudaEventCreate(&start), "creating an event");
        GPUCHRONO_CUDA_CHECK(cudaEventCreate(&stop), "creating an event");
    }
    ~Events() {
        (void)cudaEventDestroy(start);
        (void)cudaEventDestroy(stop);
    }
    double elapsed_ns() const {
        float ms = 0;
        GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(stop), "waiting for an event");
        GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop), "reading an event pair");
        return ms * 1e6;
    }
};

// A raw graph replay: 100 launches captured once, replayed 30 times; per call = interval / 100.
double raw_graph_median(cudaStream_t stream, Duration d) {
    constexpr int calls = 100;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "beginning a capture");
    for (int i = 0; i < calls; ++i) kernels::launch_spin(d, stream);
    GPUCHRONO_CUDA_CHECK(cudaStreamEndCapture(stream, &graph), "ending a capture");
    GPUCHRONO_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0), "instantiating the graph");
    GPUCHRONO_CUDA_CHECK(cudaGraphLaunch(exec, stream), "warming the graph");
    Events e;
    std::vector<double> per_call;
    for (int r = 0; r < 30; ++r) {
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(e.start, stream), "recording");
        GPUCHRONO_CUDA_CHECK(cudaGraphLaunch(exec, stream), "replaying");
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(e.stop, stream), "recording");
        per_call.push_back(e.elapsed_ns() / calls);
    }
    (void)cudaGraphExecDestroy(exec);
    (void)cudaGraphDestroy(graph);
    return median_ns(per_call);
}

// What most code does: record, launch, record, synchronize, 100 times.
double naive_event_median(cudaStream_t stream, Duration d) {
    Events e;
    std::vector<double> v;
    for (int i = 0; i < 105; ++i) {
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(e.start, stream), "recording");
        kernels::launch_spin(d, stream);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(e.stop, stream), "recording");
        const double ns = e.elapsed_ns();
        if (i >= 5) v.push_back(ns);
    }
    return median_ns(v);
}

// A raw CUPTI activity record per call: KernelPolicy around one launch, waited for each time.
double raw_cupti_median(cudaStream_t stream, Duration d) {
    std::vector<double> v;
    for (int i = 0; i < 105; ++i) {
        gpuchrono::ScopedTimer<gpuchrono::KernelPolicy> t(stream);
        kernels::launch_spin(d, stream);
        const double ns = t.stop().duration().ns();
        if (i >= 5) v.push_back(ns);
    }
    return median_ns(v);
}

gpuchrono::Series measure_spin(cudaStream_t stream, Duration d, gpuchrono::MeasureOptions o = {}) {
    return gpuchrono::measure("spin", stream, [d](cudaStream_t st) { kernels::launch_spin(d, st); }, o);
}

struct Row {
    std::string method;
    double median_minus_d = 0;
    std::size_t samples = 0;
    unsigned calls_per_sample = 0;
    double ci_width = std::nan("");  // relative; NaN for the raw references
};

Row measured_row(cudaStream_t stream, Duration d, gpuchrono::Method method, const char* label_suffix = "") {
    gpuchrono::MeasureOptions o;
    o.method = method;
    const gpuchrono::Series s = measure_spin(stream, d, o);
    const gpuchrono::MeasureRecord& r = *s.measure_record();
    return {std::string("measure(") + gpuchrono::to_string(method) + ")" + label_suffix, r.interval.median_ns - d.ns(),
            r.interval.samples, r.calls_per_sample, r.interval.relative_width()};
}

// CUPTI, while gpuchrono holds it, records every kernel of the process and slows each launch a little, a graph
// replay's kernels too. So the methods that need no CUPTI run first, before anything sets it up (as in a program
// that never asks for the kernel method); then, under one CuptiHold, the kernel method, the raw CUPTI floor and the
// graph method again (as in a program that keeps KernelPolicy's CUPTI set up) run.
void part_a(cudaStream_t stream) {
    const std::vector<double> lengths_us{1.0, 10.0, 100.0};
    std::vector<std::vector<Row>> rows(lengths_us.size());
    for (std::size_t i = 0; i < lengths_us.size(); ++i) {
        const Duration d = Duration::from_us(lengths_us[i]);
        for (const auto method : {gpuchrono::Method::graph, gpuchrono::Method::event, gpuchrono::Method::host})
            rows[i].push_back(measured_row(stream, d, method, method == gpuchrono::Method::graph ? ", no CUPTI" : ""));
        rows[i].push_back({"raw graph replay (N = 100)", raw_graph_median(stream, d) - d.ns(), 30, 100});
        rows[i].push_back({"naive event pair", naive_event_median(stream, d) - d.ns(), 100, 1});
    }
    gpuchrono::CuptiHold hold;  // CUPTI set up, and kept for the rows below
    std::string why;
    const bool cupti = hold.held() && gpuchrono::kernel_method_available(&why);
    if (!hold.held()) why = hold.why_not();
    std::printf("kernel method: %s\n", cupti ? "available" : ("not available: " + why).c_str());
    for (std::size_t i = 0; cupti && i < lengths_us.size(); ++i) {
        const Duration d = Duration::from_us(lengths_us[i]);
        rows[i].insert(rows[i].begin(), measured_row(stream, d, gpuchrono::Method::kernel));
        rows[i].insert(rows[i].begin() + 2, measured_row(stream, d, gpuchrono::Method::graph, ", CUPTI active"));
        rows[i].push_back({"raw CUPTI record (per call)", raw_cupti_median(stream, d) - d.ns(), 100, 1});
        rows[i].push_back({"raw graph replay, CUPTI active", raw_graph_median(stream, d) - d.ns(), 30, 100});
    }
    std::printf("\n(a) spin(D): median - D per method (ns; the floor is the raw CUPTI record)\n");
    std::printf("  %-8s %-32s %12s %9s %10s %10s\n", "D", "method", "median - D", "samples", "calls/smp", "CI width");
    for (std::size_t i = 0; i < lengths_us.size(); ++i)
        for (std::size_t j = 0; j < rows[i].size(); ++j) {
            const Row& r = rows[i][j];
            const std::string d = j == 0 ? std::to_string(static_cast<int>(lengths_us[i])) + " us" : "";
            std::printf("  %-8s %-32s %12.0f %9zu %10u", d.c_str(), r.method.c_str(), r.median_minus_d, r.samples,
                        r.calls_per_sample);
            if (std::isnan(r.ci_width)) std::printf("\n");
            else std::printf(" %9.2f%%\n", 100 * r.ci_width);
        }
}

void part_b(cudaStream_t stream, int runs) {
    std::printf("\n(b) wall time until the stopping rule is met, 10 us spin, method automatic (median of %d runs)\n", runs);
    std::printf("  %-8s %14s %14s %14s %9s %10s\n", "target", "total", "of it warm-up", "sampling", "samples", "converged");
    for (const double width : {0.01, 0.005}) {
        std::vector<double> total, warm, sampling, samples;
        int converged = 0;
        for (int i = 0; i < runs; ++i) {
            gpuchrono::MeasureOptions o;
            o.target_relative_width = width;
            const auto t0 = Clock::now();
            const gpuchrono::Series s = measure_spin(stream, Duration::from_us(10), o);
            total.push_back(seconds_since(t0));
            const gpuchrono::MeasureRecord& r = *s.measure_record();
            warm.push_back(r.warmup.time.s());
            sampling.push_back(r.sampling_time.s());
            samples.push_back(static_cast<double>(r.interval.samples));
            converged += r.converged();
        }
        std::printf("  %-8s %12.4f s %12.4f s %12.4f s %9.0f %7d/%d\n", (std::to_string(width * 100).substr(0, 4) + "%").c_str(),
                    median_ns(total), median_ns(warm), median_ns(sampling), median_ns(samples), converged, runs);
    }
    std::printf("  beside: nvbench's default >= 0.5 s per measurement (min-time, 0.5%% noise, 15 s timeout); triton\n"
                "  do_bench 0.125 s (25 ms warm-up + 100 ms of repetitions)\n");
}

// `pairs` comparisons of a fresh series of spin(a) against a fresh one of spin(b): the verdicts, each change
// (signed) and the wall time they took.
struct PairRun {
    VerdictCounts counts;
    std::vector<double> changes;
    double seconds = 0;
};
PairRun compare_pairs(cudaStream_t stream, Duration a, Duration b, int pairs) {
    PairRun run;
    const auto t0 = Clock::now();
    for (int i = 0; i < pairs; ++i) {
        const auto c = gpuchrono::compare(measure_spin(stream, a), measure_spin(stream, b));
        run.counts.add(c.verdict);
        run.changes.push_back(c.change);
    }
    run.seconds = seconds_since(t0);
    return run;
}

void part_c_d(cudaStream_t stream, int pairs, bool a_a, bool a_b) {
    const Duration d_a = Duration::from_us(10);
    if (a_a) {
        PairRun run = compare_pairs(stream, d_a, d_a, pairs);
        for (double& c : run.changes) c = std::fabs(c);
        std::printf("\n(c) A/A, 10 us spin against itself, %d comparisons (%.1f s): ", pairs, run.seconds);
        run.counts.print(pairs);
        std::printf("\n    false verdicts %.1f%% (must be <= 5%%); median |change| %.3f%%, largest %.3f%%\n",
                    100.0 * (run.counts.faster + run.counts.slower) / pairs, 100 * median_ns(run.changes),
                    100 * *std::max_element(run.changes.begin(), run.changes.end()));
    }
    if (a_b) {
        const double m_a = measure_spin(stream, d_a).measure_record()->interval.median_ns;
        const Duration d_b = d_a + Duration::from_ns(0.02 * m_a);  // B's time per call is 2% above A's
        const PairRun run = compare_pairs(stream, d_a, d_b, pairs);
        std::printf("\n(d) A/B, B spins %.0f ns longer (2%% of A's %.0f ns per call), %d comparisons (%.1f s): ",
                    d_b.ns() - d_a.ns(), m_a, pairs, run.seconds);
        run.counts.print(pairs);
        std::printf("\n    detected %.1f%% (must be >= 95%%); median change %.3f%%\n", 100.0 * run.counts.slower / pairs,
                    100 * median_ns(run.changes));
    }
}

// The same figures summarize() gives, written by hand: min, max, mean, sample standard deviation, the six
// percentiles by nth_element on one copy, and the median absolute deviation.
struct HandStats {
    double min, max, mean, sd, p[6], mad;
};
HandStats hand_loop(const std::vector<double>& samples) {
    std::vector<double> v = samples;
    HandStats h{};
    const std::size_t n = v.size();
    double sum = 0;
    h.min = h.max = v[0];
    for (double x : v) {
        sum += x;
        h.min = std::min(h.min, x);
        h.max = std::max(h.max, x);
    }
    h.mean = sum / n;
    double sq = 0;
    for (double x : v) sq += (x - h.mean) * (x - h.mean);
    h.sd = std::sqrt(sq / (n - 1));
    const double ps[6] = {5, 25, 50, 75, 95, 99};
    for (int i = 0; i < 6; ++i) {
        const double rank = (n - 1) * ps[i] / 100;
        const auto lo = static_cast<std::size_t>(rank);
        std::nth_element(v.begin(), v.begin() + lo, v.end());
        const double next = lo + 1 < n ? *std::min_element(v.begin() + lo + 1, v.end()) : v[lo];
        h.p[i] = v[lo] + (rank - lo) * (next - v[lo]);
    }
    for (double& x : v) x = std::fabs(x - h.p[2]);
    std::nth_element(v.begin(), v.begin() + n / 2, v.end());
    h.mad = v[n / 2];
    return h;
}

void part_e() {
    constexpr std::size_t n = 10'000'000;
    std::mt19937_64 rng(42);
    std::lognormal_distribution<double> ln(std::log(10000.0), 0.05);
    std::vector<double> ns(n);
    for (double& x : ns) x = ln(rng);
    std::vector<Duration> durations;
    durations.reserve(n);
    for (double x : ns) durations.push_back(Duration::from_ns(x));
    double best_summarize = 1e9, best_hand = 1e9;
    double check = 0;
    for (int rep = 0; rep < 3; ++rep) {
        auto t0 = Clock::now();
        const gpuchrono::Stats s = durations | gpuchrono::summarize;
        best_summarize = std::min(best_summarize, seconds_since(t0));
        t0 = Clock::now();
        const HandStats h = hand_loop(ns);
        best_hand = std::min(best_hand, seconds_since(t0));
        check += s.median.ns() - h.p[2];
    }
    std::printf("\n(e) 10M samples, best of 3: summarize() %.3f s, hand-written nth_element loop %.3f s: %.2fx "
                "(must be <= 1.5x; medians agree to %.3g ns)\n",
                best_summarize, best_hand, best_summarize / best_hand, check);
}

// Host time per launch of spin(1 us), `calls` launched back to back with no wait (the GPU keeps up with the host).
double bare_launch_ns(cudaStream_t stream, int calls) {
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting before the bare launches");
    const auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) kernels::launch_spin(Duration::from_us(1), stream);
    const double ns = seconds_since(t0) * 1e9 / calls;
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the bare spins");
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for the bare launches");
    return ns;
}

void part_f(cudaStream_t stream, int runs) {
    std::vector<double> bare, bare_cupti;
    std::string note;  // how the samples were taken (a batch per round, or a scope per call), as the record says
    for (int i = 0; i < runs; ++i) {
        bare.push_back(bare_launch_ns(stream, 2000));
        gpuchrono::CuptiHold hold;  // CUPTI's kernel records on for these launches alone
        if (hold.held()) bare_cupti.push_back(bare_launch_ns(stream, 2000));
    }
    const double bare_ns = median_ns(bare);
    const double cupti_ns = bare_cupti.empty() ? std::nan("") : median_ns(bare_cupti);
    std::printf("\n(f) measure()'s own cost, method automatic, spin(D), median of %d runs; a bare launch of spin(1 us) costs "
                "the host %.2f us, %.2f us with CUPTI's kernel records\n",
                runs, bare_ns / 1e3, cupti_ns / 1e3);
    std::printf("  %-8s %-7s %10s %10s %7s %10s %8s %14s %16s\n", "D", "method", "wall", "warm-up", "calls", "sampling",
                "samples", "host/sample", "beyond launch");
    for (const double d_us : {1.0, 10.0, 100.0, 2500.0}) {
        std::vector<double> wall, warm, calls, sampling, samples, host;
        std::string method;
        for (int i = 0; i < runs; ++i) {
            const auto t0 = Clock::now();
            const gpuchrono::Series s = measure_spin(stream, Duration::from_us(d_us));
            wall.push_back(seconds_since(t0));
            const gpuchrono::MeasureRecord& r = *s.measure_record();
            method = gpuchrono::to_string(r.method);
            note = r.method_note;
            warm.push_back(r.warmup.time.s());
            calls.push_back(static_cast<double>(r.warmup.calls));
            sampling.push_back(r.sampling_time.s());
            const double n = static_cast<double>(s.size());
            samples.push_back(n);
            // The GPU time of the sampled calls: every call of every sample, at the median.
            const double gpu_s = n * r.calls_per_sample * r.interval.median_ns * 1e-9;
            host.push_back((r.sampling_time.s() - gpu_s) / n * 1e9);
        }
        const double host_ns = median_ns(host);
        const std::string d = d_us < 1000 ? std::to_string(static_cast<int>(d_us)) + " us" : "2.5 ms";
        std::printf("  %-8s %-7s %8.2fms %8.2fms %7.0f %8.2fms %8.0f %11.1f us %13.1f us\n", d.c_str(), method.c_str(),
                    1e3 * median_ns(wall), 1e3 * median_ns(warm), median_ns(calls), 1e3 * median_ns(sampling),
                    median_ns(samples), host_ns / 1e3, (host_ns - (std::isnan(cupti_ns) ? bare_ns : cupti_ns)) / 1e3);
    }
    std::printf("  target: host cost per sample within 20 us of a bare launch with CUPTI's records (beyond launch <= 20 us)\n");
    std::printf("  samples taken as: %s\n", note.empty() ? "(no method note)" : note.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--quick] [--only a|b|c|d|e|f]\n", argv[0]);
            return 2;
        }
    }
    const auto wants = [&](char part) { return only.empty() || only.find(part) != std::string::npos; };
    try {
        if (wants('e') && only == "e") {  // CPU only
            part_e();
            return 0;
        }
        gpuchrono::set_finding_reaction(gpuchrono::Reaction::collect);
        print_device_banner("bench_measure_compare");
        cudaStream_t stream = nullptr;
        GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the stream");
        if (wants('a')) part_a(stream);  // first: it runs methods before anything sets CUPTI up
        std::string why;
        if (!wants('a'))
            std::printf("kernel method: %s\n",
                        gpuchrono::kernel_method_available(&why) ? "available" : ("not available: " + why).c_str());
        if (wants('b')) part_b(stream, quick ? 3 : 9);
        if (wants('c') || wants('d')) part_c_d(stream, quick ? 40 : 200, wants('c'), wants('d'));
        if (wants('f')) part_f(stream, quick ? 3 : 9);
        if (wants('e')) part_e();
        (void)cudaStreamDestroy(stream);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_measure_compare: %s\n", e.what());
        return 1;
    }
    return 0;
}
