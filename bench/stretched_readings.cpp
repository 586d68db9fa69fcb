// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Open question: does every stretched KernelPolicy reading carry a finding (concurrent-work-overlapped, or
// gpu-idle-before after the device or the scope's stream idled), and how precise are gpu-idle-before's
// thresholds? 4 threads x 200 lazy stream-mode scopes of spin(20 us) on their own streams, 5 runs: the readings
// more than 500 ns above the thread-free median, which finding each carries, where the unflagged ones sat, and
// the idle gaps eager scopes one after another leave. Then [13]: each finding code's precision (of the readings
// carrying it, how many are stretched) and the recall of the stretched readings (how many carry a warning-level
// finding, how many any finding), over the [10] runs, over single scopes after the device idled, and over single
// scopes beside another thread's work: a one-block spin beside full-device spins (a spin waits on the clock, so
// sharing an SM does not lengthen it), one-block and full-device FMA kernels beside full-device FMA kernels (they
// share the SMs' issue slots), and copies beside copies (they share DRAM bandwidth), each reading's overlap with
// the other thread's work read from that work's own records.
//   bench_stretched_readings [--only threads|overlap] [CSV]
//     --only threads   [10] and the rows of [13] without work beside the scopes; --only overlap: the rows with it
//     CSV              one row per [10] reading, with its stream's and device's idle time before it
// Not a test: it asserts nothing. Run on a GPU: bench_stretched_readings
#include <cuda_runtime_api.h>

#include "bench_timing.hpp"
#include "device_banner.hpp"

#include <contention.hpp>
#include <spin.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/gpu/stream.hpp>

#include <gpuchrono/api.hpp>

namespace {

// Per scenario: for each finding code, the readings carrying it and how many of them were stretched; and of
// the stretched readings, how many carried a warning-level (or error) finding, and how many any finding.
struct Tally {
    struct Code { int carrying = 0, stretched = 0; };
    std::map<std::string, Code> codes;
    int readings = 0, stretched = 0, stretched_warned = 0, stretched_any = 0;

    void add(const gpuchrono::Measurement& m, bool is_stretched) {
        ++readings;
        stretched += is_stretched;
        bool warned = false;
        std::set<std::string> seen;
        for (const gpuchrono::Finding& f : m.findings()) {
            if (!seen.insert(f.code).second) continue;
            Code& c = codes[f.code];
            ++c.carrying;
            c.stretched += is_stretched;
            warned = warned || f.severity != gpuchrono::Severity::info;
        }
        if (is_stretched) {
            stretched_warned += warned;
            stretched_any += !seen.empty();
        }
    }
};

double percent(int part, int whole) { return whole > 0 ? 100.0 * part / whole : NAN; }

void print_tally(const char* scenario, const Tally& t) {
    std::printf("  %s: %d readings, %d stretched; of the stretched, %d carry a warning-level finding (recall %.1f%%), "
                "%d any finding (%.1f%%)\n",
                scenario, t.readings, t.stretched, t.stretched_warned, percent(t.stretched_warned, t.stretched),
                t.stretched_any, percent(t.stretched_any, t.stretched));
    for (const auto& [code, c] : t.codes) {
        const gpuchrono::FindingKind* kind = gpuchrono::find_finding_kind(code);
        std::printf("    %-28s %-8s carried by %5d, of them stretched %5d (precision %.1f%%)\n", code.c_str(),
                    kind ? gpuchrono::to_string(kind->severity) : "?", c.carrying, c.stretched, percent(c.stretched, c.carrying));
    }
}

using Launch = std::function<void(cudaStream_t)>;

// A reading this far over the thread-free median of its work was stretched by something.
constexpr double stretch_margin_ns = 500;

bool is_stretched(const gpuchrono::Measurement& m, double thread_free_median) {
    return m.duration().ns() > thread_free_median + stretch_margin_ns;
}

// `scopes` eager KernelPolicy scopes of `launch`, one after another on a stream of their own, nothing else
// running: the thread-free readings, whose median is what a stretched reading of the same work is measured against.
std::vector<gpuchrono::Measurement> thread_free_readings(const Launch& launch, int scopes = 200) {
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    cudaStream_t solo = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&solo, cudaStreamNonBlocking), "creating a stream");
    std::vector<gpuchrono::Measurement> readings;
    for (int i = 0; i < scopes; ++i) {
        ScopedTimer<KernelPolicy> t(solo);
        launch(solo);
        readings.push_back(t.stop());
    }
    (void)cudaStreamDestroy(solo);
    return readings;
}

