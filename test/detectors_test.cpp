// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Every detector's decision on synthetic inputs: the case that must fire, the case that must stay silent, and
// the boundary between them. No GPU: the policies feed these same functions what they observe.
#include <boost/test/unit_test.hpp>

#include <cuda_runtime_api.h>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

// The detectors are internal: the whole header side, and the host-only noise checks.
#include <gpuchrono/gpuchrono.hpp>
#include <gpuchrono/checks/check_noise.hpp>

#include <gpuchrono/api.hpp>

using gpuchrono::BlockSample;
using gpuchrono::Duration;
using gpuchrono::Finding;
using gpuchrono::Findings;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool has_code(const Findings& found, std::string_view code) {
    for (const Finding& f : found)
        if (f.code == code) return true;
    return false;
}

gpuchrono::EventIntervalObservation observed(bool idle_start, bool idle_stop, Duration host,
                                             std::optional<Duration> interval) {
    gpuchrono::EventIntervalObservation o;
    o.idle_at_start = idle_start;
    o.idle_at_stop = idle_stop;
    o.host_time = host;
    o.interval = interval;
    return o;
}

// The same first scope as a later one at its line, under eager loading and under unknown loading: none of them
// may be called a module load.
template <class Observation>
std::vector<Observation> not_first_or_not_lazy(const Observation& o) {
    auto later = o;
    later.first_at_call_site = false;
    auto eager = o;
    eager.loading = gpuchrono::ModuleLoading::eager;
    auto unknown = o;
    unknown.loading = gpuchrono::ModuleLoading::unknown;
    return {later, eager, unknown};
}

BlockSample sample(std::uint32_t block, std::uint64_t start_ns, std::uint64_t stop_ns, std::uint32_t sm = 0) {
    BlockSample s;
    s.block = block;
    s.sm_start = s.sm_stop = sm;
    s.start_ns = start_ns;
    s.stop_ns = stop_ns;
    s.start_cycles = start_ns * 2;
    s.stop_cycles = stop_ns * 2;
    s.accumulated_ns = stop_ns - start_ns;
    return s;
}

gpuchrono::GpuState state(unsigned mhz, unsigned long long reasons, unsigned others = 0) {
    gpuchrono::GpuState s;
    s.device = 0;
    s.sm_clock_mhz = mhz;
    s.max_sm_clock_mhz = 1980;
    s.clock_event_reasons = reasons;
    s.other_processes = others;
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(detectors)

// --- docs/pitfalls-catalog.md #1, #13: host clock around async work ---

BOOST_AUTO_TEST_CASE(host_stop_with_pending_work_says_what_was_missed) {
    const auto f = gpuchrono::check_host_stop(true, Duration::from_us(68.8));
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "host-stop-with-pending-work");
    BOOST_TEST(f->message ==
               "stream had pending work when the host timer stopped: the 68.8 us measured exclude it; synchronize the "
               "stream or use EventPolicy");
    BOOST_TEST(f->evidence_or("measured_ns", 0) == 68800.0);
    BOOST_TEST(!gpuchrono::check_host_stop(false, Duration::from_us(68.8)).has_value());
}

BOOST_AUTO_TEST_CASE(host_timer_during_capture) {
    const auto f = gpuchrono::check_host_timer_capture(true, Duration::from_us(12));
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "host-timer-during-capture");
    BOOST_TEST(contains(f->message, "12.0 us"), f->message);
    BOOST_TEST(!gpuchrono::check_host_timer_capture(false, Duration::from_us(12)).has_value());
}

// --- docs/pitfalls-catalog.md #8: what an event interval holds besides GPU work ---

BOOST_AUTO_TEST_CASE(a_stream_idle_at_both_ends_is_reported) {
    const auto f = gpuchrono::check_timed_stream_idle(observed(true, true, Duration::from_us(9), Duration::from_us(11)));
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "timed-stream-idle");
    BOOST_TEST(contains(f->message, "11.0 us measured are host time"), f->message);
    BOOST_TEST(contains(f->message, "another stream"), f->message);
    // Without the interval (lazy mode) it still fires, without quoting one.
    BOOST_TEST(gpuchrono::check_timed_stream_idle(observed(true, true, Duration::from_us(9), std::nullopt)).has_value());
    BOOST_TEST(!gpuchrono::check_timed_stream_idle(observed(true, false, Duration::from_us(9), Duration::from_us(11))));
    BOOST_TEST(!gpuchrono::check_timed_stream_idle(observed(false, true, Duration::from_us(9), Duration::from_us(11))));
}

