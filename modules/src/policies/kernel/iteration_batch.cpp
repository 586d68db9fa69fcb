// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/policies/kernel/iteration_batch.hpp>

#include <gpuchrono/checks/check_gpu_state.hpp>
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/gpu/stream.hpp>

#include "checks/check_kernel_records.hpp"
#include "cupti/activity_buffers.hpp"
#include "cupti/cupti_session.hpp"
#include "cupti/launch_subscriber.hpp"
#include "policies/kernel/iteration_split.hpp"
#include "policies/kernel/stream_bounds.hpp"
#include "policies/kernel/stream_marker.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>
#include <utility>

namespace gpuchrono {

struct IterationBatch::State {
    cupti::CuptiSession* session = nullptr;
    cudaStream_t stream = nullptr;
    int device = -1;
    KernelPolicy::Count count = KernelPolicy::Count::stream;
    std::optional<iteration_split::TimedStream> timed;  // stream mode
    cupti::LaunchLog log;
    bool logging = false;
    std::vector<std::size_t> ends;  // per iteration: the launch calls logged by its end
    std::vector<std::uint8_t> untimed;  // per iteration: 1 if closed by end_untimed()
    std::string caller;             // as the messages name it
    std::string says;               // what begins a refusal
    bool reads_gpu_state = true;
    // The legacy default stream, whose CUPTI id is known only from a record on it: each batch learns it from a
    // mark of its own launched on it at begin(), found by its token (stream_mode::find_mark, as a scope finds its own).
    bool learns_stream = false;
    std::uint32_t mark_token = 0;
    std::optional<cupti::ActivityStore::Window> window;
    std::uint64_t start_ns = 0;
    std::uint64_t dropped_at_start = 0;
    std::optional<IterationBatch::Times> times;

    ~State() { close(); }
    void close() noexcept {
        if (logging) cupti::close_launch_log(&log);
        logging = false;
        if (window) session->store().close_window(*window);
        window.reset();
    }
};

namespace {

// How long a batch waits for the records of its launch calls after the flush, as a KernelPolicy scope waits.
constexpr std::chrono::milliseconds record_wait{200};

}  // namespace

IterationBatch::IterationBatch(cudaStream_t stream, KernelPolicy::Count count, std::size_t capacity, std::string caller,
                               bool reads_gpu_state)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.reads_gpu_state = reads_gpu_state;
    s.says = caller.starts_with("gpuchrono") ? caller : "gpuchrono: " + caller;
    s.caller = std::move(caller);
    if (const char* silenced = cupti::release_activity_silence())
        throw TimerError(s.says + " needs CUPTI's activity records: " + silenced);
    if (!hold_) throw TimerError(s.says + " needs CUPTI: " + hold_.why_not());
    std::string why;
    s.session = cupti::CuptiSession::get(why);
    if (!s.session) throw TimerError(s.says + " needs CUPTI: " + why);
    if (auto e = cupti::enable_launch_callbacks()) throw TimerError(s.says + " needs CUPTI's launch callbacks: " + *e);
    {
        RelaxedCaptureMode relaxed;
        if (stream_is_capturing(stream))
            throw TimerError(s.says + " cannot time a stream that is being captured into a graph (nothing runs until the "
                                      "graph is launched)");
    }
    s.stream = stream;
    s.device = stream_device(stream);
    s.count = count;
    if (count == KernelPolicy::Count::stream) {
        // CUPTI cannot name the legacy default stream before it has run something (stream_bounds.hpp).
        s.learns_stream = is_legacy_default_stream(stream);
        s.timed = iteration_split::TimedStream{s.device, s.learns_stream ? stream_mode::stream_from_mark
                                                                         : s.session->stream_id(stream)};
    }
    // Reserved once: an iteration's end_iteration() and its launch callbacks then never allocate.
    s.ends.reserve(capacity);
    s.untimed.reserve(capacity);
    s.log.correlations.reserve(4 * capacity);
    s.log.expected.reserve(4 * capacity);
}

IterationBatch::~IterationBatch() = default;

void IterationBatch::begin() {
    State& s = *state_;
    s.close();
    s.times.reset();
    s.ends.clear();
    s.untimed.clear();
    s.log.correlations.clear();
    s.log.expected.clear();
    cupti::collect_dropped_records();  // drops before the batch are not its own
    s.dropped_at_start = s.session->store().dropped();
    s.start_ns = s.session->timestamp();
    s.window = s.session->store().open_window(s.start_ns);
    cupti::open_launch_log(&s.log);
    s.logging = true;
    if (s.learns_stream) {
        // Inside the log, so that its record is collected with the batch's; it is never counted (is_stream_mark).
        s.mark_token = detail::next_stream_marker_token();
        GPUCHRONO_CUDA_CHECK(detail::launch_stream_marker(s.stream, s.mark_token, false),
                             "launching the mark that names the legacy default stream for " + s.caller);
    }
}

namespace {

void close_iteration(std::vector<std::size_t>& ends, std::vector<std::uint8_t>& untimed, std::size_t calls,
                     bool timed) noexcept {
    try {
        untimed.push_back(timed ? 0 : 1);
        try {
            ends.push_back(calls);
        } catch (...) {
            untimed.pop_back();  // the two stay the same length
            throw;
        }
    } catch (...) {
        // Beyond the reserved capacity and out of memory: read() then finds fewer ends than iterations and says so.
    }
}

}  // namespace

void IterationBatch::end_iteration() noexcept {
    State& s = *state_;
    close_iteration(s.ends, s.untimed, s.log.correlations.size(), true);
}

