// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/policies/kernel/kernel_policy.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/checks/check_gpu_state.hpp>

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include "cupti/activity_intervals.hpp"
#include <gpuchrono/gpu/stream.hpp>
#include "policies/kernel/idle_gap.hpp"
#include "checks/check_idle_gap.hpp"
#include <gpuchrono/gpu/event_pool.hpp>

#include "checks/check_kernel_records.hpp"
#include "checks/check_work_beside.hpp"
#include "cupti/activity_buffers.hpp"
#include "cupti/cupti_session.hpp"
#include "cupti/launch_subscriber.hpp"
#include "policies/kernel/stream_marker.hpp"
#include "policies/kernel/timed_streams.hpp"

#include "policies/kernel/stream_bounds.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <initializer_list>
#include <iterator>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace gpuchrono {

namespace detail {

// A device's SM count, read once per device (the attribute is fixed); 0 when it cannot be read.
int sm_count(int device) noexcept {
    constexpr int most = 64;
    static std::atomic<int> known[most] = {};
    if (device < 0 || device >= most) return 0;
    if (const int n = known[device].load(std::memory_order_relaxed); n > 0) return n;
    int n = 0;
    if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    known[device].store(n, std::memory_order_relaxed);
    return n;
}

// The (device, CUPTI stream) pairs that a stream-mode scope or a kernel-method batch (timed_streams.hpp) has timed
// in this process. Work launched between a scope's marks on one of them is another timer's work, not work the user
// sent to the wrong stream: it is not reported as kernel-activity-elsewhere (with four threads timing their own
// streams, every scope would otherwise carry it: bench_stretched_readings [10]). Filled at construction, never emptied
// (a few entries).
class TimedStreams {
public:
    static TimedStreams& instance() {
        static auto* s = new TimedStreams();  // never destroyed: scopes may stop during static destruction
        return *s;
    }
    void add(int device, std::uint32_t stream) {
        std::lock_guard lock(mutex_);
        if (std::find(timed_.begin(), timed_.end(), std::pair{device, stream}) == timed_.end()) timed_.emplace_back(device, stream);
    }
    bool contains(int device, std::uint32_t stream) const {
        std::lock_guard lock(mutex_);
        return std::find(timed_.begin(), timed_.end(), std::pair{device, stream}) != timed_.end();
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::pair<int, std::uint32_t>> timed_;
};

void add_timed_stream(int device, std::uint32_t stream) { TimedStreams::instance().add(device, stream); }

// What a scope found once its records were read.
struct KernelScopeResult {
    Duration busy;
    Duration span;
    std::vector<KernelActivity> counted;
    Findings found;
};

// One KernelPolicy interval: the launches its thread made while it ran, the store window that keeps their
// records, and how to wait for its work. Shared by the policy and, in lazy mode, the pending Measurement.
class KernelScope final : public cupti::FlushWaiter {
public:
    KernelScope(cupti::CuptiSession& session, cudaStream_t stream, int device, cupti::ScopeFilter filter)
        : session_(session), stream_(stream), device_(device), filter_(filter) {}

    ~KernelScope() override {
        if (logging_) cupti::close_launch_log(&log_);
        if (window_) session_.store().close_window(*window_);
    }

    KernelScope(const KernelScope&) = delete;
    KernelScope& operator=(const KernelScope&) = delete;

    void start() {
        cupti::collect_dropped_records();  // drops before this scope are not its own
        dropped_at_start_ = session_.store().dropped();
        start_ns_ = session_.timestamp();
        window_ = session_.store().open_window(start_ns_);
        if (by_marks()) {
            token_ = detail::next_stream_marker_token();
            place_mark(false);
        } else {
            cupti::open_launch_log(&log_);
            logging_ = true;
        }
    }

    // Ends the attribution: work enqueued (stream mode) or launched (thread mode) after this is not the scope's.
    void end() {
        if (by_marks()) {
            // A stop mark launched into a capture would become a node of the user's graph, and never bound
            // anything now.
            if (stream_is_capturing(stream_))
                throw TimerError("gpuchrono: the timed stream began a graph capture between the KernelPolicy start and "
                                 "stop: keep a timer entirely outside a capture (time the cudaGraphLaunch instead)");
            stop_ns_ = session_.timestamp();
            place_mark(true);
        }
        if (logging_) cupti::close_launch_log(&log_);
        logging_ = false;
    }

