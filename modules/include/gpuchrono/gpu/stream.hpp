// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Streams: the checked questions the policies ask about a stream at start and stop, and which stream "the
// default stream" is. Each question costs well under a microsecond on an H100 (cudaStreamQuery 0.4 us,
// cudaStreamIsCapturing 0.08 us) and none waits for the GPU.
//
// GPUCHRONO_DEFAULT_STREAM. nvcc --default-stream per-thread (or CUDA_API_PER_THREAD_DEFAULT_STREAM defined
// before the CUDA headers) makes stream 0 in THAT translation unit the calling thread's per-thread default stream.
// The library is compiled without it, so a stream 0 handed to a timer means, to every policy, the LEGACY
// default stream, whatever the caller's compile mode (the handle is the same null pointer; its meaning is
// decided where the call is compiled):
//   HostSyncPolicy, EventPolicy, DeviceClockPolicy  synchronise / record / copy on the legacy stream, and
//       attach the finding "legacy-default-stream". Work that a per-thread TU launched on its stream 0 is
//       then only ordered with the timer through the legacy stream's implicit synchronisation with blocking
//       streams: what is timed is not what the user meant.
//   HostClockPolicy  asks the legacy stream whether work is pending.
// cudaStreamPerThread (and cudaStreamLegacy) are explicit handles that mean the same in every TU: the library
// accepts both. So, in a TU compiled with per-thread default streams, pass cudaStreamPerThread - or
// GPUCHRONO_DEFAULT_STREAM, which is whichever default stream the TU that expands it means. It is a macro on
// purpose: it is expanded where it is written, so it sees that TU's compile mode (an inline function would be
// one definition for the whole program, and a module would fix it to the library's mode). With
// `import gpuchrono;`, include this header for it (macros do not cross `import`).
// The per-thread stream is per host thread: a timer started on cudaStreamPerThread must be stopped on the
// thread that started it (ScopedTimer in one scope does that).
// With clang as the CUDA compiler, -fgpu-default-stream=per-thread does not define CUDA_API_PER_THREAD_DEFAULT_STREAM
// (nvcc's --default-stream per-thread does): define it as well, or the runtime's API and this macro stay legacy.
// Even then clang 19 launches <<<...>>> on stream 0 to the legacy stream (it calls cudaLaunchKernel, not the
// per-thread variant): in clang-compiled CUDA, pass cudaStreamPerThread to the launch explicitly.
#pragma once

#include <cuda_runtime_api.h>

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define GPUCHRONO_DEFAULT_STREAM (cudaStreamPerThread)
#else
#define GPUCHRONO_DEFAULT_STREAM (cudaStreamLegacy)
#endif

namespace gpuchrono {

// The device a stream belongs to (the current device for the legacy and per-thread default streams, and for
// a stream being captured, which CUDA 13.0 refuses to answer for: see stream.cpp). Safe on a
// stream that is being captured into a graph, and while other threads capture: it asks in relaxed capture mode.
int stream_device(cudaStream_t stream);

// cudaStreamIsCapturing: whether the stream is recording into a graph. Throws CudaError (e.g.
// cudaErrorStreamCaptureImplicit when the legacy stream is asked while a blocking stream captures).
bool stream_is_capturing(cudaStream_t stream);

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
