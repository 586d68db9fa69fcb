// The named module `gpuchrono`. It declares nothing of its own: every entity lives in a header in the
// global module and is re-exported here, so that nvcc-compiled code (which includes the headers) and
// importing code (which uses this module) share one definition and one mangling. This file is the single
// list of what `import gpuchrono;` makes visible.
module;

#include <gpuchrono/gpuchrono.hpp>
#include <gpuchrono/stats/stats.hpp>
#include <gpuchrono/checks/check_noise.hpp>
#include <gpuchrono/stats/summary.hpp>
#include <gpuchrono/stats/views.hpp>
#include <gpuchrono/report/chrome_trace.hpp>
#include <gpuchrono/report/csv.hpp>
#include <gpuchrono/report/json.hpp>
#include <gpuchrono/report/progress.hpp>
#include <gpuchrono/report/report.hpp>
#include <gpuchrono/report/report_files.hpp>
#include <gpuchrono/report/report_json.hpp>
#include <gpuchrono/report/svg.hpp>
#include <gpuchrono/report/sweep_svg.hpp>
#include <gpuchrono/report/text_report.hpp>
#include <gpuchrono/report/text_table.hpp>
#include <gpuchrono/report/timeline_summary.hpp>
#include <gpuchrono/report/timeline_svg.hpp>
#include <gpuchrono/report/units.hpp>
#include <gpuchrono/testing/check_result.hpp>
#include <gpuchrono/testing/findings_checks.hpp>

export module gpuchrono;