    // Lazy stream mode: an event after the scope's work, waited for when the records are wanted.
    void mark_end_of_work() {
        stop_event_ = EventPool::instance().acquire(device_);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(stop_event_.get(), stream_),
                             "recording the KernelPolicy end-of-work event on device " + std::to_string(device_));
    }

    void wait_for_work() override {
        RelaxedCaptureMode relaxed;  // another stream of this thread may capture; the wait concerns ours
        if (stop_event_) {
            GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(stop_event_.get()),
                                 "waiting for the work of a KernelPolicy scope on device " + std::to_string(device_));
        } else if (filter_.stream_only) {
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream_),
                                 "waiting for the timed stream of a KernelPolicy scope on device " + std::to_string(device_));
        } else {
            DeviceGuard on(device_);
            GPUCHRONO_CUDA_CHECK(cudaDeviceSynchronize(),
                                 "waiting for device " + std::to_string(device_) + " (KernelPolicy, thread mode)");
        }
    }

    // After the work finished and a flush ran: the scope's records and what they show. Computed once.
    const KernelScopeResult& result(const CallSite& site) {
        std::lock_guard lock(mutex_);
        if (result_) return *result_;
        if (by_marks()) return result_by_marks(site);
        cupti::ActivityStore& store = session_.store();
        cupti::ActivityStore::Collected got = store.collect(log_.correlations, start_ns_);
        // A flush can return while CUPTI's own thread is still handing over a buffer it took just before (seen on
        // the H100 with two threads' scopes: a scope then missed its own kernels), or before CUPTI has completed a
        // record of work that has finished. Every call that must have a record of its own is waited for, with
        // plain flushes and growing pauses, for up to record_wait; what is still missing then is reported.
        std::size_t missing = missing_records(got.launched);
        const auto deadline = std::chrono::steady_clock::now() + record_wait;
        auto pause = std::chrono::microseconds(20);
        // Records CUPTI dropped explain as many missing ones: no use waiting for those.
        while (missing > 0 && missing > dropped_so_far() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::microseconds(1000));
            session_.flush();
            got = store.collect(log_.correlations, start_ns_);
            missing = missing_records(got.launched);
        }
        const std::uint64_t dropped = dropped_so_far();
        // Stream-mode scopes' marks inside this thread scope: not its work, but kept aside for the idle gap.
        std::vector<KernelActivity> marks;
        for (const std::vector<KernelActivity>* held : {&got.launched, &got.others})
            std::copy_if(held->begin(), held->end(), std::back_inserter(marks), stream_mode::is_stream_mark);
        std::erase_if(got.launched, stream_mode::is_stream_mark);
        std::erase_if(got.others, stream_mode::is_stream_mark);
        cupti::Attribution split = cupti::attribute(std::move(got.launched), filter_);

        KernelScopeResult r;
        r.busy = Duration::from_ns(static_cast<double>(cupti::busy_ns(split.counted)));
        r.span = Duration::from_ns(static_cast<double>(cupti::span_ns(split.counted)));
        r.found = findings(split, got.others, dropped, missing);
        if (!split.counted.empty())
            if (auto f = idle_finding(split.counted.front(), {split.counted, split.elsewhere, got.others, marks}))
                r.found.push_back(std::move(*f));
        detail::stamp_findings(r.found, site);
        r.counted = std::move(split.counted);
        result_ = std::move(r);
        if (window_) store.close_window(*window_);  // its records are copied out; the store may drop them
        window_.reset();
        return *result_;
    }

    int device() const noexcept { return device_; }

