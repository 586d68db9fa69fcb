// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_event_interval.hpp>
#include <gpuchrono/checks/check_gpu_state.hpp>
#include <gpuchrono/checks/check_resolution.hpp>
#include <gpuchrono/checks/check_stream_state.hpp>
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/driver_probe.hpp>
#include <gpuchrono/gpu/event_floor.hpp>
#include <gpuchrono/policies/event/event_policy.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/gpu/stream.hpp>

#include "core/first_scope_at.hpp"
#include "gpu/launch_warmup.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace gpuchrono {

namespace {

std::string on_device(const char* what, int device) { return std::string(what) + " on device " + std::to_string(device); }

Duration elapsed(const EventLease& start, const EventLease& stop) {
    RelaxedCaptureMode relaxed;  // another stream of this thread may be capturing: the wait concerns only ours
    GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(stop.get()), on_device("waiting for the EventPolicy stop event", stop.device()));
    float ms = 0.0f;
    GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()),
                         on_device("reading the EventPolicy interval", stop.device()));
    return Duration::from_ms(static_cast<double>(ms));
}

// The checks that need the interval itself. The loading mode is asked only when host time is large enough to
// be reported, so a clean interval costs no driver call.
Findings interval_findings(EventIntervalObservation o, std::optional<Duration> floor) {
    Findings found;
    if (floor)
        if (auto f = check_event_floor(*o.interval, *floor)) found.push_back(std::move(*f));
    if (o.idle_at_start && !o.idle_at_stop && o.host_time >= host_time_floor) {
        o.loading = module_loading_mode();
        if (auto f = check_host_time_in_interval(o)) found.push_back(std::move(*f));
    }
    return found;
}

// Whether no scope at this call site started on an idle stream before (EventIntervalObservation::first_at_call_site).
// Asked after every idle start, after the stop record.
bool first_idle_scope_at(const CallSite& site) { return detail::first_scope_at(site); }

// Keeps the two events out of the pool until the interval has been read; caches the value so that copies of
// one pending Measurement read the events once. The checks that need the interval run on that first read; the
// Measurement takes their findings (take_findings) and reacts to them.
class PendingEventInterval final : public detail::PendingInterval {
public:
    PendingEventInterval(EventLease start, EventLease stop, EventIntervalObservation observed,
                         std::optional<Duration> floor, CallSite site)
        : start_(std::move(start)), stop_(std::move(stop)), observed_(observed), floor_(floor), site_(std::move(site)) {}
    ~PendingEventInterval() override { EventLease::return_together(start_, stop_); }

    Duration resolve() override {
        std::lock_guard lock(mutex_);  // copies of the Measurement may resolve from different threads
        if (!value_) {
            if (start_.context_destroyed())  // cudaDeviceReset since the records: the events died with the context
                throw CudaError(cudaErrorContextIsDestroyed, "cuCtxGetId(current context)",
                                on_device("reading a pending EventPolicy interval", stop_.device()) +
                                    ": the device was reset (cudaDeviceReset) after its events were recorded, and they "
                                    "were destroyed with the context");
            const Duration value = elapsed(start_, stop_);
            observed_.interval = value;
            Findings found = interval_findings(observed_, floor_);
            detail::stamp_findings(found, site_);
            found_ = std::move(found);
            value_ = value;
            EventLease::return_together(start_, stop_);
        }
        return *value_;
    }

    Findings take_findings() override {
        std::lock_guard lock(mutex_);
        return found_;
    }

private:
    std::mutex mutex_;
    EventLease start_;
    EventLease stop_;
    EventIntervalObservation observed_;
    std::optional<Duration> floor_;
    CallSite site_;
    std::optional<Duration> value_;
    Findings found_;
};

// Events that a captured graph holds as external record nodes: every launch of the graph records them again,
// so they may never be handed to another timer. Kept for the life of the process.
void retire_forever(EventLease lease) {
    static std::mutex mutex;
    static auto* retired = new std::vector<EventLease>();
    std::lock_guard lock(mutex);
    retired->push_back(std::move(lease));
}

// The interval between two external record nodes of a captured graph, read after the graph ran.
class CapturedEventInterval final : public detail::PendingInterval {
public:
    CapturedEventInterval(EventLease start, EventLease stop) : start_(std::move(start)), stop_(std::move(stop)) {}
    ~CapturedEventInterval() override {
        try {
            retire_forever(std::move(start_));
            retire_forever(std::move(stop_));
        } catch (...) {
            // Out of memory: the leases go back to the pool after all; a later launch of the graph could then
            // overwrite another timer's events, which is why this path is only taken when nothing else can be.
        }
    }