Spread reading_spread(const std::vector<gpuchrono::Measurement>& readings) {
    std::vector<double> ns;
    for (const gpuchrono::Measurement& m : readings) ns.push_back(m.duration().ns());
    return spread(ns);
}

void launch_spin_20us(cudaStream_t s) { kernels::launch_spin(Duration::from_us(20), s); }

// Four threads, each timing 200 spin(20 us) with lazy stream-mode scopes on its own stream, 5 runs. A reading
// more than 500 ns above the thread-free median was stretched by something; each must carry a finding:
// concurrent-work-overlapped when other work ran beside it, gpu-idle-before when the device had run none of
// the process's work for 100 us or more before it, or the scope's stream none for 80 us (idle_gap_finding.hpp).
bool carries(const gpuchrono::Measurement& m, std::string_view code) {
    return std::any_of(m.findings().begin(), m.findings().end(), [&](const gpuchrono::Finding& f) { return f.code == code; });
}

double evidence(const gpuchrono::Measurement& m, std::string_view code, const std::string& name) {
    for (const gpuchrono::Finding& f : m.findings())
        if (f.code == code) return f.evidence_or(name, -1);
    return -1;
}

void overlap_flags(Tally& tally, double& thread_free_median, const char* csv_path = nullptr) {
    std::printf("\n[10] 4 threads x 200 lazy stream-mode scopes of spin(20 us), own streams, 5 runs: readings > thread-free "
                "median + 500 ns, and which finding each carries (concurrent-work-overlapped, gpu-idle-before)\n");
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    const Duration d = Duration::from_us(20);
    const auto idle_code = gpuchrono::codes::gpu_idle_before;
    const auto overlap_code = gpuchrono::codes::concurrent_work_overlapped;
    const std::vector<gpuchrono::Measurement> solo_readings = thread_free_readings(launch_spin_20us);
    std::vector<double> alone, alone_idle, alone_busy, solo_gaps;
    for (std::size_t i = 0; i < solo_readings.size(); ++i) {
        const gpuchrono::Measurement& m = solo_readings[i];
        alone.push_back(m.duration().ns());
        (carries(m, idle_code) ? alone_idle : alone_busy).push_back(m.duration().ns());
        // The only work of the process: the previous scope's kernel ended this long before this one began.
        if (i > 0 && !m.activities().empty() && !solo_readings[i - 1].activities().empty())
            solo_gaps.push_back(static_cast<double>(m.activities().front().start_ns) -
                                static_cast<double>(solo_readings[i - 1].activities().back().end_ns));
    }
    const double median = reading_spread(solo_readings).median;
    thread_free_median = median;
    std::FILE* csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
    if (csv_path && !csv) {
        std::fprintf(stderr, "bench_kernel_policy: cannot write %s: %s\n", csv_path, std::strerror(errno));
        std::exit(2);
    }
    if (csv)
        std::fprintf(csv, "run,thread,scope,ns,over_median_ns,overlap,idle,stream_idle_ns,device_idle_ns,idle_gap_ns,mark_gap_ns\n");
    std::printf("  thread-free median %.0f ns (p95 %.0f); eager scopes one after another leave the device idle "
                "%.1f us (p5 %.1f, p95 %.1f, max %.1f) between kernels\n",
                median, spread(alone).p95, spread(solo_gaps).median / 1e3, spread(solo_gaps).p5 / 1e3,
                spread(solo_gaps).p95 / 1e3, *std::max_element(solo_gaps.begin(), solo_gaps.end()) / 1e3);
    std::printf("  thread-free readings carrying gpu-idle-before: %zu of 200 (median %.0f ns); without it: median %.0f ns\n",
                alone_idle.size(), alone_idle.empty() ? 0.0 : spread(alone_idle).median,
                alone_busy.empty() ? 0.0 : spread(alone_busy).median);
    for (int run = 0; run < 5; ++run) {
        std::vector<gpuchrono::Series> series;
        for (int t = 0; t < 4; ++t) series.emplace_back("thread " + std::to_string(t));
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                cudaStream_t s = nullptr;
                GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a stream");
                for (int i = 0; i < 200; ++i) {
                    ScopedTimer<KernelPolicy> timer(series[static_cast<std::size_t>(t)], s, KernelPolicy::Options{.wait_at_stop = false});
                    kernels::launch_spin(d, s);
                }
                (void)series[static_cast<std::size_t>(t)].durations();
                (void)cudaStreamDestroy(s);
            });
        for (std::thread& t : threads) t.join();
        int stretched = 0, overlap_flagged = 0, idle_flagged = 0, unflagged = 0, overlap_total = 0, idle_total = 0,
            idle_not_stretched = 0, elsewhere = 0;
        double worst_unflagged = 0;
        std::vector<double> idle_gaps, mark_gaps;  // gpu-idle-before's evidence on the stretched readings it flags
        // In hindsight, with every thread's records in hand: how much of another thread's counted work overlapped
        // each unflagged stretched reading, and how long after its end that work ended (a record that came after
        // the reading's attribution was made could not be seen then).
        struct Span { int thread; std::uint64_t start, end; };
        std::vector<Span> all;
        for (std::size_t t = 0; t < series.size(); ++t)
            for (const gpuchrono::Measurement& m : series[t].measurements())
                for (const auto& a : m.activities()) all.push_back({static_cast<int>(t), a.start_ns, a.end_ns});
        int explained = 0, shown = 0;
        // How long a reading's stream (its own thread's previous kernel) and the device (every thread's counted work;
        // marks are not among the activities) had been idle before it, in hindsight; -1 where nothing came before.
        const auto idle_gaps_before = [&](std::size_t t, std::size_t index, const gpuchrono::Measurement& m) {
            std::pair<long long, long long> gaps{-1, -1};
            if (m.activities().empty()) return gaps;
            const std::uint64_t first = m.activities().front().start_ns;
            if (index > 0 && !series[t].measurements()[index - 1].activities().empty())
                gaps.first = static_cast<long long>(first) -
                             static_cast<long long>(series[t].measurements()[index - 1].activities().back().end_ns);
            std::uint64_t last_end = 0;
            for (const Span& o : all)
                if (o.start < first) last_end = std::max(last_end, o.end);
            if (last_end > 0) gaps.second = last_end >= first ? 0 : static_cast<long long>(first - last_end);
            return gaps;
        };
        auto diagnose = [&](std::size_t t, std::size_t index, const gpuchrono::Measurement& m) {
            std::uint64_t best = 0, lag = 0, gap = ~std::uint64_t{0};
            for (const auto& a : m.activities())
                for (const Span& o : all) {
                    if (o.thread == static_cast<int>(t)) continue;
                    const std::uint64_t lo = std::max(a.start_ns, o.start), hi = std::min(a.end_ns, o.end);
                    if (hi > lo && hi - lo > best) { best = hi - lo; lag = o.end > a.end_ns ? o.end - a.end_ns : 0; }
                    if (o.end <= a.start_ns) gap = std::min(gap, a.start_ns - o.end);
                    if (o.start >= a.end_ns) gap = std::min(gap, o.start - a.end_ns);
                }
            explained += best > 0;
            const auto [idle_before, device_idle] = idle_gaps_before(t, index, m);
            if (shown++ < 8)
                std::printf("    unflagged %.0f ns (thread %zu, scope %zu, its stream idle %lld ns before it, the device %lld ns): "
                            "hindsight overlap %llu ns, the other work ended %llu ns after it; nearest other work %lld ns away\n",
                            m.duration().ns(), t, index, idle_before, device_idle, static_cast<unsigned long long>(best),
                            static_cast<unsigned long long>(lag), gap == ~std::uint64_t{0} ? -1LL : static_cast<long long>(gap));
        };
        for (std::size_t si = 0; si < series.size(); ++si)
            for (std::size_t mi = 0; mi < series[si].measurements().size(); ++mi) {
                const gpuchrono::Measurement& m = series[si].measurements()[mi];
                const bool overlap = carries(m, overlap_code), idle = carries(m, idle_code);
                elsewhere += carries(m, gpuchrono::codes::kernel_activity_elsewhere);
                if (csv && !m.activities().empty()) {
                    const auto [stream_idle, device_idle] = idle_gaps_before(si, mi, m);
                    std::fprintf(csv, "%d,%zu,%zu,%.0f,%.0f,%d,%d,%lld,%lld,%.0f,%.0f\n", run, si, mi, m.duration().ns(),
                                 m.duration().ns() - median, overlap, idle, stream_idle, device_idle,
                                 evidence(m, idle_code, "idle_gap_ns"), evidence(m, idle_code, "mark_gap_ns"));
                }
                overlap_total += overlap;
                idle_total += idle;
                tally.add(m, is_stretched(m, median));
                if (is_stretched(m, median)) {
                    ++stretched;
                    overlap_flagged += overlap;
                    idle_flagged += idle;
                    if (idle) {
                        idle_gaps.push_back(evidence(m, idle_code, "idle_gap_ns"));
                        mark_gaps.push_back(evidence(m, idle_code, "mark_gap_ns"));
                    }
                    if (!overlap && !idle) {
                        ++unflagged;
                        worst_unflagged = std::max(worst_unflagged, m.duration().ns());
                        diagnose(si, mi, m);
                    }
                } else {
                    idle_not_stretched += idle;
                }
            }
        if (unflagged > 0)
            std::printf("    %d of the %d unflagged had another thread's work overlapping them in hindsight\n", explained,
                        unflagged);
        if (!idle_gaps.empty())
            std::printf("    gpu-idle-before on stretched readings: device idle %.1f..%.1f us before them, the latest stream "
                        "mark %.1f..%.1f us before them\n",
                        *std::min_element(idle_gaps.begin(), idle_gaps.end()) / 1e3,
                        *std::max_element(idle_gaps.begin(), idle_gaps.end()) / 1e3,
                        *std::min_element(mark_gaps.begin(), mark_gaps.end()) / 1e3,
                        *std::max_element(mark_gaps.begin(), mark_gaps.end()) / 1e3);
        std::printf("  run %d: stretched %d, overlap-flagged %d, idle-flagged %d, unflagged %d (of 800 readings > median + "
                    "500 ns; unflagged max %.0f ns); in all %d carry concurrent-work-overlapped, %d gpu-idle-before (%d of "
                    "them not stretched), %d kernel-activity-elsewhere\n",
                    run, stretched, overlap_flagged, idle_flagged, unflagged, worst_unflagged, overlap_total, idle_total,
                    idle_not_stretched, elsewhere);
        std::printf("  => target (every stretched reading carries a finding): %s\n", unflagged == 0 ? "met" : "missed");
    }
    if (csv && std::fclose(csv) != 0) {
        std::fprintf(stderr, "bench_kernel_policy: writing %s failed\n", csv_path);
        std::exit(2);
    }
}

