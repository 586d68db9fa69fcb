// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KernelPolicy: the GPU's own timing of every kernel, memcpy and memset that the scope's thread launched between
// start and stop, read from CUPTI activity records (the kernel's lifetime on the GPU: a D-us spin reads
// D + ~0.85 us on an H100, where an event pair reads D + 6 us; see docs/pitfalls-catalog.md rows 7 and 22).
//
//     gpuchrono::ScopedTimer<gpuchrono::KernelPolicy> t(stream);
//     my_kernel<<<g, b, 0, stream>>>(...);
//     cub::DeviceReduce::Sum(..., stream);   // library kernels count too, by their own names
//     const gpuchrono::Measurement& m = t.stop();
//     m.duration();     // GPU busy time: the union of the activities' intervals (gaps between them excluded)
//     m.span();         // first start to last end (gaps included)
//     m.activities();   // each kernel/copy/set: name, device, stream, grid, block, start/end ns, correlation id
//
// Attribution, stream mode (Count::stream, the default): start() and stop() each launch the library's empty
// marker kernel on the timed stream (block shape = the scope's token; about 2 us of the GPU's time each, outside
// the busy time). The stream runs its work in order, so the CUPTI records on that stream that start after the
// start mark and end before the stop mark are the scope's: the work enqueued on the timed stream between start
// and stop, by any thread. A CUDA graph's kernels run on streams of the graph's own and carry the id of the
// cudaGraphLaunch: they count when the launch came between the marks (stream_bounds.hpp). Work
// launched meanwhile on streams no KernelPolicy scope times is reported as kernel-activity-elsewhere. No launch
// callback is needed: a launch inside the scope costs what CUPTI's kernel records alone cost (0.99-1.00x on the H100,
// measured once).
// Attribution, thread mode (Count::thread): CUPTI calls the library back on the launching thread at the entry of
// every runtime or driver call that launches work; the call's correlation id goes to every thread-mode scope
// running on that thread, and the records carrying that id are the scope's, on any stream (a graph's kernels
// carry the id of its cudaGraphLaunch). The first thread-mode KernelPolicy constructed turns those callbacks on
// while gpuchrono holds CUPTI: every launch call of the process then costs 0.1-0.15x more (bench_kernel_policy
// [1]: 1.54x of a launch without CUPTI against 1.38-1.39x for records alone, H100).
// Waiting: by default stop() waits for the work (the stream, or in thread mode the device) and flushes CUPTI's
// buffers (0.05..2.4 ms on an H100): the Measurement is complete. With Options{.wait_at_stop = false} stop()
// returns a pending Measurement; the first one read waits for the work of every pending KernelPolicy scope and
// flushes once for all of them. CUPTI keeps about 80 B of host heap for good per buffer a flush hands back
// (docs/errors.md): time millions of scopes lazily, in batches, rather than one flush each.
// Findings (finding_catalog.hpp): kernel-no-activity, kernel-activity-elsewhere (info), kernel-records-dropped,
// kernel-records-late (a launch call's record, or in stream mode a mark's, had not arrived 200 ms after its work
// finished, and CUPTI's drop count did not explain it),
// concurrent-work-overlapped (work of other streams that shared the SMs or memory of the scope's wide work, a copy
// or kernels on more than an eighth of the SMs, for at least 500 ns and 1% of its busy time; other work beside it,
// or beside narrow kernels, is concurrent-work-beside, info: cupti::work_beside, docs/pitfalls-catalog.md #9), gpu-idle-before (info: the scope's first activity started after its device had run none of
// the process's work for 100 us or more; such a first kernel ran 0.6-1.7 us longer on an H100; the library's
// stream marks are not work; idle_gap.hpp), cupti-unavailable.
// CUPTI (libcupti.so.13, or .12 in a CUDA 12 build) is loaded at run time by the first KernelPolicy constructed (see
// available()); a program that never constructs one never loads it. A KernelPolicy holds CUPTI from construction to
// destruction (a CuptiHold, cupti/cupti_hold.hpp): the first hold of the process, or the first after CUPTI was given
// back, sets it up (subscriber, buffers, activity kinds) in the constructor, before any interval starts. While held,
// every kernel of the process is recorded by CUPTI (records no scope needs are dropped on arrival, their end times
// kept per device for gpu-idle-before) and a launch call costs a little more host time (bench_kernel_policy). When
// the last hold ends, pending scopes' records are delivered and CUPTI is given back to the process: keep a CuptiHold
// around a loop of ScopedTimer<KernelPolicy> scopes so it is set up once (bench/cupti_hold).
// CUPTI allows one subscriber per process: while Nsight Systems/Compute, torch.profiler or another CUPTI tool holds
// it, a KernelPolicy constructed is unavailable and says so (docs/pitfalls.md, cupti-unavailable). Start and stop a
// scope on the same thread; a stream being captured into a graph cannot be timed (time the graph launch instead).
#pragma once

#include <gpuchrono/core/measurement.hpp>
#include <gpuchrono/cupti/cupti_hold.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <source_location>

namespace gpuchrono {

struct CallSite;  // finding_reaction.hpp

namespace detail {
class KernelScope;
}

class KernelPolicy {
public:
    static constexpr std::string_view name = "kernel";
    static constexpr std::string_view type_name = "KernelPolicy";  // errors say ScopedTimer<KernelPolicy>

    enum class Count {
        stream,  // the work enqueued on the timed stream between start and stop (marks; no launch callbacks)
        thread,  // every launch of the thread, on any stream or device (turns CUPTI's launch callbacks on)
    };
    enum class IfUnavailable {
        throw_error,       // construction throws TimerError naming what was searched and why it failed
        fail_measurement,  // stop() returns a failed Measurement carrying the cupti-unavailable finding
    };
    struct Options {
        Count count = Count::stream;
        bool wait_at_stop = true;
        IfUnavailable if_unavailable = IfUnavailable::throw_error;
    };

    explicit KernelPolicy(cudaStream_t stream) : KernelPolicy(stream, Options{}) {}
    KernelPolicy(cudaStream_t stream, Options options);
    ~KernelPolicy();
    KernelPolicy(KernelPolicy&&) noexcept;
    KernelPolicy& operator=(KernelPolicy&&) noexcept;

    // Whether CUPTI can be loaded and held now (takes a hold and ends it: unless something else holds CUPTI, that
    // sets it up and gives it back). Never throws.
    static bool available() noexcept;
    // Why not: every place searched for libcupti.so.13 and what failed, or that another tool holds CUPTI's
    // subscriber. Empty when available.
    static std::string unavailable_reason();

    void start();
    Measurement stop();
    // The same, with the user's line for the findings (ScopedTimer passes the line that constructed it);
    // stop() names its caller's return address instead.
    Measurement stop(std::source_location where);

    cudaStream_t stream() const noexcept { return stream_; }
    int device() const noexcept { return device_; }
    // CUPTI's id of the timed stream (KernelActivity::stream of its work); 0 when CUPTI is unavailable.
    std::uint32_t stream_id() const noexcept { return stream_id_; }

private:
    Measurement stop_at(const CallSite& site);
    cudaStream_t stream_ = nullptr;
    int device_ = -1;
    Options options_{};
    std::uint32_t stream_id_ = 0;
    std::string unavailable_;  // set only under IfUnavailable::fail_measurement
    CuptiHold hold_;           // CUPTI, for the policy's lifetime (empty when unavailable)
    std::shared_ptr<detail::KernelScope> scope_;
};

}  // namespace gpuchrono