private:
    bool by_marks() const noexcept { return filter_.stream_only; }

    void place_mark(bool stop) {
        DeviceGuard on(device_);  // a runtime launch goes to the current device's context
        GPUCHRONO_CUDA_CHECK(detail::launch_stream_marker(stream_, token_, stop),
                             std::string("launching KernelPolicy's ") + (stop ? "stop" : "start") +
                                 " mark on the timed stream of device " + std::to_string(device_));
    }

    // CUPTI's drops since the scope started (records dropped for want of a buffer complete no buffer that would
    // count them, hence the explicit collection).
    std::uint64_t dropped_so_far() const {
        cupti::collect_dropped_records();
        return session_.store().dropped() - dropped_at_start_;
    }

    // Stream mode: the records between the scope's two marks on its stream (stream_bounds.hpp).
    const KernelScopeResult& result_by_marks(const CallSite& site) {
        cupti::ActivityStore& store = session_.store();
        const auto marks = [&](const std::vector<KernelActivity>& held) {
            auto first = stream_mode::find_mark(held, filter_.device, filter_.stream, token_, false, start_ns_);
            // The stop mark is on the start mark's stream (the legacy stream's id is known only from its marks).
            const std::uint32_t stream = first ? first->stream : filter_.stream;
            return std::pair{first, stream_mode::find_mark(held, filter_.device, stream, token_, true, stop_ns_)};
        };
        auto [first, last] = marks(store.marks(token_, start_ns_));
        // The stop mark's record arrives with, or after, those of the work before it; wait for it as thread mode
        // waits for its launches' records, unless CUPTI's drops explain its absence.
        const auto deadline = std::chrono::steady_clock::now() + record_wait;
        auto pause = std::chrono::microseconds(20);
        while ((!first || !last) && dropped_so_far() == 0 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::microseconds(1000));
            session_.flush();
            std::tie(first, last) = marks(store.marks(token_, start_ns_));
        }
        const std::uint64_t dropped = dropped_so_far();
        // Only what the two marks can bound (ActivityStore::collect_bounded); without both, everything held since
        // the start, for the overlap and idle findings.
        std::vector<KernelActivity> held =
            first && last ? store.collect_bounded(start_ns_, last->end_ns, first->correlation_id, last->correlation_id)
                          : store.collect({}, start_ns_).others;
        stream_mode::BoundedWork work;
        if (first && last) {
            work = stream_mode::split_by_marks(held, *first, *last);
            // Other scopes' marks on other streams are work beside the scope's too: a one-block kernel that takes
            // an SM slot while the scope's kernel is placing its blocks. On the H100 (bench_stretched_readings [10]) 10 of
            // 800 readings of 4 threads' spin(20 us) scopes ran 0.6-1.7 us long with no other thread's counted
            // work overlapping them, only the marks those threads placed between their own spins.
            for (const KernelActivity& r : held)
                if (stream_mode::is_stream_mark(r) && !(r.device == first->device && r.stream == first->stream))
                    work.others.push_back(r);
            const TimedStreams& timed = TimedStreams::instance();
            std::erase_if(work.elsewhere, [&](const KernelActivity& a) {
                if (!timed.contains(a.device, a.stream)) return false;
                work.others.push_back(a);  // still work beside the scope's, for the overlap finding
                return true;
            });
        } else {
            std::erase_if(held, stream_mode::is_stream_mark);
            work.others = std::move(held);
        }
        KernelScopeResult r;
        r.busy = Duration::from_ns(static_cast<double>(cupti::busy_ns(work.counted)));
        r.span = Duration::from_ns(static_cast<double>(cupti::span_ns(work.counted)));
        // The idle gap before the first counted activity, from every record held (the scope's own start mark and
        // every other mark among them: idle_gap.hpp says why marks are not work).
        std::optional<Finding> idle;
        if (!work.counted.empty()) idle = idle_finding(work.counted.front(), {held});
        cupti::Attribution split{std::move(work.counted), std::move(work.elsewhere)};
        r.found = findings(split, work.others, dropped, 0);
        if (idle) r.found.push_back(std::move(*idle));
        if (auto late = check_scope_marks_found(static_cast<bool>(first), static_cast<bool>(last), dropped, record_wait))
            r.found.push_back(std::move(*late));
        detail::stamp_findings(r.found, site);
        r.counted = std::move(split.counted);
        result_ = std::move(r);
        if (window_) store.close_window(*window_);
        window_.reset();
        return *result_;
    }

    // gpu-idle-before: how long the first counted activity's device had run none of the process's work before it
    // (idle_gap.hpp). Needs the scope's window still open: the store answers what ended before a window's start
    // only while the window is open.
    std::optional<Finding> idle_finding(const KernelActivity& first,
                                        std::initializer_list<std::span<const KernelActivity>> held) const {
        if (!window_) return std::nullopt;
        const cupti::ActivityStore& store = session_.store();
        const idle_gap::IdleGap gap =
            idle_gap::idle_gap(first, held, store.prior_work(*window_, first.device, first.stream), store.recording_since());
        return idle_gap::idle_before_finding(gap, store.dropped());
    }

    // How long a scope waits for records that its launch calls must have produced, after the flush.
    static constexpr std::chrono::milliseconds record_wait{200};

    // The launch calls that must have a record of their own and have none yet.
    std::size_t missing_records(const std::vector<KernelActivity>& launched) const {
        return static_cast<std::size_t>(std::count_if(log_.expected.begin(), log_.expected.end(), [&](std::uint32_t id) {
            return std::none_of(launched.begin(), launched.end(), [&](const KernelActivity& a) { return a.correlation_id == id; });
        }));
    }

    Findings findings(const cupti::Attribution& split, const std::vector<KernelActivity>& others,
                      std::uint64_t dropped, std::size_t missing) const {
        KernelRecordsSeen seen;
        seen.where = filter_.stream_only ? "enqueued on the timed stream (CUPTI stream " + std::to_string(filter_.stream) +
                                               ", device " + std::to_string(filter_.device) + ")"
                                         : "launched by the scope's thread";
        seen.by_marks = by_marks();
        seen.launch_calls = log_.correlations.size();
        seen.expected_records = log_.expected.size();
        seen.counted = split.counted.size();
        seen.elsewhere = split.elsewhere;
        seen.dropped = dropped;
        seen.missing = missing;
        seen.record_wait = record_wait;
        Findings found = check_kernel_records(seen);
        // Other processes on the device (NVML, read here at most every 250 ms: after the interval, whose reading
        // is the GPU's own and does not see the host's time).
        if (!split.counted.empty() && filter_.device >= 0) {
            (void)sample_gpu_state(filter_.device);  // due or not; it remembers the processes it lists
            if (const std::optional<OtherProcesses> others = recent_other_processes(filter_.device))
                if (auto f = other_processes_finding(*others)) found.push_back(std::move(*f));
        }
        if (!split.counted.empty()) {
            const int sms = sm_count(filter_.device >= 0 ? filter_.device : device_);
            if (auto f = check_work_beside(cupti::work_beside(split.counted, others, sms), sms)) found.push_back(std::move(*f));
        }
        return found;
    }

    cupti::CuptiSession& session_;
    cudaStream_t stream_;
    int device_;
    cupti::ScopeFilter filter_;
    cupti::LaunchLog log_;
    bool logging_ = false;
    std::optional<cupti::ActivityStore::Window> window_;
    std::uint64_t start_ns_ = 0;
    std::uint64_t stop_ns_ = 0;        // stream mode: CUPTI time just before the stop mark was launched
    std::uint32_t token_ = 0;          // stream mode: the token of the scope's two marks
    std::uint64_t dropped_at_start_ = 0;
    EventLease stop_event_;
    std::mutex mutex_;
    std::optional<KernelScopeResult> result_;
};

}  // namespace detail

