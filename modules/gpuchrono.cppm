// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The named module `gpuchrono`. It declares nothing of its own: every entity lives in a header in the
// global module and is re-exported here, so that nvcc-compiled code (which includes the headers) and
// importing code (which uses this module) share one definition and one mangling.
//
// This file is the single list of what `import gpuchrono;` makes visible: what a user writes, and nothing
// else, one block per concept. Detectors, renderers' helpers, the probe's record layout, NVML and driver
// plumbing and the pools are internal: code that needs them (the tests, the examples) includes their headers
// in front of the import. docs/api.md lists every name below, in these groups; the cpu test
// `api.exports_documented` fails when a name is missing there or when the list grows beyond this cap, which
// the test reads from the next line (the one place it is written):
// max-exports: 117
module;

#include <gpuchrono/host.hpp>  // the one list of headers whose names this module re-exports

export module gpuchrono;

// Time values
export namespace gpuchrono {
using gpuchrono::Duration;
using gpuchrono::to_string;
}  // namespace gpuchrono

// Version
export namespace gpuchrono {
using gpuchrono::Version;
using gpuchrono::version;
}  // namespace gpuchrono

// Errors
export namespace gpuchrono {
using gpuchrono::CudaError;
using gpuchrono::TimerError;
}  // namespace gpuchrono

// Devices, and the pools and warm-up a timer's first use on one needs
export namespace gpuchrono {
using gpuchrono::device_count;
using gpuchrono::DeviceGuard;
using gpuchrono::no_device_reason;
using gpuchrono::prepare;
using gpuchrono::release_pools;
}  // namespace gpuchrono

// Timers and their policies
export namespace gpuchrono {
using gpuchrono::CuptiHold;
using gpuchrono::release_cupti;
using gpuchrono::DeviceClockPolicy;
using gpuchrono::EventPolicy;
using gpuchrono::HostClockPolicy;
using gpuchrono::HostSyncPolicy;
using gpuchrono::KernelPolicy;
using gpuchrono::ScopedTimer;
using gpuchrono::SyncScope;
using gpuchrono::TimingPolicy;
}  // namespace gpuchrono

// Measurements and series of them
export namespace gpuchrono {
using gpuchrono::Measurement;
using gpuchrono::Series;
using gpuchrono::SeriesSet;
}  // namespace gpuchrono

// GPU activity records (KernelPolicy's, from CUPTI) and each device's busy time among them
export namespace gpuchrono {
using gpuchrono::ActivityKind;
using gpuchrono::busy_per_device;
using gpuchrono::DeviceBusy;
using gpuchrono::KernelActivity;
}  // namespace gpuchrono

// In-kernel device clocks: the probe a kernel gets and the samples it yields
export namespace gpuchrono {
using gpuchrono::BlockSample;
using gpuchrono::BlockSamples;
using gpuchrono::ClockSource;
using gpuchrono::DeviceProbe;
}  // namespace gpuchrono

// Run-time switches: NVTX ranges of the timers and marks of the findings (core/nvtx_range.hpp), and the
// GPU-state reads (NVML) at a timer's start (gpu/gpu_state.hpp)
export namespace gpuchrono {
using gpuchrono::gpu_state_enabled;
using gpuchrono::nvtx_enabled;
using gpuchrono::set_gpu_state_enabled;
using gpuchrono::set_nvtx_enabled;
}  // namespace gpuchrono

// Findings: what was detected, and what happens on one
export namespace gpuchrono {
using gpuchrono::codes;
using gpuchrono::explain;
using gpuchrono::Finding;
using gpuchrono::FindingError;
using gpuchrono::finding_print_level;
using gpuchrono::finding_reaction;
using gpuchrono::Findings;
using gpuchrono::FindingSink;
using gpuchrono::NoiseLimits;
using gpuchrono::Reaction;
using gpuchrono::ScopedFindingReaction;
using gpuchrono::set_finding_print_level;
using gpuchrono::set_finding_reaction;
using gpuchrono::set_finding_sink;
using gpuchrono::Severity;
using gpuchrono::Summary;
using gpuchrono::summary;
using gpuchrono::to_short_string;
}  // namespace gpuchrono