void IterationBatch::end_untimed() noexcept {
    State& s = *state_;
    close_iteration(s.ends, s.untimed, s.log.correlations.size(), false);
}

const IterationBatch::Times& IterationBatch::read() {
    State& s = *state_;
    if (s.times) return *s.times;
    if (!s.window) throw TimerError("gpuchrono: IterationBatch::read() without begin() (library bug)");
    if (s.logging) cupti::close_launch_log(&s.log);
    s.logging = false;
    {
        RelaxedCaptureMode relaxed;  // another stream of this thread may capture; the wait concerns ours
        if (s.timed) {
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(s.stream),
                                 "waiting for " + s.caller + "'s stream on device " + std::to_string(s.device));
        } else {
            DeviceGuard on(s.device);
            GPUCHRONO_CUDA_CHECK(cudaDeviceSynchronize(),
                                 "waiting for device " + std::to_string(s.device) + " (" + s.caller + ", thread mode)");
        }
    }
    cupti::ActivityStore& store = s.session->store();
    s.session->flush();
    const auto dropped_so_far = [&] {
        cupti::collect_dropped_records();
        return store.dropped() - s.dropped_at_start;
    };
    // The record of every launch call that must have one: a flush can return while CUPTI's own thread still hands
    // over a buffer it took just before (kernel_policy.cpp), so wait for them as a thread-mode scope does.
    std::unordered_set<std::uint32_t> recorded;  // the correlation ids of the records that came
    const auto missing = [&](const std::vector<KernelActivity>& launched) {
        recorded.clear();
        recorded.reserve(launched.size());
        for (const KernelActivity& r : launched) recorded.insert(r.correlation_id);
        return static_cast<std::size_t>(std::count_if(s.log.expected.begin(), s.log.expected.end(),
                                                      [&](std::uint32_t id) { return !recorded.count(id); }));
    };
    cupti::ActivityStore::Collected got = store.collect(s.log.correlations, s.start_ns);
    std::size_t absent = missing(got.launched);
    const auto deadline = std::chrono::steady_clock::now() + record_wait;
    auto pause = std::chrono::microseconds(20);
    while (absent > 0 && dropped_so_far() == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
        s.session->flush();
        got = store.collect(s.log.correlations, s.start_ns);
        absent = missing(got.launched);
    }
    const std::uint64_t dropped = dropped_so_far();
    std::vector<KernelActivity> records = std::move(got.launched);
    if (s.learns_stream) {
        const std::optional<KernelActivity> mark =
            stream_mode::find_mark(records, s.device, stream_mode::stream_from_mark, s.mark_token, false, s.start_ns);
        if (!mark) {
            s.close();
            throw TimerError(s.says + ": the mark placed on the legacy default stream to tell its work apart left no "
                                      "activity record (" + std::to_string(dropped) + " records dropped), so the "
                                      "batch's work cannot be attributed; time a stream of your own");
        }
        s.timed->stream = mark->stream;
    }
    if (s.timed) records.insert(records.end(), got.others.begin(), got.others.end());  // other threads' work on the stream
    s.close();  // the records are copied out: the store may drop them

    iteration_split::Split all = iteration_split::split_iterations(records, s.log.correlations, s.ends, s.timed);
    iteration_split::note_unrecorded(all, s.log.correlations, s.ends, s.log.expected, recorded);
    const iteration_split::Split split = iteration_split::timed_only(std::move(all), s.untimed);
    const std::size_t n = split.busy_ns.size();
    Times t;
    t.ns.reserve(n);
    t.warned.assign(n, false);
    t.counted = split.counted;
    t.unrecorded = split.unrecorded;
    IterationRecordsSeen seen;
    seen.where = s.timed ? "enqueued on the timed stream (CUPTI stream " + std::to_string(s.timed->stream) +
                               ", device " + std::to_string(s.device) + ")"
                         : "launched by the timing thread";
    seen.iterations = n;
    seen.dropped = dropped;
    seen.missing = absent;
    seen.expected = s.log.expected.size();
    seen.record_wait = record_wait;
    std::optional<std::size_t> first_elsewhere;
    for (std::size_t i = 0; i < n; ++i) {
        t.ns.push_back(static_cast<double>(split.busy_ns[i]));
        const bool empty = split.counted[i] == 0;
        const bool elsewhere = !split.elsewhere[i].empty();
        seen.empty += empty ? 1 : 0;
        seen.with_elsewhere += elsewhere ? 1 : 0;
        if (elsewhere && (!first_elsewhere || (empty && split.counted[*first_elsewhere] != 0))) first_elsewhere = i;
        t.warned[i] = empty || elsewhere || dropped > 0 || absent > 0;
    }
    if (first_elsewhere) seen.elsewhere = split.elsewhere[*first_elsewhere];
    t.findings = check_iteration_records(seen);
    // Other processes on the device, as a KernelPolicy scope reports them (NVML, read at most every 250 ms): they
    // may have shared the GPU with any iteration of the batch.
    if (s.reads_gpu_state) {
        (void)sample_gpu_state(s.device);
        if (const std::optional<OtherProcesses> others = recent_other_processes(s.device))
            if (std::optional<Finding> f = other_processes_finding(*others)) {
                if (f->severity != Severity::info) t.warned.assign(t.warned.size(), true);
                t.findings.push_back(std::move(*f));
            }
    }
    s.times = std::move(t);
    return *s.times;
}

}  // namespace gpuchrono