export namespace gpuchrono {
// Time values
using gpuchrono::Duration;
using gpuchrono::natural_unit;
using gpuchrono::to_string;

// Errors
using gpuchrono::check;
using gpuchrono::CudaError;
using gpuchrono::TimerError;

// Devices
using gpuchrono::current_device;
using gpuchrono::device_count;
using gpuchrono::DeviceGuard;
using gpuchrono::no_device_reason;
using gpuchrono::stream_device;

// Measurements and their findings
using gpuchrono::Finding;
using gpuchrono::Findings;
using gpuchrono::Measurement;
using gpuchrono::Series;
using gpuchrono::SeriesSet;
using gpuchrono::Severity;

// Findings: the catalog of codes, what happens on one, and the pure detectors CPU code can call
using gpuchrono::CallSite;
using gpuchrono::capture_finding;
using gpuchrono::check_block_samples;
using gpuchrono::check_block_start_spread;
using gpuchrono::check_blocking_sync;
using gpuchrono::check_clock_monotonic;
using gpuchrono::check_cold_first_sample;
using gpuchrono::check_context_created;
using gpuchrono::check_cycle_span;
using gpuchrono::check_device_changed;
using gpuchrono::check_event_floor;
using gpuchrono::check_gpu_state;
using gpuchrono::check_host_memory_type;
using gpuchrono::check_host_stop;
using gpuchrono::check_host_time_in_interval;
using gpuchrono::check_host_timer_capture;
using gpuchrono::check_legacy_stream;
using gpuchrono::check_pinned;
using gpuchrono::check_sample_count;
using gpuchrono::check_timed_stream_idle;
using gpuchrono::check_variation;
using gpuchrono::check_waves;
using gpuchrono::codes;
using gpuchrono::cold_sample_ratio;
using gpuchrono::event_floor_factor;
using gpuchrono::EventIntervalObservation;
using gpuchrono::Evidence;
using gpuchrono::find_finding_kind;
using gpuchrono::finding_catalog;
using gpuchrono::finding_reaction;
using gpuchrono::FindingError;
using gpuchrono::FindingKind;
using gpuchrono::FindingSink;
using gpuchrono::forget_reported_findings;
using gpuchrono::handle_findings;
using gpuchrono::host_share_threshold;
using gpuchrono::host_time_floor;
using gpuchrono::idle_slot_share_threshold;
using gpuchrono::make_finding;
using gpuchrono::min_clock_fraction;
using gpuchrono::NoiseLimits;
using gpuchrono::parse_reaction;
using gpuchrono::Reaction;
using gpuchrono::samples_needed;
using gpuchrono::ScopedFindingReaction;
using gpuchrono::set_finding_reaction;
using gpuchrono::set_finding_sink;
using gpuchrono::start_spread_threshold;
using gpuchrono::Summary;
using gpuchrono::summary;

// What the detectors measure or ask at run time
using gpuchrono::active_primary_contexts;
using gpuchrono::describe_clock_event_reasons;
using gpuchrono::event_pair_floor;
using gpuchrono::gpu_state_interval;
using gpuchrono::GpuState;
using gpuchrono::is_legacy_default_stream;
using gpuchrono::known_event_pair_floor;
using gpuchrono::module_loading_mode;
using gpuchrono::ModuleLoading;
using gpuchrono::read_gpu_state;
using gpuchrono::RelaxedCaptureMode;
using gpuchrono::reset_gpu_state_sampling;
using gpuchrono::sample_gpu_state;
using gpuchrono::stream_is_capturing;
using gpuchrono::stream_is_idle;

// Timers and policies
using gpuchrono::EventLease;
using gpuchrono::EventPolicy;
using gpuchrono::EventPool;
using gpuchrono::HostClockPolicy;
using gpuchrono::HostSyncPolicy;
using gpuchrono::ScopedTimer;
using gpuchrono::SyncScope;
using gpuchrono::TimingPolicy;

// NVTX ranges of the timers and marks of the findings (nvtx/nvtx_range.hpp): the run-time switch
using gpuchrono::nvtx_enabled;
using gpuchrono::set_nvtx_enabled;

// In-kernel device clocks: the policy, the probe a kernel gets, the samples it yields
using gpuchrono::BlockSample;
using gpuchrono::BlockSamples;
using gpuchrono::ClockSource;
using gpuchrono::DeviceClockCalibration;
using gpuchrono::DeviceClockPolicy;
using gpuchrono::DeviceProbe;
using gpuchrono::ProbeBufferLease;
using gpuchrono::ProbeBufferPool;
using gpuchrono::probe_bytes;
using gpuchrono::probe_flag_accumulating;
using gpuchrono::probe_flag_sm_changed;
using gpuchrono::probe_records_offset;
using gpuchrono::ProbeHeader;
using gpuchrono::ProbeOverhead;
using gpuchrono::ProbeRecord;
using gpuchrono::SmClock;
namespace device_clock {
using gpuchrono::device_clock::apply_clock;
using gpuchrono::device_clock::clock_from_samples;
using gpuchrono::device_clock::clock_from_span;
using gpuchrono::device_clock::ClockSpan;
using gpuchrono::device_clock::decode;
using gpuchrono::device_clock::Decoded;
using gpuchrono::device_clock::measurement_findings;
using gpuchrono::device_clock::min_timer_steps;
using gpuchrono::device_clock::overhead_from_calibration;
using gpuchrono::device_clock::resolution_findings;
}  // namespace device_clock

// Statistics and the reductions over per-block samples (host only: range-v3)
using gpuchrono::block_duration;
using gpuchrono::concurrency;
using gpuchrono::group_by_sm;
using gpuchrono::iteration_duration;
using gpuchrono::makespan;
using gpuchrono::max_concurrency_bins;
using gpuchrono::percentile;
using gpuchrono::SmSamples;
using gpuchrono::Stats;
using gpuchrono::summarize;
using gpuchrono::Waves;
using gpuchrono::waves;

// Performance checks for unit tests, any framework (testing/; the Boost.Test macros are in <gpuchrono/boost_test.hpp>)
using gpuchrono::check_finding;
using gpuchrono::check_no_findings;
using gpuchrono::CheckResult;
}  // namespace gpuchrono

// Lazy views over per-block samples (host only: range-v3)
export namespace gpuchrono::clock_event {
using gpuchrono::clock_event::applications_clocks_setting;
using gpuchrono::clock_event::capping;
using gpuchrono::clock_event::display_clock_setting;
using gpuchrono::clock_event::gpu_idle;
using gpuchrono::clock_event::hw_power_brake_slowdown;
using gpuchrono::clock_event::hw_slowdown;
using gpuchrono::clock_event::hw_thermal_slowdown;
using gpuchrono::clock_event::sw_power_cap;
using gpuchrono::clock_event::sw_thermal_slowdown;
using gpuchrono::clock_event::sync_boost;
}  // namespace gpuchrono::clock_event