// Single eager scopes, each after the device sat idle (a host sleep of `idle_ms` with nothing queued): the
// situation of a scope in a program that does other things between kernels.
void after_idle(Tally& tally, double median, int scopes, int idle_ms) {
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    cudaStream_t s = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a stream");
    const Duration d = Duration::from_us(20);
    for (int i = 0; i < scopes; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(idle_ms));
        ScopedTimer<KernelPolicy> t(s);
        kernels::launch_spin(d, s);
        const gpuchrono::Measurement m = t.stop();
        tally.add(m, is_stretched(m, median));
    }
    (void)cudaStreamDestroy(s);
}

int sm_count() {
    int sms = 0;
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "reading the SM count");
    return sms;
}

// A device buffer of `bytes`, zeroed.
class DeviceBuffer {
public:
    explicit DeviceBuffer(std::size_t bytes) {
        GPUCHRONO_CUDA_CHECK(cudaMalloc(&p_, bytes), "allocating a bench buffer");
        GPUCHRONO_CUDA_CHECK(cudaMemset(p_, 0, bytes), "clearing a bench buffer");
    }
    ~DeviceBuffer() { (void)cudaFree(p_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return p_; }
    float* floats() const { return static_cast<float*>(p_); }

private:
    void* p_ = nullptr;
};

using Span = std::pair<std::uint64_t, std::uint64_t>;

// Another thread's work on a stream of its own: bursts of 1 to `most_per_burst` launches, each burst inside an
// eager KernelPolicy scope (its stop waits for the burst and flushes, so the work's own records are at hand
// afterwards), then 0 to `most_pause` with nothing queued, until stop(). Seeded: the same bursts every run.
class Neighbour {
public:
    Neighbour(Launch launch, int most_per_burst, Duration most_pause)
        : thread_([this, launch = std::move(launch), most_per_burst, most_pause] {
              gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
              cudaStream_t n = nullptr;
              GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&n, cudaStreamNonBlocking), "creating the neighbour's stream");
              std::mt19937 rng(13);
              std::uniform_int_distribution<int> burst(1, most_per_burst);
              std::uniform_real_distribution<double> pause(0, most_pause.ns());
              while (!stop_.load()) {
                  {
                      ScopedTimer<KernelPolicy> t(series_, n);
                      for (int i = burst(rng); i > 0; --i) launch(n);
                  }
                  if (most_pause.ns() > 0)
                      std::this_thread::sleep_for(std::chrono::nanoseconds(static_cast<long long>(pause(rng))));
              }
              (void)cudaStreamDestroy(n);
          }) {}
    ~Neighbour() { stop(); }

    // Stops after the burst in progress; the [start, end) of every activity the neighbour ran, sorted.
    std::vector<Span> stop() {
        stop_ = true;
        if (thread_.joinable()) thread_.join();
        std::vector<Span> spans;
        for (const gpuchrono::Measurement& m : series_.measurements())
            for (const gpuchrono::KernelActivity& a : m.activities()) spans.emplace_back(a.start_ns, a.end_ns);
        std::sort(spans.begin(), spans.end());
        return spans;
    }