namespace {

cupti::CuptiSession* session_or(std::string& why) noexcept {
    if (const char* silenced = cupti::release_activity_silence()) {
        why = silenced;
        return nullptr;
    }
    return cupti::CuptiSession::get(why);
}

// Why a KernelPolicy constructed now could not time anything; empty if it could. `hold` is the hold to keep.
std::string take_cupti(CuptiHold& hold) {
    if (const char* silenced = cupti::release_activity_silence()) return silenced;
    hold = CuptiHold();
    return hold ? std::string() : hold.why_not();
}

// A lazy scope's records, read when the Measurement is first resolved (one flush serves every pending scope).
class PendingKernelInterval final : public detail::PendingInterval {
public:
    PendingKernelInterval(cupti::CuptiSession& session, std::shared_ptr<detail::KernelScope> scope, CallSite site)
        : session_(session), scope_(std::move(scope)), site_(std::move(site)) {}

    Duration resolve() override {
        session_.serve(*scope_);
        return scope_->result(site_).busy;
    }
    Findings take_findings() override { return scope_->result(site_).found; }
    std::vector<KernelActivity> take_activities() override { return scope_->result(site_).counted; }
    std::optional<Duration> take_span() override { return scope_->result(site_).span; }

private:
    cupti::CuptiSession& session_;
    std::shared_ptr<detail::KernelScope> scope_;
    CallSite site_;
};

}  // namespace