export namespace gpuchrono::views {
using gpuchrono::views::block_durations;
using gpuchrono::views::for_region;
using gpuchrono::views::iteration_durations;
using gpuchrono::views::launch_skew;
using gpuchrono::views::on_sm;
using gpuchrono::views::sm_changed;
}  // namespace gpuchrono::views

// Reports: the data model, its JSON form, and the renderers (host only)
export namespace gpuchrono::report {
using gpuchrono::report::all_csv_tables;
using gpuchrono::report::assign_lanes;
using gpuchrono::report::chrome_trace;
using gpuchrono::report::chrome_trace_lane_stride;
using gpuchrono::report::csv_field;
using gpuchrono::report::CsvTable;
using gpuchrono::report::cuda_version_string;
using gpuchrono::report::decimals_for;
using gpuchrono::report::describe_device;
using gpuchrono::report::DeviceInfo;
using gpuchrono::report::display_width;
using gpuchrono::report::Experiment;
using gpuchrono::report::first_start_ns;
using gpuchrono::report::format_bytes;
using gpuchrono::report::format_fixed;
using gpuchrono::report::format_number;
using gpuchrono::report::format_with_unit;
using gpuchrono::report::load_report;
using gpuchrono::report::make_series;
using gpuchrono::report::make_timeline;
using gpuchrono::report::Metric;
using gpuchrono::report::new_report;
using gpuchrono::report::not_measured;
using gpuchrono::report::Progress;
using gpuchrono::report::region_name;
using gpuchrono::report::RegionSummary;
using gpuchrono::report::render_chrome_trace;
using gpuchrono::report::render_csv;
using gpuchrono::report::render_device_text;
using gpuchrono::report::render_experiment_text;
using gpuchrono::report::render_findings_text;
using gpuchrono::report::render_summary_text;
using gpuchrono::report::render_sweep_svg;
using gpuchrono::report::render_text;
using gpuchrono::report::render_timeline_svg;
using gpuchrono::report::Report;
using gpuchrono::report::report_from_json;
using gpuchrono::report::sample_cycles;
using gpuchrono::report::SampleSeries;
using gpuchrono::report::save_report;
using gpuchrono::report::schema_version;
using gpuchrono::report::slug;
using gpuchrono::report::stdout_is_terminal;
using gpuchrono::report::summarize_timeline;
using gpuchrono::report::Sweep;
using gpuchrono::report::SweepCurve;
using gpuchrono::report::SweepMarker;
using gpuchrono::report::SweepPoint;
using gpuchrono::report::SweepSvgOptions;
using gpuchrono::report::text_width;
using gpuchrono::report::TextTable;
using gpuchrono::report::time_unit_for;
using gpuchrono::report::TimeUnit;
using gpuchrono::report::Timeline;
using gpuchrono::report::TimelineLanes;
using gpuchrono::report::TimelineSvgOptions;
using gpuchrono::report::to_json;
using gpuchrono::report::to_string;
using gpuchrono::report::unit_ms;
using gpuchrono::report::unit_ns;
using gpuchrono::report::unit_s;
using gpuchrono::report::unit_us;
using gpuchrono::report::wrap;
using gpuchrono::report::write_report_files;
using gpuchrono::report::WrittenFile;
}  // namespace gpuchrono::report

export namespace gpuchrono::report::svg {
using gpuchrono::report::svg::colour;
using gpuchrono::report::svg::coord;
using gpuchrono::report::svg::escape;
using gpuchrono::report::svg::linear_ticks;
using gpuchrono::report::svg::log_ticks;
}  // namespace gpuchrono::report::svg

export namespace gpuchrono::json {
using gpuchrono::json::Array;
using gpuchrono::json::max_depth;
using gpuchrono::json::Member;
using gpuchrono::json::Object;
using gpuchrono::json::parse;
using gpuchrono::json::ParseError;
using gpuchrono::json::to_string;
using gpuchrono::json::Type;
using gpuchrono::json::Value;
using gpuchrono::json::write;
using gpuchrono::json::WriteOptions;
}  // namespace gpuchrono::json
