// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Checked questions about a stream that the policies ask at start and stop. Each costs well under a
// microsecond on an H100 (cudaStreamQuery 0.4 us, cudaStreamIsCapturing 0.08 us) and none waits for the GPU.
#pragma once

#include <gpuchrono/core/device.hpp>  // stream_is_capturing

#include <cuda_runtime_api.h>

namespace gpuchrono {

// cudaStreamQuery: true when all work on the stream has completed, false while some is pending. Throws
// CudaError for any other answer (an earlier kernel's fault surfaces here). Never call it on a capturing
// stream: a query invalidates the capture.
bool stream_is_idle(cudaStream_t stream);

// cudaEventQuery: true when the event has completed, false while the work before it is pending. Throws CudaError
// for any other answer.
bool event_is_complete(cudaEvent_t event);

// The legacy default stream: 0 in code built without --default-stream per-thread (as this library is), or
// cudaStreamLegacy. cudaStreamPerThread is not.
constexpr bool is_legacy_default_stream(cudaStream_t stream) noexcept {
    return stream == nullptr || stream == cudaStreamLegacy;
}

// While alive, this thread's stream-capture mode is cudaStreamCaptureModeRelaxed; the previous mode comes back
// at the end. In the default (global) mode, calls such as cudaStreamCreate or cudaEventSynchronize made while
// some stream captures are "potentially unsafe" and invalidate that capture; the library's own bookkeeping
// calls, which touch nothing captured, run under this guard.
class RelaxedCaptureMode {
public:
    RelaxedCaptureMode() noexcept { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }
    ~RelaxedCaptureMode() { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }
    RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
    RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

private:
    cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
};

}  // namespace gpuchrono