BOOST_AUTO_TEST_CASE(a_cold_first_launch_is_a_cold_start_not_a_stream_mistake) {
    // The README's first scope: idle at both ends, 17 ms of host time (the kernel's module loaded lazily inside
    // the interval), 17.0 ms read.
    auto o = observed(true, true, Duration::from_ms(17), Duration::from_ms(17));
    o.first_at_call_site = true;
    o.loading = gpuchrono::ModuleLoading::lazy;
    const auto cold = gpuchrono::check_cold_first_scope(o);
    BOOST_REQUIRE(cold.has_value());
    BOOST_TEST(cold->code == "cold-first-sample");
    BOOST_TEST((cold->severity == gpuchrono::Severity::warning));
    BOOST_TEST(contains(cold->message, "first scope timed at this line"), cold->message);
    BOOST_TEST(contains(cold->message, "lazy module loading"), cold->message);
    BOOST_TEST(contains(cold->fix, "CUDA_MODULE_LOADING=EAGER"), cold->fix);
    BOOST_TEST(contains(cold->fix, "launch each kernel once before timing it"), cold->fix);
    BOOST_TEST(cold->evidence_or("host_time_ns", 0) == 17e6);
    BOOST_TEST(!gpuchrono::check_timed_stream_idle(o).has_value(), "its advice (pass the work's stream) would be wrong");
    // A later scope at the same line, eager loading, unknown loading, a few microseconds of host time (no module
    // load is that short), or busy at stop: not a cold launch, and the stream findings speak as before.
    auto others = not_first_or_not_lazy(o);
    auto short_host = o;
    short_host.host_time = Duration::from_us(9);
    others.push_back(short_host);
    for (const auto& other : others) {
        BOOST_TEST(!gpuchrono::check_cold_first_scope(other).has_value());
        BOOST_TEST(gpuchrono::check_timed_stream_idle(other).has_value());
    }
    // Busy at stop: the host time finding speaks, which names lazy loading. The first scope is not called a cold
    // launch there: 50 ms of deliberate host work before a warmed kernel looks the same to an event pair.
    auto busy_at_stop = o;
    busy_at_stop.idle_at_stop = false;
    BOOST_TEST(!gpuchrono::check_cold_first_scope(busy_at_stop).has_value());
    BOOST_TEST(gpuchrono::check_host_time_in_interval(busy_at_stop).has_value());
}

BOOST_AUTO_TEST_CASE(a_host_sync_scopes_cold_first_launch_is_a_cold_start) {
    // The first HostSyncPolicy scope at a line, lazy loading: 130 us on the host before the stop's wait (the
    // module load and the launch), 150 us read.
    gpuchrono::SyncedScopeObservation o;
    o.before_stop = Duration::from_us(130);
    o.reading = Duration::from_us(150);
    o.first_at_call_site = true;
    o.loading = gpuchrono::ModuleLoading::lazy;
    const auto cold = gpuchrono::check_cold_first_synced_scope(o);
    BOOST_REQUIRE(cold.has_value());
    BOOST_TEST(cold->code == "cold-first-sample");
    BOOST_TEST((cold->severity == gpuchrono::Severity::warning));
    BOOST_TEST(contains(cold->message, "first scope timed at this line spent 130 us on the host"), cold->message);
    BOOST_TEST(contains(cold->message, "87% of its 150 us reading"), cold->message);
    BOOST_TEST(contains(cold->fix, "CUDA_MODULE_LOADING=EAGER"), cold->fix);
    BOOST_TEST(cold->evidence_or("host_time_ns", 0) == 130e3);
    BOOST_TEST(cold->evidence_or("reading_ns", 0) == 150e3);
    // At the floor and at half the reading it fires; just under either, it does not.
    auto at = o;
    at.before_stop = Duration::from_us(20);
    at.reading = Duration::from_us(40);
    BOOST_TEST(gpuchrono::check_cold_first_synced_scope(at).has_value());
    auto under_floor = at;
    under_floor.before_stop = Duration::from_us(19.9);
    under_floor.reading = Duration::from_us(30);
    BOOST_TEST(!gpuchrono::check_cold_first_synced_scope(under_floor).has_value());
    auto under_half = at;
    under_half.reading = Duration::from_us(40.1);
    BOOST_TEST(!gpuchrono::check_cold_first_synced_scope(under_half).has_value());
    // A later scope at the line, eager or unknown loading: no claim of a load.
    for (const auto& other : not_first_or_not_lazy(o)) BOOST_TEST(!gpuchrono::check_cold_first_synced_scope(other).has_value());
    // A reading that is not a positive finite time says nothing.
    auto no_reading = o;
    no_reading.reading = Duration::from_ns(0);
    BOOST_TEST(!gpuchrono::check_cold_first_synced_scope(no_reading).has_value());
}