    Duration resolve() override {
        std::lock_guard lock(mutex_);  // copies of the Measurement may resolve from different threads
        if (value_) return *value_;
        RelaxedCaptureMode relaxed;  // the graph may be captured again meanwhile; the wait concerns only our events
        // Before the graph has run, the events have no recorded interval: elapsed time says
        // cudaErrorInvalidResourceHandle, and a driver that marks an event recorded into a capture refuses to
        // wait for it with cudaErrorCapturedEvent. Either way the user read too early.
        cudaError_t e = cudaEventSynchronize(stop_.get());
        if (e == cudaErrorCapturedEvent) not_run_yet();
        check(e, "cudaEventSynchronize(stop)", on_device("waiting for the captured EventPolicy stop node", stop_.device()));
        float ms = 0.0f;
        e = cudaEventElapsedTime(&ms, start_.get(), stop_.get());
        if (e == cudaErrorInvalidResourceHandle || e == cudaErrorCapturedEvent) not_run_yet();
        check(e, "cudaEventElapsedTime(&ms, start, stop)", on_device("reading a captured EventPolicy interval", stop_.device()));
        value_ = Duration::from_ms(static_cast<double>(ms));
        return *value_;
    }

private:
    [[noreturn]] static void not_run_yet() {
        (void)cudaGetLastError();
        throw TimerError(
            "gpuchrono: the graph captured with this EventPolicy timer has not run yet, so its events hold no "
            "interval: launch the graph (and let it finish) before reading the duration");
    }

    std::mutex mutex_;
    EventLease start_;
    EventLease stop_;
    std::optional<Duration> value_;
};

// Events for a capture are new, never recorded: reading the interval before the graph has run then fails
// (cudaErrorInvalidResourceHandle) instead of returning what a pooled event held from an earlier timer.
EventLease fresh_event(int device) {
    RelaxedCaptureMode relaxed;
    DeviceGuard on(device);
    cudaEvent_t e = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDefault),
                         on_device("creating an event for a timer inside a stream capture", device));
    return EventLease(device, e);
}

// The minimal mode asks the stream's device at construction, without the capture check first (it never works
// inside a capture). With the checks on, start() asks it right after its own capture check: cudaStreamGetDevice
// must never reach a capturing stream (device.hpp, stream_device), and one capture check serves both.
int device_at_construction(cudaStream_t stream, bool checks) {
    if (checks) return -1;
    int device = -1;
    GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream, &device), "finding the device of the timed stream");
    return device;
}

// The minimal mode's pending interval: the two events, read once, nothing checked.
class PlainPendingInterval final : public detail::PendingInterval {
public:
    PlainPendingInterval(EventLease start, EventLease stop) : start_(std::move(start)), stop_(std::move(stop)) {}
    ~PlainPendingInterval() override { EventLease::return_together(start_, stop_); }

    Duration resolve() override {
        std::lock_guard lock(mutex_);  // copies of the Measurement may resolve from different threads
        if (!value_) {
            value_ = elapsed_plain(start_, stop_);
            EventLease::return_together(start_, stop_);
        }
        return *value_;
    }

    // Without the relaxed capture mode of elapsed(): the minimal mode makes no promise about captures.
    static Duration elapsed_plain(const EventLease& start, const EventLease& stop) {
        GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(stop.get()), on_device("waiting for the EventPolicy stop event", stop.device()));
        float ms = 0.0f;
        GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()),
                             on_device("reading the EventPolicy interval", stop.device()));
        return Duration::from_ms(static_cast<double>(ms));
    }

private:
    std::mutex mutex_;
    EventLease start_;
    EventLease stop_;
    std::optional<Duration> value_;
};

}  // namespace

EventPolicy::EventPolicy(cudaStream_t stream, Options options)
    : stream_(stream), device_(device_at_construction(stream, options.checks)), options_(options) {}

