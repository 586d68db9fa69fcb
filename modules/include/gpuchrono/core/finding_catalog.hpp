// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The one list of every finding code gpuchrono emits: its severity, the row of docs/pitfalls-catalog.md it
// stands for, a one-line summary and the fix. Detectors build their findings through make_finding(), which
// takes severity and fix from here, so a code cannot drift from its documentation (docs/pitfalls.md is
// written from this table, and a CPU test checks that every code in it is unique and complete).
//
// Severities: error    - the number is wrong (a clock ran backwards, cycles of two SMs were subtracted);
//             warning  - the number is probably not what the user meant to measure, by a large factor;
//             info     - the number is right but needs context to be read right (legacy stream, capture).
#pragma once

#include <gpuchrono/core/finding.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono {

struct FindingKind {
    std::string_view code;
    Severity severity;
    int pitfall_row;  // row of docs/pitfalls-catalog.md; 0 when the pitfall is not one of its rows (the summary says where from)
    std::string_view summary;
    std::string_view fix;
};

// The codes, spelled once; compare with Finding::code.
struct codes {
    // Host-side timers
    static constexpr std::string_view host_stop_with_pending_work = "host-stop-with-pending-work";
    static constexpr std::string_view host_timer_during_capture = "host-timer-during-capture";
    static constexpr std::string_view context_created_in_timer = "context-created-in-timer";
    static constexpr std::string_view blocking_sync_wait = "blocking-sync-wait";
    static constexpr std::string_view pageable_host_memory = "pageable-host-memory";
    // Event pairs
    static constexpr std::string_view host_time_in_event_interval = "host-time-in-event-interval";
    static constexpr std::string_view timed_stream_idle = "timed-stream-idle";
    static constexpr std::string_view interval_below_event_floor = "interval-below-event-floor";
    static constexpr std::string_view timer_in_stream_capture = "timer-in-stream-capture";
    // Any GPU timer
    static constexpr std::string_view timer_device_changed = "timer-device-changed";
    static constexpr std::string_view legacy_default_stream = "legacy-default-stream";
    // Series
    static constexpr std::string_view cold_first_sample = "cold-first-sample";
    static constexpr std::string_view too_few_samples = "too-few-samples";
    static constexpr std::string_view high_variation = "high-variation";
    static constexpr std::string_view did_not_converge = "did-not-converge";
    // Device clock (the first four are emitted by the DeviceClockPolicy's decoding)
    static constexpr std::string_view device_clock_sm_changed = "device-clock-sm-changed";
    static constexpr std::string_view device_clock_records_dropped = "device-clock-records-dropped";
    static constexpr std::string_view device_clock_kernel_below_timer_resolution =
        "device-clock-kernel-below-timer-resolution";
    static constexpr std::string_view device_clock_regions_below_timer_resolution =
        "device-clock-regions-below-timer-resolution";
    static constexpr std::string_view clock_went_backwards = "clock-went-backwards";
    static constexpr std::string_view cycles_across_sms = "cycles-across-sms";
    static constexpr std::string_view partial_last_wave = "partial-last-wave";
    static constexpr std::string_view block_start_spread = "block-start-spread";
    // GPU state (NVML)
    static constexpr std::string_view gpu_idle_clock = "gpu-idle-clock";
    static constexpr std::string_view gpu_clock_throttled = "gpu-clock-throttled";
    static constexpr std::string_view gpu_clock_low = "gpu-clock-low";
    static constexpr std::string_view gpu_shared = "gpu-shared";
    static constexpr std::string_view other_processes_on_device = "other-processes-on-device";
    static constexpr std::string_view nvml_unavailable = "nvml-unavailable";
    // Kernel activity (KernelPolicy, CUPTI)
    static constexpr std::string_view kernel_no_activity = "kernel-no-activity";
    static constexpr std::string_view kernel_activity_elsewhere = "kernel-activity-elsewhere";
    static constexpr std::string_view kernel_records_dropped = "kernel-records-dropped";
    static constexpr std::string_view kernel_records_late = "kernel-records-late";
    static constexpr std::string_view concurrent_work_overlapped = "concurrent-work-overlapped";
    static constexpr std::string_view concurrent_work_beside = "concurrent-work-beside";
    static constexpr std::string_view gpu_idle_before = "gpu-idle-before";
    static constexpr std::string_view cupti_unavailable = "cupti-unavailable";
};