BOOST_AUTO_TEST_CASE(host_work_after_an_idle_start_is_reported_with_its_share) {
    // start; 2 ms of host work; a 1 ms kernel; stop.
    auto o = observed(true, false, Duration::from_ms(2), Duration::from_ms(3));
    const auto f = gpuchrono::check_host_time_in_interval(o);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "host-time-in-event-interval");
    BOOST_TEST(contains(f->message, "67% of the 3.00 ms event interval is host time"), f->message);
    BOOST_TEST(!contains(f->message, "lazy module loading"), f->message);
    o.loading = gpuchrono::ModuleLoading::lazy;
    BOOST_TEST(contains(gpuchrono::check_host_time_in_interval(o)->message, "lazy module loading is on"));
}

BOOST_AUTO_TEST_CASE(host_time_is_silent_when_the_gpu_work_dominates_or_it_is_small) {
    // start; launch a 5 ms kernel; 1 ms of host work that overlaps it; stop: correct use.
    BOOST_TEST(!gpuchrono::check_host_time_in_interval(observed(true, false, Duration::from_ms(1), Duration::from_ms(5))));
    // Exactly half is reported, just under half is not.
    BOOST_TEST(gpuchrono::check_host_time_in_interval(observed(true, false, Duration::from_us(50), Duration::from_us(100))).has_value());
    BOOST_TEST(!gpuchrono::check_host_time_in_interval(observed(true, false, Duration::from_us(49.9), Duration::from_us(100))));
    // A launch or two on the host (under 20 us) is not host work.
    BOOST_TEST(!gpuchrono::check_host_time_in_interval(observed(true, false, Duration::from_us(19), Duration::from_us(25))));
    BOOST_TEST(gpuchrono::check_host_time_in_interval(observed(true, false, Duration::from_us(20), Duration::from_us(25))).has_value());
    // Busy at start: the start event waited for earlier work, host time before the launch is not in the interval.
    BOOST_TEST(!gpuchrono::check_host_time_in_interval(observed(false, false, Duration::from_ms(2), Duration::from_ms(3))));
    // Idle at stop is the other finding's case; unknown interval says nothing.
    BOOST_TEST(!gpuchrono::check_host_time_in_interval(observed(true, true, Duration::from_ms(2), Duration::from_ms(3))));
    BOOST_TEST(!gpuchrono::check_host_time_in_interval(observed(true, false, Duration::from_ms(2), std::nullopt)));
}

// --- docs/pitfalls-catalog.md #7, #22: the event-pair floor ---

BOOST_AUTO_TEST_CASE(an_interval_near_the_event_floor_is_reported) {
    const auto f = gpuchrono::check_event_floor(Duration::from_ns(3100), Duration::from_ns(1410));
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "interval-below-event-floor");
    BOOST_TEST(contains(f->message, "3.10 us is less than 10x the 1.41 us"), f->message);
    BOOST_TEST(contains(f->message, "up to 45% of it"), f->message);
    BOOST_TEST(!gpuchrono::check_event_floor(Duration::from_ns(14100), Duration::from_ns(1410)));  // exactly 10x
    BOOST_TEST(gpuchrono::check_event_floor(Duration::from_ns(14099), Duration::from_ns(1410)).has_value());
    BOOST_TEST(!gpuchrono::check_event_floor(Duration::from_ns(3100), Duration::from_ns(0)));  // floor unknown
    BOOST_TEST(!gpuchrono::check_event_floor(Duration::from_ns(3100), Duration::from_ns(std::nan(""))));
}

// --- docs/pitfalls-catalog.md #10, #12, #13, #14, #28: streams and devices ---

BOOST_AUTO_TEST_CASE(a_device_change_inside_the_scope_is_reported) {
    BOOST_TEST(!gpuchrono::check_device_changed(0, 0, 0, "event"));
    const auto f = gpuchrono::check_device_changed(0, 1, 0, "event");
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "timer-device-changed");
    BOOST_TEST(contains(f->message, "changed from 0 to 1 between the event timer's start and stop"), f->message);
    BOOST_TEST(contains(f->message, "work launched on device 1"), f->message);
    // Timing device 1 from a thread that moved back to 0: the missed work is on 0.
    BOOST_TEST(contains(gpuchrono::check_device_changed(1, 0, 1, "host-sync")->message, "work launched on device 0"));
}

BOOST_AUTO_TEST_CASE(the_legacy_default_stream_is_named) {
    BOOST_TEST(gpuchrono::is_legacy_default_stream(nullptr));
    BOOST_TEST(gpuchrono::is_legacy_default_stream(cudaStreamLegacy));
    BOOST_TEST(!gpuchrono::is_legacy_default_stream(cudaStreamPerThread));
    const auto f = gpuchrono::check_legacy_stream(true, "event");
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "legacy-default-stream");
    BOOST_TEST((f->severity == gpuchrono::Severity::info));
    BOOST_TEST(!gpuchrono::check_legacy_stream(false, "event"));
}

