// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "kernel_batch.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/gpu/event_pool.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include "policies/kernel/batch_segments.hpp"
#include "policies/kernel/stream_bounds.hpp"

#include "checks/check_kernel_records.hpp"
#include "cupti/activity_buffers.hpp"
#include "cupti/cupti_session.hpp"
#include "policies/kernel/stream_marker.hpp"
#include "policies/kernel/timed_streams.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

namespace gpuchrono::detail {

// What the session's serve() waits for: the batch's end-of-work event.
class KernelBatchWork final : public cupti::FlushWaiter {
public:
    KernelBatchWork(cudaStream_t stream, int device) : stream_(stream), device_(device) {}

    void mark_end() {
        event_ = EventPool::instance().acquire(device_);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(event_.get(), stream_),
                             "recording the end-of-work event of the kernel method's samples on device " +
                                 std::to_string(device_));
    }

    void wait_for_work() override {
        RelaxedCaptureMode relaxed;  // another stream of this thread may capture; the wait concerns ours
        if (event_)
            GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(event_.get()),
                                 "waiting for the kernel method's samples on device " + std::to_string(device_));
        else
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream_),
                                 "waiting for the kernel method's samples on device " + std::to_string(device_));
    }

private:
    cudaStream_t stream_;
    int device_;
    EventLease event_;
};

namespace {

// How long a batch waits for its marks' records after the flush, as a KernelPolicy scope waits for its own.
constexpr std::chrono::milliseconds record_wait{200};

}  // namespace

KernelBatch::KernelBatch(cudaStream_t stream) : stream_(stream), device_(stream_device(stream)) {
    if (const char* silenced = cupti::release_activity_silence())
        throw TimerError(std::string("gpuchrono: the kernel method needs CUPTI's activity records: ") + silenced);
    std::string why;
    session_ = cupti::CuptiSession::get(why);
    if (!session_) throw TimerError("gpuchrono: the kernel method needs CUPTI: " + why);
    {
        RelaxedCaptureMode relaxed;
        if (stream_is_capturing(stream_))
            throw TimerError("gpuchrono: the kernel method cannot time a stream that is being captured into a graph "
                             "(nothing runs until the graph is launched)");
    }
    // CUPTI cannot name the legacy default stream before it has run something: the id comes from the first mark.
    const bool legacy = stream_ == nullptr || stream_ == cudaStreamLegacy;
    stream_id_ = legacy ? stream_mode::stream_from_mark : session_->stream_id(stream_);
    if (!legacy) add_timed_stream(device_, stream_id_);
    cupti::collect_dropped_records();  // drops before the batch are not its own
    dropped_at_start_ = session_->store().dropped();
    token_ = next_stream_marker_token();
    start_ns_ = session_->timestamp();
    window_ = session_->store().open_window(start_ns_);
    work_ = std::make_shared<KernelBatchWork>(stream_, device_);
}

KernelBatch::~KernelBatch() {
    if (window_) session_->store().close_window(*window_);
}

void KernelBatch::place_mark() {
    DeviceGuard on(device_);  // a runtime launch goes to the current device's context
    GPUCHRONO_CUDA_CHECK(launch_batch_marker(stream_, token_),
                         "launching a boundary mark of the kernel method's samples on device " + std::to_string(device_));
    ++marks_;
}

void KernelBatch::begin_sample(bool after_untimed_work) {
    if (open_ || read_) throw TimerError("gpuchrono: KernelBatch::begin_sample() inside a sample or after read() (library bug)");
    if (!last_closed_ || after_untimed_work) place_mark();
    opens_.push_back(marks_ - 1);
    open_ = true;
}

void KernelBatch::end_sample() {
    if (!open_) throw TimerError("gpuchrono: KernelBatch::end_sample() without begin_sample() (library bug)");
    place_mark();
    open_ = false;
    last_closed_ = true;
}

const std::vector<Duration>& KernelBatch::read() {
    if (read_) return *read_;
    if (open_) throw TimerError("gpuchrono: KernelBatch::read() inside a sample (library bug)");
    cupti::ActivityStore& store = session_->store();
    if (opens_.empty()) {
        read_.emplace();
        return *read_;
    }
    {
        RelaxedCaptureMode relaxed;
        if (stream_is_capturing(stream_))
            throw TimerError("gpuchrono: the timed stream began a graph capture while the kernel method's samples were "
                             "queued: the callable must end every capture it begins");
    }
    work_->mark_end();
    session_->serve(*work_);

    const auto dropped_so_far = [&] {
        cupti::collect_dropped_records();
        return store.dropped() - dropped_at_start_;
    };
    const auto find_marks = [&] {
        return stream_mode::batch_marks(store.marks(token_, start_ns_), token_, device_, stream_id_, start_ns_);
    };
    // The last mark's record arrives with, or after, those of the work before it; wait for every mark as a scope
    // waits for its stop mark, unless CUPTI's drops explain an absence.
    std::vector<KernelActivity> marks = find_marks();
    const auto deadline = std::chrono::steady_clock::now() + record_wait;
    auto pause = std::chrono::microseconds(20);
    while (marks.size() < marks_ && dropped_so_far() == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
        session_->flush();
        marks = find_marks();
    }
    const std::string what = "gpuchrono: the kernel method's batch of " + std::to_string(opens_.size()) +
                             " samples on device " + std::to_string(device_) + ": ";
    if (const std::uint64_t dropped = dropped_so_far(); dropped > 0)
        throw TimerError(what + "CUPTI dropped " + std::to_string(dropped) +
                         " activity records while it ran (no buffer space for them): its samples may miss work");
    if (marks.size() < marks_)
        throw TimerError(what + std::to_string(marks_ - marks.size()) + " of its " + std::to_string(marks_) +
                         " boundary marks had no activity record " + std::to_string(record_wait.count()) +
                         " ms after the stream's work had finished: its samples cannot be told apart");
    const std::vector<KernelActivity> held = store.collect_bounded(start_ns_, marks.back().end_ns,
                                                                   marks.front().correlation_id, marks.back().correlation_id);
    const stream_mode::BatchSamples split =
        stream_mode::split_batch(held, token_, device_, stream_id_, start_ns_, marks_, opens_);
    if (!split.problem.empty()) throw TimerError(what + split.problem);
    std::vector<Duration> out;
    out.reserve(opens_.size());
    for (std::size_t i = 0; i < opens_.size(); ++i) {
        out.push_back(Duration::from_ns(static_cast<double>(split.busy_ns[i])));
        if (split.records[i] == 0) ++empty_;
    }
    store.close_window(*window_);  // the records are read; the store may drop them
    window_.reset();
    read_ = std::move(out);
    return *read_;
}

std::optional<Finding> KernelBatch::no_activity_finding() const {
    return check_batch_samples_counted(device_, empty_, opens_.size());
}

void report_no_activity(const KernelBatch& batch, const CallSite& site) {
    std::optional<Finding> f = batch.no_activity_finding();
    if (!f) return;
    Findings found{std::move(*f)};
    try {
        handle_findings(found, site);
    } catch (const FindingError&) {
        // Reported as the reaction asks; the samples stand (see the header).
    }
}

}  // namespace gpuchrono::detail
