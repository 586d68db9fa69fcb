// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// IterationBatch: the iterations of a loop on one thread, timed in batches, each iteration's time the busy time of
// the CUPTI records of the work it launched (what <gpuchrono/gbench.hpp> hands to Google Benchmark). For harnesses
// that own their loop and want each iteration's GPU time without a wait per iteration:
//
//     gpuchrono::IterationBatch batch(stream, gpuchrono::KernelPolicy::Count::stream, 256);
//     batch.begin();
//     for (int i = 0; i < 256; ++i) { my_kernel<<<g, b, 0, stream>>>(...); batch.end_iteration(); }
//     const gpuchrono::IterationBatch::Times& t = batch.read();   // t.ns[i], t.findings
//
// Per batch: one store window and one launch log (CUPTI's launch callbacks give the correlation id of each launch
// call of the thread), one wait and one flush at the end. Per iteration: end_iteration(), which notes how many
// launch calls the thread has made so far; no mark, no event, no allocation. The records are told apart by
// correlation ids (iteration_split.hpp): stream mode counts the work enqueued on the timed stream within the
// iteration's range of calls, thread mode the work of the iteration's own launch calls on any stream. On the legacy
// default stream, which CUPTI names only once it has run something, stream mode places one mark kernel per batch
// (never counted) and learns the stream's id from its record.
#pragma once

#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/cupti/cupti_hold.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gpuchrono {

class IterationBatch {
public:
    // Holds CUPTI and turns its launch callbacks on (both modes need them). Throws TimerError when CUPTI is
    // unavailable (the reason as KernelPolicy::unavailable_reason() gives it) or the stream is being captured.
    // `caller` is who the messages say failed: "the Google Benchmark bridge" ("gpuchrono: the Google Benchmark bridge
    // needs CUPTI: ..."), or a name that begins with gpuchrono and so begins them itself ("gpuchrono::measure(\"x\")").
    // `reads_gpu_state`: whether read() asks NVML for other processes on the device (other-processes-on-device, at
    // most every 250 ms); false for a caller that reads the GPU's state itself, as measure() does.
    IterationBatch(cudaStream_t stream, KernelPolicy::Count count, std::size_t capacity,
                   std::string caller = "the Google Benchmark bridge", bool reads_gpu_state = true);
    ~IterationBatch();
    IterationBatch(const IterationBatch&) = delete;
    IterationBatch& operator=(const IterationBatch&) = delete;

    // Opens a batch; the iterations follow, each closed by end_iteration(), then read().
    void begin();
    void end_iteration() noexcept;
    // Closes an iteration whose work must run but not be timed (measure()'s L2 flush before a cold-cache call): its
    // records stay out of the next iteration, and read() leaves it out of the times and the findings.
    void end_untimed() noexcept;

    struct Times {
        std::vector<double> ns;           // per iteration: the busy time of its records
        std::vector<bool> warned;         // per iteration: whether a warning-level finding concerns it
        std::vector<std::size_t> counted;  // per iteration: how many records it counted (0: no work was counted)
        // per iteration: its launch calls whose record never came (CUPTI dropped it, or it was late): its time may
        // miss that work
        std::vector<std::size_t> unrecorded;
        // What was found, once per code: kernel-no-activity (an iteration counted no work; the message says how many
        // and where the work went), kernel-activity-elsewhere, kernel-records-dropped, kernel-records-late,
        // other-processes-on-device.
        Findings findings;
    };
    // Waits for the batch's work (the stream, or in thread mode the device), flushes CUPTI once, waits up to 200 ms
    // for the record of every launch call the batch made, and splits the records into the iterations. Throws
    // TimerError on a CUDA or CUPTI error.
    const Times& read();

private:
    struct State;
    CuptiHold hold_;
    std::unique_ptr<State> state_;
};

}  // namespace gpuchrono