BOOST_AUTO_TEST_CASE(blocking_sync_scheduling_is_named) {
    BOOST_TEST(gpuchrono::check_blocking_sync(cudaDeviceScheduleBlockingSync, 0).has_value());
    BOOST_TEST(gpuchrono::check_blocking_sync(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost, 0).has_value());
    BOOST_TEST(!gpuchrono::check_blocking_sync(cudaDeviceScheduleSpin | cudaDeviceMapHost, 0));
    BOOST_TEST(!gpuchrono::check_blocking_sync(cudaDeviceScheduleAuto, 0));
    BOOST_TEST(!gpuchrono::check_blocking_sync(cudaDeviceScheduleYield, 0));
}

BOOST_AUTO_TEST_CASE(a_capture_is_explained_as_info) {
    const Finding f = gpuchrono::capture_finding(2);
    BOOST_TEST(f.code == "timer-in-stream-capture");
    BOOST_TEST((f.severity == gpuchrono::Severity::info));
    BOOST_TEST(contains(f.message, "device 2"), f.message);
}

// --- docs/pitfalls-catalog.md #3, #4: cold starts ---

BOOST_AUTO_TEST_CASE(a_context_created_in_the_scope_is_reported) {
    const auto f = gpuchrono::check_context_created(0, 1, Duration::from_ms(250));
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "context-created-in-timer");
    BOOST_TEST(contains(f->message, "250 ms measured include creating it"), f->message);
    BOOST_TEST(!gpuchrono::check_context_created(1, 1, Duration::from_ms(1)));
    BOOST_TEST(!gpuchrono::check_context_created(0, 0, Duration::from_ms(1)));
    BOOST_TEST(!gpuchrono::check_context_created(-1, 1, Duration::from_ms(1)));  // unknown at start
    BOOST_TEST(!gpuchrono::check_context_created(0, -1, Duration::from_ms(1)));
}

BOOST_AUTO_TEST_CASE(a_first_sample_above_one_and_a_half_medians_is_cold) {
    const std::vector<Duration> cold = {Duration::from_us(430), Duration::from_us(11), Duration::from_us(12),
                                        Duration::from_us(10)};
    const auto f = gpuchrono::check_cold_first_sample(cold);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "cold-first-sample");
    BOOST_TEST(contains(f->message, "the first sample 430 us is 39.1x the median 11.0 us of the 3 after it"), f->message);
    BOOST_TEST(contains(gpuchrono::check_cold_first_sample(cold, gpuchrono::ModuleLoading::lazy)->message,
                        "lazy module loading is on"));
    // The median of an even count is the mean of the middle two: 10, 11, 11, 12 -> 11; 1.5 x 11 = 16.5.
    const std::vector<Duration> at_ratio = {Duration::from_us(16.5), Duration::from_us(10), Duration::from_us(12),
                                            Duration::from_us(11), Duration::from_us(11)};
    BOOST_TEST(!gpuchrono::check_cold_first_sample(at_ratio));
    const std::vector<Duration> above = {Duration::from_us(16.6), Duration::from_us(10), Duration::from_us(12)};
    BOOST_TEST(gpuchrono::check_cold_first_sample(above).has_value());
    const std::vector<Duration> too_short = {Duration::from_us(430), Duration::from_us(11)};
    BOOST_TEST(!gpuchrono::check_cold_first_sample(too_short));
    const std::vector<Duration> warm = {Duration::from_us(11), Duration::from_us(430), Duration::from_us(10)};
    BOOST_TEST(!gpuchrono::check_cold_first_sample(warm));
    // A ratio of 1e40 has 41 digits: printed whole, never cut by a fixed buffer (it once went through char[32]).
    const std::vector<Duration> absurd = {Duration::from_ns(1e40), Duration::from_ns(1), Duration::from_ns(1)};
    const auto huge = gpuchrono::check_cold_first_sample(absurd);
    BOOST_REQUIRE(huge.has_value());
    BOOST_TEST(contains(huge->message, "x the median 1 ns of the 2 after it"), huge->message);
    BOOST_TEST(contains(huge->message, "10000000000000000303786028427003666890752.0x"), huge->message);
}

// --- docs/pitfalls-catalog.md #5, #6, #27: GPU state from NVML ---

BOOST_AUTO_TEST_CASE(an_idle_clock_is_reported_only_when_the_clock_is_also_low) {
    const Findings idle = gpuchrono::check_gpu_state(state(345, gpuchrono::clock_event::gpu_idle));
    BOOST_REQUIRE(idle.size() == 1u);
    BOOST_TEST(idle[0].code == "gpu-idle-clock");
    BOOST_TEST(contains(idle[0].message, "SM clock 345 MHz of 1980 MHz max"), idle[0].message);
    BOOST_TEST(idle[0].evidence_or("sm_clock_mhz", 0) == 345.0);
    // Nothing running right now, but the clock is still up: the next sample runs at full speed.
    BOOST_TEST(gpuchrono::check_gpu_state(state(1980, gpuchrono::clock_event::gpu_idle)).empty());
    BOOST_TEST(gpuchrono::check_gpu_state(state(1485, gpuchrono::clock_event::gpu_idle)).empty());  // exactly 75%
}