namespace detail {
inline constexpr FindingKind finding_kinds[] = {
    {codes::host_stop_with_pending_work, Severity::warning, 1,
     "a host timer stopped while the stream it watches still had GPU work queued: the time excludes that work",
     "synchronize the stream before the timer stops, or time GPU work with EventPolicy or HostSyncPolicy"},
    {codes::host_timer_during_capture, Severity::warning, 13,
     "a host timer watched a stream that was being captured into a graph: nothing ran, the time is the cost of "
     "capturing",
     "time the graph launch (cudaGraphLaunch, then synchronize) instead of the capture"},
    {codes::context_created_in_timer, Severity::warning, 3,
     "a CUDA context was created inside the timed scope: the time includes context creation (213-323 ms on an H100)",
     "initialise CUDA before timing, e.g. cudaInitDevice(device, 0, 0) or cudaFree(nullptr)"},
    {codes::blocking_sync_wait, Severity::info, 14,
     "the device schedules with cudaDeviceScheduleBlockingSync: the host wakes late from every synchronisation "
     "(+83 us on an H100), and a host-synchronised interval includes that",
     "read the GPU interval with EventPolicy, or leave the device's default scheduling (spin or auto)"},
    {codes::pageable_host_memory, Severity::warning, 2,
     "a host buffer of an asynchronous copy is pageable: cudaMemcpyAsync is then synchronous and slow "
     "(256 MB H2D: 40.9 ms pageable vs 5.0 ms pinned on an H100)",
     "pin the buffer (cudaMallocHost, or cudaHostRegister on an existing one)"},
    {codes::host_time_in_event_interval, Severity::warning, 0,
     "the start event was recorded on an idle stream, and host time before or between launches makes up most of "
     "the event interval (the pitfall the nvperf README describes; docs/pitfalls-catalog.md #4 and #22 are its usual causes)",
     "start the timer right before the first launch (after the host work), or queue the work before starting"},
    {codes::timed_stream_idle, Severity::warning, 8,
     "the timed stream had no pending work when the timer started nor when it stopped: the event interval is "
     "host time, not GPU work (the work ran on another stream, or finished before the stop was recorded)",
     "pass the timer the stream the work is launched on, and stop the timer right after the last launch"},
    {codes::interval_below_event_floor, Severity::warning, 7,
     "the event interval is less than 10x the empty event-pair interval measured on this device, so the timer's "
     "own floor is a large part of it (docs/pitfalls-catalog.md #7 and #22)",
     "time many iterations between one event pair (or a CUDA graph of them) and divide"},
    {codes::timer_in_stream_capture, Severity::info, 13,
     "the timed stream was being captured into a graph: the events were recorded as graph nodes "
     "(cudaEventRecordExternal) and the interval exists only once the graph has run",
     "launch the graph before reading the duration (each launch overwrites it), or time the graph launch instead"},
    {codes::timer_device_changed, Severity::warning, 10,
     "the thread's current device changed between the timer's start and stop: work on the other device is not "
     "inside the timed interval (docs/pitfalls-catalog.md #10 and #28)",
     "keep cudaSetDevice outside the timed scope and use one timer (one stream) per device"},
    {codes::legacy_default_stream, Severity::info, 12,
     "the timed stream is the legacy default stream, which waits for and blocks every blocking stream on the "
     "device: the interval can include or be delayed by their work",
     "time on a stream created with cudaStreamNonBlocking, or on cudaStreamPerThread (a stream 0 means the legacy "
     "stream to the library even in code built with --default-stream per-thread: pass GPUCHRONO_DEFAULT_STREAM "
     "there)"},
    {codes::cold_first_sample, Severity::warning, 4,
     "the first sample of a series is far above the median of the rest, or the first scope at a timer's line spent "
     "its time loading kernels on the host: it paid for a cold start (context, lazy module loading, idle clocks; "
     "docs/pitfalls-catalog.md #3 to #5)",
     "run the timed work once before timing it (and the GPU for some 100 ms), or drop the first sample"},
    {codes::too_few_samples, Severity::warning, 26,
     "the series has fewer samples than the statistic needs to mean anything",
     "take more samples: at least 10 (nvbench's --min-samples), and 1/min(p, 1-p) for a percentile p"},
    {codes::high_variation, Severity::warning, 26,
     "the samples vary more than a stable GPU measurement does: their median absolute deviation is above 3% of "
     "the median (the most 320 series of stable work reached on an H100 was 1.7%)",
     "report the median and IQR rather than the mean; warm up, isolate the GPU, and look for a cold or "
     "interrupted sample"},
    {codes::did_not_converge, Severity::warning, 26,
     "measure() ran out of its time or sample budget before the confidence interval of the median was as narrow "
     "as asked: the median is less certain than the target says (the message gives the width reached)",
     "raise max_time or max_samples, accept a wider target_relative_width, or quieten the GPU (other work, clocks)"},
    {codes::device_clock_sm_changed, Severity::warning, 18,
     "a block began and ended a region on different SMs (it was preempted): its cycles are not comparable",
     "nothing to correct: %globaltimer times stay valid across SMs; check what else runs on the GPU"},
    {codes::device_clock_records_dropped, Severity::warning, 0,
     "the kernel had more blocks than the device-clock probe holds: the missing blocks' samples were dropped "
     "(counted, never written out of bounds)",
     "raise DeviceClockPolicy::Options::max_blocks to the launch's block count"},
    {codes::device_clock_kernel_below_timer_resolution, Severity::warning, 17,
     "the kernel-level duration spans fewer than 30 %globaltimer steps: it is quantised by several percent",
     "time more work per launch, or read cycle-based times (net_ns)"},
    {codes::device_clock_regions_below_timer_resolution, Severity::info, 17,
     "some device-clock regions last fewer than 30 %globaltimer steps: their ns times are coarse",
     "read net_ns (from cycles) for short regions, or time longer regions"},
    {codes::clock_went_backwards, Severity::error, 15,
     "a device-clock sample ends before it starts (a wrapped 32-bit clock(), or reads on different clocks)",
     "read clock64 and %globaltimer, never the 32-bit clock(); keep start and stop reads on one block"},
    {codes::cycles_across_sms, Severity::error, 16,
     "clock64 values read on two different SMs were subtracted: SM counters are not aligned (offsets up to 12 ms "
     "on an H100)",
     "compare %globaltimer times across SMs; subtract clock64 only between reads on one SM"},
    {codes::partial_last_wave, Severity::info, 24,
     "the launch ends in a partial wave that leaves most of the GPU idle for a wave's time (tail effect)",
     "launch whole waves (a multiple of SMs x resident blocks per SM), or report the wave count beside the time"},
    {codes::block_start_spread, Severity::info, 25,
     "the blocks of one region started far apart compared with the region's length: first start to last stop is "
     "not the region's duration",
     "read per-block durations (or the median over blocks), and never infer placement or order from blockIdx"},
    {codes::gpu_idle_clock, Severity::warning, 5,
     "the SM clock was at its idle level when the timer started: the first samples run while it ramps up "
     "(345 MHz idle vs 1980 MHz under load on an H100)",
     "warm up by time: run the workload for some 100 ms before the timed samples"},
    {codes::gpu_clock_throttled, Severity::warning, 6,
     "the GPU reported power or thermal capping of its clock while timing (sustained GEMM on an H100: 1980 -> "
     "1470-1560 MHz, +15% time)",
     "report the SM clock beside the time; cool down between runs, or compare runs only at the same clock"},
    {codes::gpu_clock_low, Severity::warning, 6,
     "the SM clock was under 75% of its maximum (nvbench's throttle threshold) without an idle or capping reason",
     "report the SM clock beside the time; check application clocks and what else runs on the GPU"},
    {codes::gpu_shared, Severity::info, 27,
     "other processes had a compute context on the GPU while timing: they share its SMs or time-slice with it when "
     "they run work, which a context alone does not say (info: on an H100 beside a spinning process, 0 of 3 readings "
     "carrying it were stretched)",
     "time on a GPU no other process uses, or record what else ran beside the results"},
    {codes::other_processes_on_device, Severity::info, 27,
     "another process (PIDs in the message) had a compute context on the device around the reading, as NVML listed it "
     "at its latest read: its work time-slices with the timed work or shares its SMs, and may have stretched the reading "
     "(info: NVML lists contexts, not whether their work ran during this reading; on an H100 beside a spinning "
     "process 19% of EventPolicy and 0% of KernelPolicy readings carrying it were stretched)",
     "time on a GPU no other process uses, or discard or report apart the readings that carry this finding"},
    {codes::nvml_unavailable, Severity::info, 0,
     "NVML (libnvidia-ml.so.1) could not be used, so the GPU clock, throttling and other-process checks "
     "(docs/pitfalls-catalog.md #5, #6, #27) are off",
     "install the NVIDIA driver's NVML library to enable these checks; timing works without it"},
    {codes::kernel_no_activity, Severity::warning, 8,
     "KernelPolicy counted no kernel, memcpy or memset in the scope: the work ran on another stream than the timed "
     "one, was launched by another thread, or there was none (the duration is 0)",
     "pass the stream the work is launched on, launch from the scope's thread, or count every launch of the thread "
     "(KernelPolicy::Options{.count = KernelPolicy::Count::thread})"},
    {codes::kernel_activity_elsewhere, Severity::info, 8,
     "the scope's thread launched work on another stream or device than the timed stream's: stream mode did not "
     "count it; thread mode counted work of another device (docs/pitfalls-catalog.md #8 and #10). Info: stream mode "
     "cannot tell the scope's own launches from another thread's, whose work the reading rightly leaves out",
     "pass the stream the work runs on, or count every launch of the thread (Count::thread) on purpose"},
    {codes::kernel_records_dropped, Severity::warning, 0,
     "CUPTI dropped activity records while the scope ran (it had no buffer space: the library's buffers could not "
     "be allocated, or were full; counted by cuptiActivityGetNumDroppedRecords, for the scope that lost them): the "
     "activity list and busy time may miss work",
     "free host memory, time fewer launches per scope, or stop scopes eagerly (wait_at_stop) so buffers are "
     "flushed more often"},
    {codes::kernel_records_late, Severity::warning, 0,
     "CUPTI had not delivered the activity record of some of the scope's launch calls 200 ms after their work had "
     "finished (flushes included): the activity list and busy time miss that work",
     "time the work again (the records normally arrive within one flush); if it recurs, report the CUDA driver "
     "and CUPTI versions"},
    {codes::concurrent_work_overlapped, Severity::warning, 9,
     "kernels or copies of other streams shared the SMs or memory of the scope's wide work (a copy or a set, or "
     "kernels on more than an eighth of the SMs; their blocks and the scope's more than the SMs, kernels on more than "
     "an eighth of the SMs, or a copy) while it ran, for at least 500 ns and 1% of its busy time: the reading can be "
     "longer than the work alone by up to that time (110 us alone vs 1113 us beside another stream on an H100; a "
     "full-device kernel or a 64 MiB copy so shared was stretched in 360 of 363 readings)",
     "time on an otherwise idle GPU, or synchronize the other streams before the timed scope"},
    {codes::concurrent_work_beside, Severity::info, 9,
     "kernels or copies of other streams ran on the device while the scope's work ran, but every block of the kernels "
     "had an SM of its own, they held at most an eighth of the SMs and no copy ran (the reading is then the work's "
     "own within about 1 us: 4 threads of 20 us "
     "one-block spins on an H100 read 0.5-1 us longer in 12% of such readings), or they ran beside it for under "
     "500 ns or 1% of its busy time, the most that work beside a scope can lengthen its reading by, or the scope's "
     "work was narrow (kernels on at most an eighth of the SMs), so whether sharing an SM slowed it depends on what "
     "it does there, which no record says (on an H100 a one-block spin beside full-device spins was never stretched, "
     "a one-block FMA kernel beside full-device FMA kernels in 76 of 112 readings)",
     "nothing needed for most purposes; for the last microsecond, time on an otherwise idle GPU"},
    {codes::gpu_idle_before, Severity::info, 0,
     "the device had run none of the process's work for 100 us or more before the scope's first activity started "
     "(KernelPolicy, CUPTI records of this process only): the first kernel after an idle gap runs longer than when "
     "queued behind other work (0.6-1.7 us on an H100; docs/pitfalls.md)",
     "warm the GPU / keep work queued: the first kernel after an idle gap runs up to ~1-2 us longer on an H100 "
     "(docs/pitfalls.md): launch the timed work behind other work (a warm-up launch just before it), or discard the "
     "reading"},
    {codes::cupti_unavailable, Severity::warning, 0,
     "CUPTI could not be used (libcupti.so.13/.12 not found or older than the build's, or another tool such as Nsight "
     "holds its one subscriber), "
     "so KernelPolicy measured nothing",
     "set GPUCHRONO_CUPTI to the CUPTI of the toolkit gpuchrono was built with (or its folder), or run without the other CUPTI tool; EventPolicy "
     "works without CUPTI"},
};
}  // namespace detail

// Every kind, in the order above.
inline constexpr std::span<const FindingKind> finding_catalog() noexcept { return detail::finding_kinds; }

// The kind of `code`, or nullptr if no such code exists.
const FindingKind* find_finding_kind(std::string_view code) noexcept;

// What a code means, for a person: its severity, its row of docs/pitfalls-catalog.md, the catalog's summary and
// fix, and where docs/pitfalls.md gives its thresholds. std::invalid_argument (listing the codes) for an unknown code.
std::string explain(std::string_view code);

// A finding of a catalogued kind: severity from the catalog, the fix from the catalog unless `fix` is given
// (a fix with the numbers of this case, e.g. how many samples to take). Throws std::invalid_argument for an
// unknown code: every code must be in the catalog.
Finding make_finding(std::string_view code, std::string message, std::vector<Evidence> evidence = {},
                     std::string fix = {});

}  // namespace gpuchrono
