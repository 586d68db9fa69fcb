// Load: 16 threads, each with its own stream (alternating devices where there are several), 10,000 scopes
// each of every policy (HostSync, Event eager and lazy, DeviceClock, Kernel where CUPTI can be set up) around a
// 5 us spin kernel (test/stress_run.hpp says what is checked). Prints every
// policy's accounting (ok, failed with the reasons, lost, readings outside the physically possible range),
// the memory after the warm-up and at the end, and exits non-zero if a scope was lost, a reading was out of
// range or memory grew after the warm-up.
//   bench_stress [THREADS [ITERATIONS [WARM_ITERATIONS]]]
#include <stress_run.hpp>

#include "device_banner.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

double mib(long long bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

int arg(int argc, char** argv, int i, int fallback) {
    if (argc <= i) return fallback;
    const int v = std::atoi(argv[i]);
    if (v <= 0) {
        std::fprintf(stderr, "bench_stress: argument %d must be a positive integer, got \"%s\"\n", i, argv[i]);
        std::exit(2);
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) try {
    stress::Config config;
    config.threads = arg(argc, argv, 1, config.threads);
    config.iterations = arg(argc, argv, 2, config.iterations);
    config.warm_iterations = arg(argc, argv, 3, std::min(config.warm_iterations, config.iterations / 10));
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("skipped: no CUDA device (%s)\n", why->c_str());
        return 77;
    }
    print_device_banner("bench_stress");
    std::printf("%d threads x %d scopes of each kind, %s spin, memory sampled after %d iterations per thread\n",
                config.threads, config.iterations, gpuchrono::to_string(config.spin).c_str(), config.warm_iterations);
    const stress::Result r = stress::run(config);
    std::printf("devices used: %d; wall time %s\n", r.devices, gpuchrono::to_string(r.wall).c_str());
    bool bad = !r.thread_errors.empty();
    for (const std::string& e : r.thread_errors) std::printf("THREAD ERROR %s\n", e.c_str());
    std::size_t total = 0;
    std::size_t expected = 0;
    for (std::size_t k = 0; k < stress::kind_count; ++k) {
        const stress::Tally& t = r.tallies[k];
        if (!r.ran[k]) {
            std::printf("%-13s not run: %s\n", stress::kind_names[k], r.kernel_unavailable.c_str());
            continue;
        }
        total += t.ok + t.failed;
        expected += r.expected(k);
        std::printf("%-13s expected %zu  ok %zu  failed %zu  lost %zu  out of range %zu  min %s  max %s\n",
                    stress::kind_names[k], r.expected(k), t.ok, t.failed, r.lost(k), t.out_of_range,
                    t.ok ? gpuchrono::to_string(t.min).c_str() : "-", t.ok ? gpuchrono::to_string(t.max).c_str() : "-");
        for (const auto& [why, n] : t.reasons) std::printf("    failed x%zu: %s\n", n, why.c_str());
        for (const auto& e : t.out_of_range_examples) std::printf("    out of range: %s\n", e.c_str());
        bad = bad || r.lost(k) != 0 || t.out_of_range != 0;
    }
    std::printf("scopes accounted for: %zu of %zu\n", total, expected);
    const long long rss_growth = r.at_end.rss_bytes - r.after_warm_up.rss_bytes;
    std::printf("RSS after warm-up %.1f MiB, at end %.1f MiB (%+.2f MiB)\n", mib(r.after_warm_up.rss_bytes),
                mib(r.at_end.rss_bytes), mib(rss_growth));
    for (std::size_t d = 0; d < r.at_end.device_used_bytes.size() && d < r.after_warm_up.device_used_bytes.size(); ++d) {
        const long long before = r.after_warm_up.device_used_bytes[d], after = r.at_end.device_used_bytes[d];
        std::printf("device %zu memory used after warm-up %.1f MiB, at end %.1f MiB (%+.2f MiB)\n", d, mib(before),
                    mib(after), mib(after - before));
        if (after > before) bad = true;
    }
    // Flat: the allocator may keep a few pages more (thread stacks are gone by the end); 1 MiB is far below
    // what one retained Measurement per scope would take (hundreds of bytes x 640,000 scopes).
    if (rss_growth > (1 << 20)) bad = true;
    std::printf("stress: %s\n", bad ? "FAILED" : "passed");
    return bad ? 1 : 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_stress: %s\n", e.what());
    return 1;
}