BOOST_AUTO_TEST_CASE(capping_reasons_are_reported_whatever_the_clock) {
    const Findings capped = gpuchrono::check_gpu_state(
        state(1560, gpuchrono::clock_event::sw_power_cap | gpuchrono::clock_event::gpu_idle));
    BOOST_REQUIRE(capped.size() == 1u);
    BOOST_TEST(capped[0].code == "gpu-clock-throttled");
    BOOST_TEST(contains(capped[0].message, "reported SwPowerCap at SM clock 1560 MHz"), capped[0].message);
    for (unsigned long long bit : {gpuchrono::clock_event::hw_slowdown, gpuchrono::clock_event::sw_thermal_slowdown,
                                   gpuchrono::clock_event::hw_thermal_slowdown,
                                   gpuchrono::clock_event::hw_power_brake_slowdown})
        BOOST_TEST(has_code(gpuchrono::check_gpu_state(state(1980, bit)), "gpu-clock-throttled"));
}

BOOST_AUTO_TEST_CASE(a_low_clock_without_a_reason_is_reported) {
    BOOST_TEST(has_code(gpuchrono::check_gpu_state(state(1000, 0)), "gpu-clock-low"));
    BOOST_TEST(has_code(gpuchrono::check_gpu_state(state(1000, gpuchrono::clock_event::applications_clocks_setting)),
                        "gpu-clock-low"));
    gpuchrono::GpuState unknown_reasons = state(1000, 0);
    unknown_reasons.clock_event_reasons.reset();
    BOOST_TEST(has_code(gpuchrono::check_gpu_state(unknown_reasons), "gpu-clock-low"));
    gpuchrono::GpuState unknown_clock = state(0, 0);
    unknown_clock.sm_clock_mhz.reset();
    BOOST_TEST(gpuchrono::check_gpu_state(unknown_clock).empty());
}

// Switched off, the sampler reads nothing, however due a read is. (On, what it returns depends on the machine's
// NVML and on what earlier tests read: the GPU suite gpu_state_off checks the timers' side.)
BOOST_AUTO_TEST_CASE(the_gpu_state_switch_stops_every_read) {
    gpuchrono::set_gpu_state_enabled(false);
    gpuchrono::reset_gpu_state_sampling();
    BOOST_TEST(!gpuchrono::gpu_state_enabled());
    BOOST_TEST(!gpuchrono::sample_gpu_state(0).has_value());
    gpuchrono::set_gpu_state_enabled(true);
    BOOST_TEST(gpuchrono::gpu_state_enabled());
}

BOOST_AUTO_TEST_CASE(other_processes_and_a_missing_nvml_are_reported) {
    const Findings shared = gpuchrono::check_gpu_state(state(1980, 0, 2));
    BOOST_REQUIRE(shared.size() == 1u);
    BOOST_TEST(shared[0].code == "gpu-shared");
    BOOST_TEST(contains(shared[0].message, "2 other process(es)"), shared[0].message);
    gpuchrono::GpuState none;
    none.nvml_loaded = false;
    none.nvml_error = "dlopen(\"libnvidia-ml.so.1\") failed";
    const Findings off = gpuchrono::check_gpu_state(none);
    BOOST_REQUIRE(off.size() == 1u);
    BOOST_TEST(off[0].code == "nvml-unavailable");
    BOOST_TEST((off[0].severity == gpuchrono::Severity::info));
    BOOST_TEST(contains(off[0].message, "libnvidia-ml.so.1"), off[0].message);
}

BOOST_AUTO_TEST_CASE(other_processes_on_the_device_name_their_pids) {
    gpuchrono::OtherProcesses o;
    o.device = 1;
    o.read_ms_ago = 120;
    BOOST_TEST(!gpuchrono::other_processes_finding(o).has_value());  // nobody else listed
    o.pids = {4242, 777};
    auto f = gpuchrono::other_processes_finding(o);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "other-processes-on-device");
    // Info: NVML's list says a context exists, not that its work ran during this reading.
    BOOST_TEST((f->severity == gpuchrono::Severity::info));
    BOOST_TEST(contains(f->message, "2 other process(es)"), f->message);
    BOOST_TEST(contains(f->message, "device 1"), f->message);
    BOOST_TEST(contains(f->message, "PIDs 4242, 777"), f->message);
    BOOST_TEST(contains(f->message, "120 ms"), f->message);
    std::size_t pids = 0;
    for (const auto& e : f->evidence) pids += e.name == "pid";
    BOOST_TEST(pids == 2u);
    // In a PID namespace NVML lists host PIDs, this process's among them: one fewer is another's.
    o.own_pid_listed = false;
    f = gpuchrono::other_processes_finding(o);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(contains(f->message, "1 other process(es)"), f->message);
    BOOST_TEST(contains(f->message, "one of them is this process"), f->message);
    o.pids = {4242};  // only this process, under its host PID
    BOOST_TEST(!gpuchrono::other_processes_finding(o).has_value());
}