private:
    gpuchrono::Series series_{"neighbour"};
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

// How long the reading's activities ran while the neighbour's did (each instant once), from both sides' records.
std::uint64_t hindsight_overlap_ns(const gpuchrono::Measurement& m, const std::vector<Span>& neighbour) {
    std::vector<Span> shared;
    for (const gpuchrono::KernelActivity& a : m.activities())
        for (const Span& o : neighbour) {
            const std::uint64_t lo = std::max(a.start_ns, o.first), hi = std::min(a.end_ns, o.second);
            if (hi > lo) shared.emplace_back(lo, hi);
        }
    std::sort(shared.begin(), shared.end());
    std::uint64_t total = 0, covered_to = 0;
    for (const Span& i : shared) {
        const std::uint64_t lo = std::max(i.first, covered_to);
        if (i.second > lo) total += i.second - lo;
        covered_to = std::max(covered_to, i.second);
    }
    return total;
}

struct BesideScenario {
    std::string name;
    Launch timed;          // the timed work: one launch per scope
    Launch neighbour;      // one launch of the other thread's work
    int most_per_burst;    // the neighbour's launches per burst: 1 to this
    Duration most_pause;   // its idle time after each burst: 0 to this (0: back to back)
};

// `scopes` eager scopes of the scenario's timed work while the neighbour runs; stretched against the thread-free
// median of the same work. Beside [13]'s row: the readings by their overlap with the neighbour (read from its
// records), and how many were stretched by more than that overlap, which work beside them cannot do (it slows
// the timed work only while both run).
// `working`, when given, also counts the readings (the rows whose timed kernel does work, pooled); the return is
// how many readings were stretched by more than their overlap.
int beside(const BesideScenario& scenario, Tally* working, int scopes = 200) {
    const Spread alone = reading_spread(thread_free_readings(scenario.timed));
    const double median = alone.median;
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    cudaStream_t s = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a stream");
    std::vector<gpuchrono::Measurement> readings;
    std::vector<Span> spans;
    {
        Neighbour neighbour(scenario.neighbour, scenario.most_per_burst, scenario.most_pause);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        for (int i = 0; i < scopes; ++i) {
            ScopedTimer<KernelPolicy> t(s);
            scenario.timed(s);
            readings.push_back(t.stop());
        }
        spans = neighbour.stop();
    }
    (void)cudaStreamDestroy(s);
    Tally tally;
    struct Bucket { const char* name; std::uint64_t below_ns; int readings = 0, stretched = 0, warned = 0; };
    Bucket buckets[] = {{"none", 1}, {"under 0.5 us", 500}, {"0.5-5 us", 5000}, {"5 us or more", ~std::uint64_t{0}}};
    int beyond = 0;
    // Overlapped readings whose first record started while a neighbour kernel ran (it held SMs first, and may have
    // delayed that start, which the reading leaves out), and the others.
    int held_first = 0, held_first_stretched = 0, joined = 0, joined_stretched = 0;
    for (const gpuchrono::Measurement& m : readings) {
        const bool stretched = is_stretched(m, median);
        tally.add(m, stretched);
        if (working) working->add(m, stretched);
        const std::uint64_t overlap = hindsight_overlap_ns(m, spans);
        Bucket& b = *std::find_if(std::begin(buckets), std::end(buckets), [&](const Bucket& x) { return overlap < x.below_ns; });
        ++b.readings;
        b.stretched += stretched;
        b.warned += carries(m, gpuchrono::codes::concurrent_work_overlapped);
        beyond += !m.activities().empty() && m.duration().ns() > median + stretch_margin_ns + static_cast<double>(overlap);
        if (overlap >= 500) {
            const std::uint64_t first = m.activities().front().start_ns;
            const bool held = std::any_of(spans.begin(), spans.end(), [&](const Span& o) { return o.first < first && o.second > first; });
            (held ? held_first : joined) += 1;
            (held ? held_first_stretched : joined_stretched) += stretched;
        }
    }
    print_tally((scenario.name + ", " + std::to_string(scopes) + " (thread-free median " +
                 std::to_string(static_cast<long long>(median)) + " ns, p95 " +
                 std::to_string(static_cast<long long>(alone.p95)) + " ns)").c_str(),
                tally);
    std::printf("    by overlap with the neighbour's records:");
    for (const Bucket& b : buckets)
        std::printf(" %s %d (stretched %d, concurrent-work-overlapped %d)%s", b.name, b.readings, b.stretched, b.warned,
                    &b == &buckets[3] ? "" : ";");
    std::printf("\n    overlapped 0.5 us or more: %d whose record started inside a neighbour's kernel (stretched %d), %d "
                "the neighbour joined (stretched %d); stretched by more than their overlap + %.0f ns: %d\n",
                held_first, held_first_stretched, joined, joined_stretched, stretch_margin_ns, beyond);
    return beyond;
}

