// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MeasureRecord: how measure() took a Series, kept with it (Series::measure_record()) and written into
// reports: the method that ran and why, the cache state, what warm-up did, why sampling stopped, the
// confidence interval of the median, the flagged samples and the throughput.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/measure/measure.hpp>
#include <gpuchrono/stats/stopping_rule.hpp>
#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace gpuchrono {

struct WarmupRecord {
    Duration time{};                 // host wall time the warm-up took
    std::size_t calls = 0;           // calls of the callable it made
    Duration first_call{};           // the first call with its synchronisation (module loading included)
    bool clock_steady = false;       // the SM clock read 75% of its maximum or more (without NVML: per-call time steady)
    bool capped = false;             // it ended at warmup_max_time instead
    double sm_clock_mhz = std::numeric_limits<double>::quiet_NaN();  // last NVML reading
    double max_sm_clock_mhz = std::numeric_limits<double>::quiet_NaN();
    Duration per_call{};             // GPU time per call over the last warm-up slice (sizes graphs and batches)
    std::string ended;               // why it ended, in words
};

struct MeasureRecord {
    Method method = Method::event;   // the method that ran (never automatic)
    std::string method_note;         // why it was chosen, e.g. "automatic: CUPTI unavailable (...); graph"
    CacheState cache = CacheState::warm;
    int device = -1;
    unsigned calls_per_sample = 1;   // calls each sample averages (graph: N)

    WarmupRecord warmup;

    StopReason stop_reason = StopReason::running;
    double target_relative_width = 0.01;
    MedianInterval interval;         // over the samples kept; interval.samples counts them
    Duration sampling_time{};        // host wall time from the first sample to the stop decision
    std::size_t flagged = 0;         // samples taken under a low or capped SM clock (included unless excluded)
    std::size_t excluded = 0;        // of those, the ones left out at the caller's request

    std::uint64_t bytes_per_call = 0;  // read + written, as declared
    std::uint64_t items_per_call = 0;
    double peak_bytes_per_second = std::numeric_limits<double>::quiet_NaN();  // from the device's attributes

    // Hardware metrics of the callable's kernels, taken in replays of their own after the timing samples
    // (MeasureOptions::metrics); absent when none were asked for.
    std::optional<metrics::MetricsResult> kernel_metrics;

    bool converged() const noexcept { return stop_reason == StopReason::converged; }
    // Declared bytes (items) over the median; NaN when none were declared or there is no median.
    double bytes_per_second() const noexcept;
    double items_per_second() const noexcept;
    double fraction_of_peak_bandwidth() const noexcept;
};

// Lines for a text report: "method graph (N = 18 calls per sample), warm L2", "warm-up 12.1 ms: ...",
// "stopped: converged, 95% CI of the median 10.84 .. 10.87 us (0.28% <= 1%), 24 samples in 5.2 ms",
// "throughput 2890 GB/s (86.3% of 3352 GB/s peak)".
std::string to_string(const MeasureRecord& r);

}  // namespace gpuchrono