BOOST_AUTO_TEST_CASE(no_other_processes_are_remembered_without_a_read) {
    // No NVML read of device 63 was made by this process: nothing to attach.
    BOOST_TEST(!gpuchrono::recent_other_processes(63).has_value());
    BOOST_TEST(!gpuchrono::recent_other_processes(-1).has_value());
}

BOOST_AUTO_TEST_CASE(clock_event_reasons_are_named) {
    BOOST_TEST(gpuchrono::describe_clock_event_reasons(0) == "none");
    BOOST_TEST(gpuchrono::describe_clock_event_reasons(0x5) == "GpuIdle|SwPowerCap");
    BOOST_TEST(gpuchrono::describe_clock_event_reasons(0x1000 | 0x40) == "HwThermalSlowdown|0x1000");
}

// --- docs/pitfalls-catalog.md #15, #16, #24, #25: device-clock samples ---

BOOST_AUTO_TEST_CASE(a_clock_running_backwards_is_an_error) {
    std::vector<BlockSample> samples = {sample(0, 100, 200), sample(1, 100, 250)};
    BOOST_TEST(!gpuchrono::check_clock_monotonic(samples));
    samples[1].stop_ns = 50;
    const auto f = gpuchrono::check_clock_monotonic(samples);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "clock-went-backwards");
    BOOST_TEST((f->severity == gpuchrono::Severity::error));
    BOOST_TEST(contains(f->message, "1 of 2"), f->message);
    // Cycles backwards on one SM is wrong; across two SMs it is only unaligned counters (not this check's).
    std::vector<BlockSample> cycles = {sample(0, 100, 200)};
    cycles[0].stop_cycles = cycles[0].start_cycles - 1;
    BOOST_TEST(gpuchrono::check_clock_monotonic(cycles).has_value());
    cycles[0].sm_stop = 5;
    BOOST_TEST(!gpuchrono::check_clock_monotonic(cycles));
}

BOOST_AUTO_TEST_CASE(cycles_across_two_sms_are_refused) {
    const BlockSample a = sample(0, 0, 10, 3), b = sample(7, 0, 20, 40), c = sample(8, 0, 30, 3);
    const auto f = gpuchrono::check_cycle_span(a, b);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "cycles-across-sms");
    BOOST_TEST(contains(f->message, "(SM 3) to block 7 region 0's stop (SM 40)"), f->message);
    BOOST_TEST(!gpuchrono::check_cycle_span(a, c));
}

BOOST_AUTO_TEST_CASE(a_partial_last_wave_is_reported_when_it_idles_much_of_the_gpu) {
    const auto f = gpuchrono::check_waves(133, 132, 1);  // docs/pitfalls-catalog.md #24
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "partial-last-wave");
    BOOST_TEST(contains(f->message, "1.01 waves, the last holds 1 blocks and 49.6% of the launch's block slots stay idle"),
               f->message);
    BOOST_TEST(!gpuchrono::check_waves(132, 132, 1));   // one full wave
    BOOST_TEST(!gpuchrono::check_waves(1000, 132, 1));  // 7.58 waves: 5.3% idle
    BOOST_TEST(gpuchrono::check_waves(198, 132, 1).has_value());  // 1.5 waves: 25% idle
    BOOST_TEST(!gpuchrono::check_waves(64, 132, 8));  // under one wave: every block runs at once, no tail
    BOOST_TEST(!gpuchrono::check_waves(131, 132, 1));
    BOOST_TEST(gpuchrono::check_waves(132 * 8 + 1, 132, 8).has_value());  // one full wave and one block
    BOOST_TEST(!gpuchrono::check_waves(133, 0, 1));  // SM count unknown
    BOOST_TEST(!gpuchrono::check_waves(133, 132, 0));  // occupancy unknown
}