// Work beside a timed scope, each where the overlap warning must be right. The SMs' share of each kernel: one
// block of 32 or 256 threads; or 2 blocks of 512 (FMA) or 256 (copy) threads per SM, half an SM's threads, so the
// timed kernel's blocks and the neighbour's are resident together; or half as many blocks as SMs, 1024 threads
// each, so that the two kernels' blocks fit on separate SMs.
void beside_other_work() {
    const unsigned sms = static_cast<unsigned>(sm_count());
    constexpr std::size_t copy_bytes = 64u << 20;
    const DeviceBuffer fma_out(std::size_t{4} * sms * 1024 * sizeof(float)), neighbour_fma_out(std::size_t{4} * sms * 1024 * sizeof(float));
    const DeviceBuffer src(copy_bytes), dst(copy_bytes), neighbour_src(copy_bytes), neighbour_dst(copy_bytes);
    constexpr std::size_t float4s = copy_bytes / 16;
    // Iterations: about 20 us for one block of 256 threads, 50 us for 2 x 512 threads per SM, 200 us for the
    // neighbour's (8 FMAs an iteration, 128 a clock per SM, about 2 GHz).
    const auto fma = [&](const DeviceBuffer& out, unsigned iterations, unsigned blocks, unsigned threads) {
        return [&out, iterations, blocks, threads](cudaStream_t st) {
            kernels::launch_fma_chains(out.floats(), iterations, blocks, threads, st);
        };
    };
    const auto copy = [&](const DeviceBuffer& to, const DeviceBuffer& from, unsigned blocks, unsigned threads) {
        return [&to, &from, blocks, threads](cudaStream_t st) {
            kernels::launch_stream_copy(to.get(), from.get(), float4s, blocks, threads, st);
        };
    };
    const Launch full_device_fma = fma(neighbour_fma_out, 6000, 2 * sms, 512);
    const BesideScenario scenarios[] = {
        {"single eager scopes of spin(20 us) beside another thread's full-device spins", launch_spin_20us,
         [sms](cudaStream_t st) { kernels::launch_spin(Duration::from_us(50), st, 64 * sms, 1024); }, 1, Duration::from_ns(0)},
        {"single eager scopes of a one-block FMA kernel beside another thread's full-device FMA kernels, started and "
         "stopped",
         fma(fma_out, 2500, 1, 256), full_device_fma, 3, Duration::from_us(300)},
        {"single eager scopes of a full-device FMA kernel beside another thread's full-device FMA kernels, started and "
         "stopped",
         fma(fma_out, 1500, 2 * sms, 512), full_device_fma, 3, Duration::from_us(300)},
        {"single eager scopes of a 64 MiB copy beside another thread's 64 MiB copies, 2 x 256 threads per SM each, "
         "started and stopped",
         copy(dst, src, 2 * sms, 256), copy(neighbour_dst, neighbour_src, 2 * sms, 256), 4, Duration::from_us(200)},
        {"single eager scopes of a 64 MiB copy beside another thread's 64 MiB copies, the two on separate SMs, started "
         "and stopped",
         copy(dst, src, sms / 2, 1024), copy(neighbour_dst, neighbour_src, sms / 2, 1024), 4, Duration::from_us(200)},
    };
    Tally working;
    int beyond = 0;
    for (const BesideScenario& scenario : scenarios) beyond += beside(scenario, &scenario == &scenarios[0] ? nullptr : &working);
    print_tally("the FMA and copy rows together (their timed kernels do work: sharing an SM or DRAM can lengthen them)", working);
    std::printf("  beside other work, all %zu rows: %d of %zu readings stretched by more than their overlap + %.0f ns\n",
                std::size(scenarios), beyond, std::size(scenarios) * 200, stretch_margin_ns);
}

}  // namespace