// Measuring and comparing: the benchmark loop, how it measured, and whether B is faster than A (measure/)
export namespace gpuchrono {
using gpuchrono::CacheState;
using gpuchrono::compare;
using gpuchrono::CompareOptions;
using gpuchrono::Comparison;
using gpuchrono::measure;
using gpuchrono::MeasureOptions;
using gpuchrono::MeasureRecord;
using gpuchrono::Method;
using gpuchrono::SequentialCompareOptions;
using gpuchrono::SequentialComparison;
using gpuchrono::sweep;
using gpuchrono::Verdict;
}  // namespace gpuchrono

// Statistics, and the reductions and lazy views over per-block samples (host only: range-v3)
export namespace gpuchrono {
using gpuchrono::block_duration;
using gpuchrono::concurrency;
using gpuchrono::group_by_sm;
using gpuchrono::iteration_duration;
using gpuchrono::makespan;
using gpuchrono::percentile;
using gpuchrono::SmSamples;
using gpuchrono::Stats;
using gpuchrono::summarize;
using gpuchrono::Waves;
using gpuchrono::waves;
}  // namespace gpuchrono
export namespace gpuchrono::views {
using gpuchrono::views::block_durations;
using gpuchrono::views::for_region;
using gpuchrono::views::iteration_durations;
using gpuchrono::views::launch_skew;
using gpuchrono::views::on_sm;
using gpuchrono::views::sm_changed;
}  // namespace gpuchrono::views

// range-v3's iterator/sentinel comparisons are namespace-scope templates in `ranges`, found by
// argument-dependent lookup. Declared in this file's global module fragment and named nowhere here, they
// would be discarded, and `for (Duration d : blocks | views::block_durations)` in an importing file would
// find no `!=` between the view's iterator and sentinel. Exporting them keeps them visible there.
export namespace ranges {
using ranges::operator==;
using ranges::operator!=;
}  // namespace ranges

// Hardware metrics: ncu's metrics of the kernels of a scope (through CUPTI's Range Profiler), the device's
// peaks and the roofline points of a collection (docs/metrics.md)
export namespace gpuchrono::metrics {
using gpuchrono::metrics::collect;
using gpuchrono::metrics::CollectOptions;
using gpuchrono::metrics::device_peaks;
using gpuchrono::metrics::expand_metric_names;
using gpuchrono::metrics::KernelMetrics;
using gpuchrono::metrics::MetricsResult;
using gpuchrono::metrics::MetricsScope;
using gpuchrono::metrics::MetricValue;
using gpuchrono::metrics::roofline_points;
}  // namespace gpuchrono::metrics

// Distributed jobs: record a rank's named scopes and clock anchors; merge the ranks' reports
export namespace gpuchrono::distributed {
using gpuchrono::distributed::IdentityError;
using gpuchrono::distributed::merge_rank_reports;
using gpuchrono::distributed::MergeError;
using gpuchrono::distributed::RankSection;
using gpuchrono::distributed::ScopeLog;
}  // namespace gpuchrono::distributed

// Reports: every series into report.txt, report.json, CSV tables, SVGs, a Chrome trace in one call; read a
// saved one, render it, write its files (host only)
export namespace gpuchrono {
using gpuchrono::write_report;
}  // namespace gpuchrono
export namespace gpuchrono::report {
using gpuchrono::report::load_report;
using gpuchrono::report::render_text;
using gpuchrono::report::Report;
using gpuchrono::report::ReportError;
using gpuchrono::report::ReportFilesOptions;
using gpuchrono::report::Sweep;
using gpuchrono::report::write_report_files;
using gpuchrono::report::WrittenFile;
}  // namespace gpuchrono::report

// Performance checks for unit tests, any framework (the Boost.Test macros: <gpuchrono/boost_test.hpp>)
export namespace gpuchrono {
using gpuchrono::check_faster;
using gpuchrono::check_finding;
using gpuchrono::check_metric;
using gpuchrono::check_no_findings;
using gpuchrono::check_not_slower;
using gpuchrono::CheckResult;
using gpuchrono::MetricBound;
}  // namespace gpuchrono