BOOST_AUTO_TEST_CASE(blocks_that_could_run_together_but_started_apart_are_reported) {
    const std::vector<BlockSample> apart = {sample(0, 0, 1000), sample(1, 10, 1010), sample(2, 20, 1020),
                                            sample(3, 900, 1900)};
    const auto f = gpuchrono::check_block_start_spread(apart, 132);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "block-start-spread");
    BOOST_TEST(contains(f->message, "started over 900 ns, against a median region length of 1.00 us"), f->message);
    const std::vector<BlockSample> together = {sample(0, 0, 1000), sample(1, 10, 1010), sample(2, 400, 1400)};
    BOOST_TEST(!gpuchrono::check_block_start_spread(together, 132));  // 400 ns of 1 us: under half
    BOOST_TEST(!gpuchrono::check_block_start_spread(apart, 2));  // more blocks than slots: waves
    BOOST_TEST(!gpuchrono::check_block_start_spread(apart, 0));  // slots unknown
}

BOOST_AUTO_TEST_CASE(block_samples_get_every_check_that_applies) {
    gpuchrono::BlockSamples s;
    s.sm_count = 132;
    s.resident_blocks_per_sm = 1;
    s.grid_blocks = 133;
    for (std::uint32_t b = 0; b < 133; ++b) s.samples.push_back(sample(b, b < 132 ? 0 : 10'000, b < 132 ? 10'000 : 20'000));
    const Findings found = gpuchrono::check_block_samples(s);
    BOOST_TEST(has_code(found, "partial-last-wave"));
    BOOST_TEST(!has_code(found, "block-start-spread"));  // 133 blocks do not fit at once: the spread is the wave
    s.grid_blocks = 4;
    s.samples = {sample(0, 0, 1000), sample(1, 0, 1000), sample(2, 0, 1000), sample(3, 2000, 3000)};
    s.resident_blocks_per_sm = 0;  // unknown: one block per SM is still certain
    const Findings small = gpuchrono::check_block_samples(s);
    BOOST_TEST(has_code(small, "block-start-spread"));
    BOOST_TEST(!has_code(small, "partial-last-wave"));
}

// What DeviceClockPolicy::stop() hands to the reaction: the decoder's findings first, then the timer-resolution
// ones, then the launch-shape checks.
BOOST_AUTO_TEST_CASE(a_device_clock_measurement_reports_decoding_resolution_and_shape_findings) {
    gpuchrono::BlockSamples s;
    s.sm_count = 132;
    s.resident_blocks_per_sm = 1;
    s.grid_blocks = 133;
    s.timer_step = Duration::from_ns(32);
    for (std::uint32_t b = 0; b < 133; ++b) s.samples.push_back(sample(b, b < 132 ? 0 : 10'000, b < 132 ? 10'000 : 20'000));
    s.first_start_ns = 0;
    s.last_stop_ns = 20'000;
    const Finding dropped = gpuchrono::make_finding(gpuchrono::codes::device_clock_records_dropped, "3 record(s) dropped");
    const Findings found = gpuchrono::device_clock::measurement_findings({dropped}, s);
    BOOST_REQUIRE(found.size() == 2u);  // 10 us regions are 312 steps: nothing about resolution
    BOOST_TEST(found[0].code == "device-clock-records-dropped");
    BOOST_TEST(found[1].code == "partial-last-wave");
    BOOST_TEST((found[1].severity == gpuchrono::find_finding_kind("partial-last-wave")->severity));

    // 500 ns regions: under 30 steps of 32 ns. One wave of 132: no tail.
    s.grid_blocks = 132;
    s.samples.clear();
    for (std::uint32_t b = 0; b < 132; ++b) s.samples.push_back(sample(b, 0, 500));
    s.last_stop_ns = 500;
    const Findings short_regions = gpuchrono::device_clock::measurement_findings({}, s);
    BOOST_TEST(has_code(short_regions, "device-clock-regions-below-timer-resolution"));
    BOOST_TEST(has_code(short_regions, "device-clock-kernel-below-timer-resolution"));
    BOOST_TEST(!has_code(short_regions, "partial-last-wave"));
    for (const Finding& f : short_regions) {
        const gpuchrono::FindingKind* kind = gpuchrono::find_finding_kind(f.code);
        BOOST_REQUIRE(kind != nullptr);
        BOOST_TEST((f.severity == kind->severity), f.code);  // severities come from the catalog
        BOOST_TEST(!f.evidence.empty(), f.code);
    }
}

// --- docs/pitfalls-catalog.md #26: noise and sample counts ---

BOOST_AUTO_TEST_CASE(samples_needed_follow_nvbench_and_the_percentile) {
    BOOST_TEST(gpuchrono::samples_needed(50) == 10u);
    BOOST_TEST(gpuchrono::samples_needed(0) == 10u);
    BOOST_TEST(gpuchrono::samples_needed(100) == 10u);
    BOOST_TEST(gpuchrono::samples_needed(95) == 20u);
    BOOST_TEST(gpuchrono::samples_needed(5) == 20u);
    BOOST_TEST(gpuchrono::samples_needed(99) == 100u);
    BOOST_TEST(gpuchrono::samples_needed(99.9) == 1000u);
    BOOST_TEST(gpuchrono::samples_needed(50, gpuchrono::NoiseLimits{.min_samples = 30}) == 30u);
    BOOST_CHECK_THROW((void)gpuchrono::samples_needed(101), std::invalid_argument);
    BOOST_CHECK_THROW((void)gpuchrono::samples_needed(std::nan("")), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(too_few_samples_names_the_statistic_and_the_count) {
    const auto f = gpuchrono::check_sample_count(9, 50);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "too-few-samples");
    BOOST_TEST(f->message == "9 sample(s) are too few for the median and the spread around it: it needs at least 10");
    BOOST_TEST(f->fix == "take at least 10 samples");
    BOOST_TEST(!gpuchrono::check_sample_count(10, 50));
    BOOST_TEST(contains(gpuchrono::check_sample_count(99, 99)->message, "for p99"));
    BOOST_TEST(!gpuchrono::check_sample_count(100, 99));
}

BOOST_AUTO_TEST_CASE(variation_above_a_stable_measurement_is_reported) {
    // docs/pitfalls-catalog.md #26: a clean H100 kernel, 112.8..122.1 us with cv 0.77%: silent.
    std::vector<Duration> clean(50, Duration::from_us(114.5));
    clean[0] = Duration::from_us(112.8);
    clean[1] = Duration::from_us(122.1);
    BOOST_TEST(!gpuchrono::check_variation(gpuchrono::summarize(clean)));
    // The README's 77 us vector add: 200 samples with one far outlier (max/min far above 1.1, cv 1.46% and
    // more): the median is not in doubt, so nothing is said, however many samples come.
    for (std::size_t n : {20u, 200u, 2000u}) {
        std::vector<Duration> one_outlier(n, Duration::from_us(77));
        for (std::size_t i = 0; i < n; ++i) one_outlier[i] += Duration::from_ns(static_cast<double>(i % 7) * 100);
        one_outlier[n / 2] = Duration::from_us(770);
        BOOST_TEST(!gpuchrono::check_variation(gpuchrono::summarize(one_outlier)), n << " samples");
    }
    // Half the samples 20% slower: the median itself is in doubt.
    std::vector<Duration> two_modes(20, Duration::from_us(100));
    for (std::size_t i = 0; i < two_modes.size(); i += 2) two_modes[i] = Duration::from_us(120);
    const auto spread = gpuchrono::check_variation(gpuchrono::summarize(two_modes));
    BOOST_REQUIRE(spread.has_value());
    BOOST_TEST(spread->code == "high-variation");
    BOOST_TEST(contains(spread->message, "the 20 samples spread by 9.09% of their median"), spread->message);
    BOOST_TEST(contains(spread->message, "threshold 3%"), spread->message);
    BOOST_TEST(spread->evidence_or("mad_over_median", 0) == 10.0 / 110.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(spread->evidence_or("max_over_min", 0) == 1.2, boost::test_tools::tolerance(1e-12));
    // Just under and just over the threshold: a MAD of 2.9% and 3.1% of the median.
    const auto at = [](double mad_share) {
        std::vector<Duration> v;
        for (int i = 0; i < 10; ++i) v.push_back(Duration::from_us(100 * (1 + (i % 2 ? mad_share : -mad_share))));
        v.push_back(Duration::from_us(100));
        return gpuchrono::check_variation(gpuchrono::summarize(v));
    };
    BOOST_TEST(!at(0.029));
    BOOST_TEST(at(0.031).has_value());
    // Thresholds are the caller's to set.
    BOOST_TEST(!gpuchrono::check_variation(gpuchrono::summarize(two_modes), gpuchrono::NoiseLimits{.max_mad_over_median = 0.1}));
    // One sample has no spread; a median at or below 0 has no relative spread.
    BOOST_TEST(!gpuchrono::check_variation(gpuchrono::summarize(std::vector<Duration>{Duration::from_us(1)})));
    const std::vector<Duration> around_zero = {Duration::from_ns(0), Duration::from_ns(0), Duration::from_ns(5)};
    BOOST_TEST(!gpuchrono::check_variation(gpuchrono::summarize(around_zero)));
}

// --- docs/pitfalls-catalog.md #2: pageable copies ---

BOOST_AUTO_TEST_CASE(pageable_host_memory_is_reported) {
    const auto f = gpuchrono::check_host_memory_type(cudaMemoryTypeUnregistered, 1 << 20);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->code == "pageable-host-memory");
    BOOST_TEST(contains(f->message, "1048576 bytes is pageable"), f->message);
    BOOST_TEST(!gpuchrono::check_host_memory_type(cudaMemoryTypeHost, 1 << 20));
    BOOST_TEST(!gpuchrono::check_host_memory_type(cudaMemoryTypeManaged, 1 << 20));
}

BOOST_AUTO_TEST_SUITE_END()
