// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The report data model: everything one run of the examples (or of a user's own measurements) produced,
// in a form that every renderer (terminal text, JSON, CSV, SVG timeline, Chrome trace, sweep plot) reads
// and that survives a round trip through JSON, so a run taken on a GPU machine can be drawn elsewhere.
//
// Host only: it holds Stats, whose header includes range-v3 (see stats.hpp), so .cu files cannot include it.
//
// Units: every time is a Duration (double ns) or, for per-block records, integer %globaltimer ns and clock64
// cycles exactly as the device read them. Fields a run could not measure hold NaN (numbers) or are empty.
#pragma once

#include <gpuchrono/core/block_samples.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/kernel_activity.hpp>
#include <gpuchrono/core/device_busy.hpp>
#include <gpuchrono/core/series.hpp>
#include <gpuchrono/distributed/rank_section.hpp>
#include <gpuchrono/metrics/kernel_metrics.hpp>
#include <gpuchrono/stats/stats.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

namespace gpuchrono::report {

inline constexpr double not_measured = std::numeric_limits<double>::quiet_NaN();

// The version of the report's JSON layout (docs/report-json.md). Readers refuse a newer major version.
inline constexpr int schema_version = 1;
// The value of a report file's "schema" member, which tells a report from any other JSON.
inline constexpr const char* report_schema_name = "gpuchrono-report";

// What the figures were taken on. Clocks in MHz; sizes in bytes; versions as CUDA encodes them (13000 = 13.0).
struct DeviceInfo {
    int index = -1;
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    int sm_count = 0;
    double sm_clock_nominal_mhz = not_measured;   // the clock-rate attribute: the boost clock the board may reach
    double sm_clock_measured_mhz = not_measured;  // clock64 against %globaltimer during this run
    double memory_clock_mhz = not_measured;
    int memory_bus_bits = 0;
    std::uint64_t global_memory_bytes = 0;
    std::uint64_t l2_bytes = 0;
    std::uint64_t shared_memory_per_sm_bytes = 0;
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    double globaltimer_step_ns = not_measured;  // the smallest %globaltimer increment seen on this device
    int driver_version = 0;
    int runtime_version = 0;
};

// Asks the CUDA runtime about `device` (throws CudaError). The measured fields stay NaN: the caller fills
// them from a DeviceClockPolicy measurement of the same run.
DeviceInfo describe_device(int device);

// "13.0" from 13000.
std::string cuda_version_string(int version);

// One figure an experiment produced, e.g. {"speed-up", 7.3, "x"} or {"coalesced read", 2710, "GB/s"}.
// unit "ns" marks a duration: renderers then choose us/ms as the value needs.
struct Metric {
    std::string name;
    double value = not_measured;
    std::string unit;
    std::string note;
};

// How measure() took a series (measure/measure_record.hpp), in plain fields a report can carry.
struct MeasureSummary {
    std::string method;           // "kernel", "graph", "event", "host"
    std::string method_note;      // why it ran, how it was set up
    std::string cache_state;      // "warm", "cold"
    std::uint64_t calls_per_sample = 1;
    double warmup_ns = not_measured;
    std::uint64_t warmup_calls = 0;
    std::string warmup_ended;     // why the warm-up ended
    std::string stop_reason;      // "converged", "max-samples", "max-time"
    double ci_low_ns = not_measured;   // the confidence interval of the median
    double ci_high_ns = not_measured;
    double ci_coverage = not_measured;
    double target_relative_width = not_measured;
    double sampling_ns = not_measured;
    std::uint64_t flagged = 0;    // samples taken under a low or capped SM clock
    std::uint64_t excluded = 0;   // of those, left out at the caller's request
    double bytes_per_second = not_measured;       // declared bytes over the median
    double peak_bytes_per_second = not_measured;  // the device's, from its attributes
    double items_per_second = not_measured;
};

// The samples of one timed scope with their summary: one Series of a policy, made portable.
struct SampleSeries {
    std::string name;
    std::string policy;  // "event", "host-sync", "device-clock", "host-clock", ...
    std::vector<Duration> samples;  // every successful sample, in the order taken
    std::size_t failed = 0;
    std::string first_error;
    Stats stats;
    Findings findings;
    std::optional<MeasureSummary> measure;  // present for series taken by measure()
    std::optional<metrics::MetricsResult> kernel_metrics;  // hardware metrics per kernel, when they were collected
    // The devices its measurements ran on (Measurement::device() and, for KernelPolicy, every activity's
    // device), ascending; empty for host-clock series. Report::distributed->devices names each (UUID, PCI).
    std::vector<int> devices;
    // KernelPolicy: per device, the median over the samples that ran there of the busy time and of the span
    // (Measurement::device_busy()); `activities` is the total over the samples. Empty otherwise.
    std::vector<DeviceBusy> device_busy;
};

// Builds a SampleSeries and its Stats from durations.
SampleSeries make_series(std::string name, std::string policy, std::vector<Duration> samples, Findings findings = {});

// From a Series: its successful durations (pending ones resolved), failures counted, and the findings of
// gpuchrono::summary() (the measurements' findings, one per code, plus the series-level ones: cold first
// sample, too few samples, noise); the policy is that of its measurements ("mixed" if they differ, "none"
// if empty). The series-level findings get the configured reaction (finding_reaction.hpp) at `where`, the
// caller's line, unless a summary() of the same series reported them already.
SampleSeries make_series(const Series& series, std::source_location where = std::source_location::current());

// The per-block records of one kernel launch (one DeviceClockPolicy measurement).
struct Timeline {
    std::string name;                    // e.g. "timedReduction, 64 blocks x 256 threads"
    int device = 0;
    std::vector<std::string> regions;    // names by region id; a sample with a region beyond it shows as "region N"
    std::vector<BlockSample> samples;
    std::uint64_t dropped = 0;           // records the probe's buffer could not hold
    std::uint64_t blocks_launched = 0;   // 0: not known
    std::uint32_t threads_per_block = 0;
    int sm_count = 0;                    // of the device; 0: not known
    int resident_blocks_per_sm = 0;      // the kernel's occupancy; 0: not known
    double globaltimer_step_ns = not_measured;
    double sm_clock_mhz = not_measured;  // converts cycles to time; measured in the same run
    std::string sm_clock_source;         // "kernel-samples", "reference-kernel" (see block_samples.hpp)
    double overhead_region_cycles = not_measured;     // the probe's cost per empty region, calibrated
    double overhead_iteration_cycles = not_measured;  // ... per empty loop iteration
    bool overhead_subtracted = false;    // whether the samples' net_ns have it taken off
};

// A Timeline from what a DeviceClockPolicy measurement holds (Measurement::blocks()).
Timeline make_timeline(std::string name, const BlockSamples& blocks);

// The name of region `id` in `t` ("region 3" when it has none).
std::string region_name(const Timeline& t, std::uint32_t id);

// The clock64 cycles a sample spent in its region: stop - start for a plain region, the accumulated cycles
// for a loop region; NaN where the block changed SM inside it (two unaligned counters: docs/pitfalls-catalog.md row 16).
double sample_cycles(const BlockSample& s) noexcept;

// One point of a curve; low/high (NaN when absent) span a band around it, e.g. the min and max over blocks.
struct SweepPoint {
    double x = 0;
    double y = not_measured;
    double low = not_measured;
    double high = not_measured;
};

struct SweepCurve {
    std::string name;
    std::vector<SweepPoint> points;
};

// A vertical reference line, e.g. at the SM count.
struct SweepMarker {
    double x = 0;
    std::string label;
};

// A parameter sweep: curves over a common x (e.g. block count). y_unit "ns" marks durations.
struct Sweep {
    std::string name;
    std::string title;
    std::string x_label;
    std::string y_label;
    std::string y_unit = "ns";
    std::string x_scale = "linear";  // or "log": block counts from 1 to thousands read best on a log axis
    std::string band_label = "min .. max";  // what a curve's low/high band spans
    std::vector<SweepCurve> curves;
    std::vector<SweepMarker> markers;
};

struct Experiment {
    std::string id;     // short, file-name safe ("clock-sweep"): report files are named after it
    std::string title;
    std::string reproduces;  // the earlier experiments it reproduces, e.g. "000, 001" (the seed experiments' ids)
    std::vector<std::string> explanation;  // paragraphs: what the numbers show and why
    std::vector<Metric> metrics;
    std::vector<SampleSeries> series;
    std::vector<Timeline> timelines;
    std::vector<Sweep> sweeps;
    // GPU activities recorded by KernelPolicy scopes (Measurement::activities()): what ran inside them, library
    // kernels included, timed by the GPU. Times are CUPTI timestamps (ns), a clock of their own.
    std::vector<KernelActivity> activities;
    Findings findings;  // about the experiment as a whole (the series carry their own)
};

struct Report {
    std::string generator;    // "gpuchrono 0.1.0"
    std::string created_utc;  // ISO 8601, e.g. "2025-11-22T04:10:00Z"
    std::string host;
    DeviceInfo device;
    std::vector<Experiment> experiments;
    std::vector<std::string> notes;  // run-level remarks, e.g. "NVML not available: GPU-state checks off"
    // Which process wrote it (host, pid, rank, local rank, world size from the launcher's environment), the
    // devices it measured on (UUID, PCI bus id), its clock anchors and, from a ScopeLog, its named scopes
    // (distributed/). new_report() starts it; a section with only its start anchor is finished when written
    // (end anchor, devices of the report's measurements): distributed::finish_report_section().
    std::optional<distributed::RankSection> distributed;
};

// A Report with generator, created_utc (now), host and `distributed` (identity and start anchor) filled in.
// A launcher variable that cannot be true (RANK=abc) leaves `distributed` empty and says why in `notes`.
Report new_report();

// "clock-sweep" style: lower case, [a-z0-9-] only; used for file names.
std::string slug(std::string_view text);

}  // namespace gpuchrono::report