KernelPolicy::KernelPolicy(cudaStream_t stream, Options options)
    : stream_(stream), device_(stream_device(stream)), options_(options) {
    std::string why = take_cupti(hold_);
    cupti::CuptiSession* session = why.empty() ? session_or(why) : nullptr;
    if (!session) {
        hold_.release();
        if (options_.if_unavailable == IfUnavailable::throw_error)
            throw TimerError("gpuchrono: KernelPolicy needs CUPTI: " + why);
        unavailable_ = why;
        return;
    }
    // CUPTI cannot name the legacy default stream before it has run something: its scopes learn its id from their
    // own start mark (stream_bounds.hpp). Thread mode does not filter by stream.
    const bool legacy = stream_ == nullptr || stream_ == cudaStreamLegacy;
    stream_id_ = legacy ? stream_mode::stream_from_mark : session->stream_id(stream_);
    if (options_.count == Count::stream && !legacy) detail::TimedStreams::instance().add(device_, stream_id_);
    if (options_.count == Count::thread) {
        if (auto e = cupti::enable_launch_callbacks()) {
            if (options_.if_unavailable == IfUnavailable::throw_error)
                throw TimerError("gpuchrono: KernelPolicy (thread mode) needs CUPTI's launch callbacks: " + *e);
            unavailable_ = *e;
        }
    }
}

KernelPolicy::~KernelPolicy() = default;
KernelPolicy::KernelPolicy(KernelPolicy&&) noexcept = default;
KernelPolicy& KernelPolicy::operator=(KernelPolicy&&) noexcept = default;

bool KernelPolicy::available() noexcept {
    try {
        CuptiHold hold;
        return take_cupti(hold).empty();
    } catch (...) {
        return false;
    }
}

std::string KernelPolicy::unavailable_reason() {
    CuptiHold hold;
    return take_cupti(hold);
}

void KernelPolicy::start() {
    if (!unavailable_.empty()) return;
    {
        RelaxedCaptureMode relaxed;
        if (stream_is_capturing(stream_))
            throw TimerError(
                "gpuchrono: KernelPolicy cannot time a stream that is being captured into a graph (nothing runs "
                "until the graph is launched): time the cudaGraphLaunch instead, whose kernels KernelPolicy counts");
    }
    std::string why;
    cupti::CuptiSession* session = session_or(why);  // set up in the constructor; this only fetches it
    cupti::ScopeFilter filter{options_.count == Count::stream, stream_id_, device_};
    scope_ = std::make_shared<detail::KernelScope>(*session, stream_, device_, filter);
    scope_->start();
}

// Not inlined: its return address is its caller's, which findings name when no source location is given.
[[gnu::noinline]] Measurement KernelPolicy::stop() { return stop_at(CallSite::returning_to(__builtin_return_address(0))); }

Measurement KernelPolicy::stop(std::source_location where) { return stop_at(CallSite::located(where)); }

Measurement KernelPolicy::stop_at(const CallSite& site) {
    if (!unavailable_.empty()) {
        Measurement m = Measurement::failure(name, "CUPTI is unavailable: " + unavailable_, device_);
        handle_findings(m, {cupti_unavailable_finding(unavailable_)}, site);
        return m;
    }
    if (!scope_) throw TimerError("gpuchrono: KernelPolicy::stop() without start()");
    scope_->end();
    std::string why;
    cupti::CuptiSession& session = *session_or(why);
    std::shared_ptr<detail::KernelScope> scope = std::move(scope_);
    if (!options_.wait_at_stop) {
        if (options_.count == Count::stream) scope->mark_end_of_work();
        session.register_pending(scope);
        return Measurement::pending(name, std::make_shared<PendingKernelInterval>(session, std::move(scope), site), device_);
    }
    scope->wait_for_work();
    session.flush();
    scope->flushed = true;
    const detail::KernelScopeResult& r = scope->result(site);
    Measurement m = Measurement::completed(name, r.busy, device_);
    m.set_activities(r.counted, r.span);
    Findings found = r.found;
    handle_findings(m, std::move(found), site);
    return m;
}

}  // namespace gpuchrono