void EventPolicy::start() {
    if (!options_.checks) {
        std::tie(start_, stop_) = EventPool::instance().acquire_pair(device_);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(start_.get(), stream_), on_device("recording the EventPolicy start event", device_));
        return;
    }
    {
        // Everything before the start record, so none of it is in the interval. Relaxed capture mode: this
        // thread (or, in global mode, any thread) may be capturing another stream, and these questions concern
        // only the timed stream and the library's own events.
        RelaxedCaptureMode relaxed;
        capturing_ = stream_is_capturing(stream_);
        if (capturing_) {
            // A capture records into its stream's context, the current device's in every ordinary program
            // (stream_device in device.hpp says what happens otherwise).
            device_ = device_at_start_ = current_device();
            gpu_state_.reset();  // a captured interval runs later, at a clock state nobody can read now
            start_ = fresh_event(device_);
            stop_ = fresh_event(device_);
        } else {
            GPUCHRONO_CUDA_CHECK(cudaStreamGetDevice(stream_, &device_), "finding the device of the timed stream");
            idle_at_start_ = stream_is_idle(stream_);
            // The device's first timer leaves its first-use work (the NVML read, the floor, the launches that
            // settle the launch path) until after its interval: made here, it slowed the user's next launch by
            // 4-7 us however many launches of the library's came between, and the first scope read +30%
            // (bench_first_scope [1]). What the start cannot skip is its two events, made and recorded once
            // (event_pool.cpp).
            first_use_ = !detail::launches_settled(device_);
            gpu_state_ = first_use_ ? std::nullopt : sample_gpu_state(device_);
            bool driver_work = gpu_state_.has_value();  // NVML was read (or found missing) just now
            // Measured only on an idle stream, so the floor is not read behind the user's queued work.
            if (!first_use_ && idle_at_start_ && !known_event_pair_floor(device_)) {
                (void)event_pair_floor(device_);
                driver_work = true;
            }
            std::tie(start_, stop_) = EventPool::instance().acquire_pair(device_);
            // The launch after such work is slow: this one pays most of it ahead of the interval (launch_warmup.hpp).
            if (driver_work) detail::launch_warmup_kernel(stream_, device_);
            device_at_start_ = current_device();
        }
    }
    // The host clock serves only the checks of an idle start (timed-stream-idle, host time in the interval): behind
    // queued work, the common case, the start reads no clock (46 ns on the H100 VM, bench_event_policy_cost [1]).
    if (idle_at_start_) host_start_ = std::chrono::steady_clock::now();
    if (capturing_) {
        GPUCHRONO_CUDA_CHECK(cudaEventRecordWithFlags(start_.get(), stream_, cudaEventRecordExternal),
                             on_device("recording the EventPolicy start event into a stream capture", device_));
    } else {
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(start_.get(), stream_), on_device("recording the EventPolicy start event", device_));
    }
}

// Not inlined: its return address is its caller's, which findings name when no source location is given.
[[gnu::noinline]] Measurement EventPolicy::stop() { return stop_at(CallSite::returning_to(__builtin_return_address(0))); }

Measurement EventPolicy::stop(std::source_location where) { return stop_at(CallSite::located(where)); }

