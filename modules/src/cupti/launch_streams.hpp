// Which stream a launch, copy or set call sent its work to, read from the parameters CUPTI hands to the launch
// subscriber's callback (the structs of CUPTI's generated_cuda_runtime_api_meta.h and generated_cuda_meta.h).
// A thread-mode KernelPolicy scope waits for these streams instead of the whole device. Internal.
#pragma once

#include <cupti.h>
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuchrono::cupti {

// What one call says of the stream its work went to.
struct CallStream {
    enum class Kind {
        // The work went to `stream`. The default streams are named by their explicit handles, so that the name
        // means the same on every thread and in every translation unit: cudaStreamLegacy for 0 in a call of the
        // legacy default stream's API (and for the synchronous copies and sets, which run on it), and
        // cudaStreamPerThread for 0 in a _ptsz/_ptds call (per-thread default stream builds).
        stream,
        // The call enqueues no work: it edits a graph (cudaGraphAddMemcpyNode, cuGraphExecMemsetNodeSetParams...).
        no_work,
        // CUDA 13's __cudaLaunchKernel, which kernel<<<...>>> compiles to: CUPTI publishes no layout for its
        // parameters, so the streams are those of the driver launch calls made inside it; a call that made none
        // the callback could read is unknown.
        via_driver,
        // A call this code cannot read (a cbid it does not know, a parameter struct absent from this CUDA's
        // headers, several streams at once): the scope waits for the whole device, as it did before.
        unknown,
    };
    Kind kind = Kind::unknown;
    cudaStream_t stream = nullptr;
};

// `params`: CUpti_CallbackData::functionParams of a runtime or driver API callback (may be null: unknown). Never
// calls CUDA (it runs inside CUPTI's callback), never allocates. Any other domain is unknown.
CallStream call_stream(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* params) noexcept;

// The probe of __cudaLaunchKernel's parameter layout (launch_layout_probe.hpp), at the entry of a runtime call made
// while the probe is out: confirms the layout when `cbid` is __cudaLaunchKernel and its parameters, read by the
// signature's layout, are the probe's launch. From then on call_stream() reads __cudaLaunchKernel's stream.
struct LayoutProbeLaunch;
void check_layout_probe(CUpti_CallbackId cbid, const void* params, const LayoutProbeLaunch& launched) noexcept;

// Calls that can end a stream's life: stream and context destruction, primary-context release and reset, device
// reset. A stream handle a scope recorded is not used after one of these ran (launch_subscriber.hpp).
bool destroys_streams(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) noexcept;

// The cbids destroys_streams() names for `domain` (runtime or driver API), to enable; `count` receives their number.
const CUpti_CallbackId* stream_destroying_calls(CUpti_CallbackDomain domain, std::size_t* count) noexcept;

// What one of those calls ends, from its parameters: one stream (cudaStreamDestroy, cuStreamDestroy), or every
// stream of a context or device (`everything`: the context and reset calls, and any call whose parameters this
// CUDA's headers do not lay out).
struct DestroyedStreams {
    bool everything = true;
    cudaStream_t stream = nullptr;
};
DestroyedStreams destroyed_streams(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* params) noexcept;

// One stream a scope's thread sent work to, with the context that was current at the call (the default streams'
// pseudo-handles name the stream of that context).
struct LaunchedStream {
    cudaStream_t stream = nullptr;
    CUcontext context = nullptr;
    bool operator==(const LaunchedStream&) const = default;
};

// The distinct streams of one scope's calls, or "unknown" once a call could not be read. Written inside CUPTI's
// callback on every launch of the scope's thread: the first few streams live in place, so the common scope (one
// or two streams) never allocates there.
class LaunchedStreams {
public:
    // Adds the stream unless already there. An allocation that fails (the 5th distinct stream and on) marks the
    // set unknown: a wait for the device, never a missed stream.
    void add(const LaunchedStream& s) noexcept;
    // Records the first call that could not be read; the set is unknown from then on.
    void mark_unknown(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) noexcept;

    bool known() const noexcept { return !unknown_; }
    CUpti_CallbackDomain unknown_domain() const noexcept { return unknown_domain_; }
    CUpti_CallbackId unknown_cbid() const noexcept { return unknown_cbid_; }
    std::size_t size() const noexcept { return count_ + more_.size(); }
    const LaunchedStream& operator[](std::size_t i) const noexcept { return i < count_ ? inline_[i] : more_[i - count_]; }

private:
    static constexpr std::size_t inline_capacity = 4;
    std::array<LaunchedStream, inline_capacity> inline_{};
    std::size_t count_ = 0;
    std::vector<LaunchedStream> more_;
    bool unknown_ = false;
    CUpti_CallbackDomain unknown_domain_ = CUPTI_CB_DOMAIN_INVALID;
    CUpti_CallbackId unknown_cbid_ = 0;
};

}  // namespace gpuchrono::cupti