int main(int argc, char** argv) try {
    bool threads = true, overlap = true;
    const char* csv = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--only" && i + 1 < argc && (argv[i + 1] == std::string_view("threads") || argv[i + 1] == std::string_view("overlap"))) {
            threads = argv[++i] == std::string_view("threads");
            overlap = !threads;
        } else if (!arg.starts_with("-") && !csv) {
            csv = argv[i];
        } else {
            std::fprintf(stderr, "usage: bench_stretched_readings [--only threads|overlap] [CSV]\n");
            return 2;
        }
    }
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_stretched_readings: no CUDA device (%s); run it on a GPU machine\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_stretched_readings");
    if (!KernelPolicy::available()) {
        std::printf("KernelPolicy unavailable: %s\n", KernelPolicy::unavailable_reason().c_str());
        return 1;
    }
    Tally threads_tally;
    double median = 0;
    {
        // CUPTI held for these runs: the figures are those of scopes under a CuptiHold (bench_cupti_hold gives the
        // cost of a scope that sets CUPTI up itself).
        gpuchrono::CuptiHold hold;
        if (threads) overlap_flags(threads_tally, median, csv);
        std::printf("\n[13] precision and recall per finding code; stretched: over the thread-free median of the same "
                    "work + %.0f ns\n", stretch_margin_ns);
        if (threads) {
            print_tally(("[10] 4 threads x 200 lazy stream-mode scopes, 5 runs (thread-free median " +
                         std::to_string(static_cast<long long>(median)) + " ns)").c_str(),
                        threads_tally);
            for (const int idle_ms : {1, 10}) {
                Tally t;
                after_idle(t, median, 200, idle_ms);
                const std::string name = "single eager scopes of spin(20 us), each after " + std::to_string(idle_ms) + " ms idle, 200";
                print_tally(name.c_str(), t);
            }
        }
        if (overlap) beside_other_work();
    }
    if (threads) {
        Tally t;  // no hold: each scope sets CUPTI up and gives it back, as a lone scope in a program does
        after_idle(t, median, 100, 10);
        print_tally("single eager scopes of spin(20 us), each after 10 ms idle, no CuptiHold, 100", t);
    }
    std::printf("  targets: a warning-level code's precision >= 90%%; recall of the stretched readings >= 99%%\n");
    print_sm_clock("after the table");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_stretched_readings: %s\n", e.what());
    return 1;
}