Measurement EventPolicy::stop_at(const CallSite& site) {
    if (!start_ || !stop_) throw TimerError("gpuchrono: EventPolicy::stop() without start()");
    if (!options_.checks) return stop_unchecked(site);

    // Up to the stop record, only what the record needs or what must be seen before it (see the header).
    EventIntervalObservation observed;
    observed.idle_at_start = idle_at_start_;
    const bool capturing = stream_is_capturing(stream_);  // allowed in every capture mode
    if (capturing != capturing_)
        throw TimerError(std::string("gpuchrono: the timed stream ") + (capturing ? "began" : "ended") +
                         " a graph capture between the EventPolicy start and stop: the interval would mix capture "
                         "time and run time; keep a timer entirely inside or entirely outside a capture");
    const int device_at_stop = capturing ? -1 : current_device();
    // Whether the stream is idle at stop matters only after an idle start (timed-stream-idle, host time in the
    // interval): behind the user's queued work, the common case, the stop asks nothing more. The query is the
    // dearest check (0.4 us on the H100) and, on an idle stream, host time inside the interval.
    if (!capturing && idle_at_start_) {
        RelaxedCaptureMode relaxed;  // another stream of this thread (or any, in global mode) may be capturing
        observed.idle_at_stop = stream_is_idle(stream_);
        // After the idle start, the start event itself may be all that is pending: a GPU slowed by a sanitizer
        // reaches it late. Only then (an event, not the user's work) is it waited for and the stream asked
        // again, so that "work went to another stream" is still told from "work is pending". A healthy GPU
        // completes that event within microseconds, so the event is queried only once host_time_floor (20 us)
        // has passed since the start: the common stop, a few microseconds after the start with the work still
        // running, pays one clock read, not a CUDA call.
        if (!observed.idle_at_stop && Duration(std::chrono::steady_clock::now() - host_start_) >= host_time_floor &&
            !event_is_complete(start_.get())) {
            GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(start_.get()),
                                 on_device("waiting for the EventPolicy start event", device_));
            observed.idle_at_stop = stream_is_idle(stream_);
        }
    }
    if (capturing) {
        GPUCHRONO_CUDA_CHECK(cudaEventRecordWithFlags(stop_.get(), stream_, cudaEventRecordExternal),
                             on_device("recording the EventPolicy stop event into a stream capture", device_));
    } else {
        if (idle_at_start_) observed.host_time = Duration(std::chrono::steady_clock::now() - host_start_);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_), on_device("recording the EventPolicy stop event", device_));
    }

    // The interval is closed: from here on, cost is outside it. A scope that started idle tells whether it is the first
    // one at its line (a cold launch loads its kernel inside the interval); the loading mode is asked only when
    // the host time is large enough to be a module load.
    if (idle_at_start_ && !capturing) {
        observed.first_at_call_site = first_idle_scope_at(site);
        if (observed.first_at_call_site && observed.idle_at_stop && observed.host_time >= host_time_floor)
            observed.loading = module_loading_mode();
    }
    // The device's first-use work comes now (see
    // start()): the GPU-state read, the floor (eager mode only: after the wait, on an idle stream, as at a start),
    // and the launches that settle the launch path for the user's next one.
    if (first_use_ && !capturing) {
        first_use_ = false;
        gpu_state_ = sample_gpu_state(device_);
        if (options_.wait_at_stop) {
            RelaxedCaptureMode relaxed;
            observed.interval = elapsed(start_, stop_);
            if (idle_at_start_ && !known_event_pair_floor(device_)) (void)event_pair_floor(device_);
        }
        if (defer_after_work_)
            settle_pending_ = true;
        else
            (void)detail::settle_launches(stream_, device_, options_.wait_at_stop);
    }
    Findings found;
    if (capturing) found.push_back(capture_finding(device_));
    if (auto f = check_legacy_stream(is_legacy_default_stream(stream_), name)) found.push_back(std::move(*f));
    if (gpu_state_) {
        Findings state = check_gpu_state(*gpu_state_);
        found.insert(found.end(), state.begin(), state.end());
    } else if (!capturing) {
        // Between reads, the latest read's other processes (gpu_state.hpp): one relaxed load when it listed none.
        if (auto others = recent_other_processes(device_))
            if (auto f = other_processes_finding(*others)) found.push_back(std::move(*f));
    }
    if (capturing) {
        Measurement m = Measurement::pending(
            name, std::make_shared<CapturedEventInterval>(std::move(start_), std::move(stop_)), device_);
        handle_findings(m, std::move(found), site);
        return m;
    }

    if (auto f = check_device_changed(device_at_start_, device_at_stop, device_, name)) found.push_back(std::move(*f));
    const std::optional<Duration> floor = known_event_pair_floor(device_);
    if (!options_.wait_at_stop) {
        if (auto f = check_cold_first_scope(observed)) found.push_back(std::move(*f));
        if (auto f = check_timed_stream_idle(observed)) found.push_back(std::move(*f));
        Measurement m = Measurement::pending(
            name, std::make_shared<PendingEventInterval>(std::move(start_), std::move(stop_), observed, floor, site),
            device_);
        handle_findings(m, std::move(found), site);
        return m;
    }
    if (!observed.interval) observed.interval = elapsed(start_, stop_);
    if (auto f = check_cold_first_scope(observed)) found.push_back(std::move(*f));
    if (auto f = check_timed_stream_idle(observed)) found.push_back(std::move(*f));
    Findings with_interval = interval_findings(observed, floor);
    found.insert(found.end(), with_interval.begin(), with_interval.end());
    Measurement m = Measurement::completed(name, *observed.interval, device_);
    handle_findings(m, std::move(found), site);
    return m;
}

void EventPolicy::after_work() noexcept {
    if (!settle_pending_) return;
    settle_pending_ = false;
    try {
        (void)detail::settle_launches(stream_, device_, options_.wait_at_stop);
    } catch (...) {
        // See the header: nothing of the measurement depends on these launches.
    }
}

Measurement EventPolicy::stop_unchecked(const CallSite& site) {
    (void)site;  // no findings in the minimal mode
    GPUCHRONO_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_), on_device("recording the EventPolicy stop event", device_));
    if (!options_.wait_at_stop)
        return Measurement::pending(name, std::make_shared<PlainPendingInterval>(std::move(start_), std::move(stop_)), device_);
    const Duration interval = PlainPendingInterval::elapsed_plain(start_, stop_);
    EventLease::return_together(start_, stop_);
    return Measurement::completed(name, interval, device_);
}

}  // namespace gpuchrono
