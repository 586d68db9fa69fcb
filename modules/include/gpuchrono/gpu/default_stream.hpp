// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What "the default stream" means, and how to pass the one your code means.
//
// nvcc --default-stream per-thread (or CUDA_API_PER_THREAD_DEFAULT_STREAM defined before the CUDA headers)
// makes stream 0 in THAT translation unit the calling thread's per-thread default stream. The library is
// compiled without it, so a stream 0 handed to a timer means, to every policy, the LEGACY default stream,
// whatever the caller's compile mode (the handle is the same null pointer; its meaning is decided where the
// call is compiled):
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
