// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KernelBatch: many samples on one stream, each timed as a stream-mode KernelPolicy scope around the same call
// would time it (the busy time of its CUPTI records), at a fraction of the host cost. A scope per sample launches
// two marks, opens and closes a store window, records an event and is read on its own (about 50 us of host time
// per sample with many pending on an H100); a batch has one window and one token for all its samples, one mark
// per sample boundary (batch_segments.hpp), one end-of-work event and one CUPTI flush, and splits its records
// into samples in one pass. Internal: measure() and compare(fn_a, fn_b) take their kernel-method samples through it.
//
// Order on the stream: [untimed work] mark call mark call ... mark. A sample opens at the mark before its call and
// closes at the one after; a sample that follows untimed work of the caller's (the L2 flush) opens with a mark of
// its own, so that work falls between two samples, in no sample. Marks are kernels on the stream too: the next call
// starts after one, and none is counted.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/finding_reaction.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace gpuchrono::cupti {
class CuptiSession;
}

namespace gpuchrono::detail {

class KernelBatchWork;

class KernelBatch {
public:
    // Needs a hold of CUPTI alive (a CuptiHold, as the kernel method keeps); throws TimerError without one, or when
    // CUPTI delivers no activity records now, or the stream is being captured into a graph.
    explicit KernelBatch(cudaStream_t stream);
    ~KernelBatch();
    KernelBatch(const KernelBatch&) = delete;
    KernelBatch& operator=(const KernelBatch&) = delete;

    // Opens the next sample; `after_untimed_work`: the caller enqueued work of its own since the last sample
    // closed, which a mark must keep out of this one. Then the caller launches the sample's work, and closes it.
    void begin_sample(bool after_untimed_work);
    void end_sample();

    std::size_t samples() const noexcept { return opens_.size(); }

    // Waits for the batch's work, flushes CUPTI's buffers once, and reads every sample, in order. Throws TimerError
    // when a mark had no record after the wait for late records, or CUPTI dropped records while the batch ran
    // (either leaves samples unknown). Read once: later calls return the same samples.
    const std::vector<Duration>& read();

    // After read(): how many samples counted no record (their duration is 0), and the finding that says so, as a
    // KernelPolicy scope that counted nothing gives (kernel-no-activity); nullopt when every sample counted work.
    std::size_t empty_samples() const noexcept { return empty_; }
    std::optional<Finding> no_activity_finding() const;

private:
    void place_mark();

    cupti::CuptiSession* session_ = nullptr;
    cudaStream_t stream_;
    int device_;
    std::uint32_t stream_id_ = 0;
    std::uint32_t token_ = 0;
    std::uint64_t start_ns_ = 0;
    std::uint64_t dropped_at_start_ = 0;
    std::optional<std::uint64_t> window_;
    std::uint32_t marks_ = 0;        // placed so far
    bool open_ = false;              // a sample has begun and not ended
    bool last_closed_ = false;       // the latest mark closed a sample (and may open the next)
    std::vector<std::uint32_t> opens_;  // per sample: the index of its opening mark
    std::shared_ptr<KernelBatchWork> work_;
    std::optional<std::vector<Duration>> read_;
    std::size_t empty_ = 0;
};

// Hands the batch's no-activity finding, if any, to the finding reaction as reading a lazy KernelPolicy scope's
// Measurement does: reported or collected; under Reaction::throw_error not raised (Measurement::resolve() keeps the
// measurement and its 0), so the samples stand.
void report_no_activity(const KernelBatch& batch, const CallSite& site);

}  // namespace gpuchrono::detail
