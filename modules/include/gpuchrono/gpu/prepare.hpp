// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// prepare(stream): the library's first-use work on a device, done when the program chooses.
//
// The first EventPolicy or HostSyncPolicy scope on a device does that work before its interval: NVML's loading
// and first read, the event-pair floor, the pooled events, the library's warm-up kernel (its module loads on
// the first launch). None of it is inside the interval, but on the H100 the user's next launch after such driver
// work runs slow, however many of the library's own launches come between: the first scope of a 10 us kernel
// read about a third (4-7 us) above the steady median (bench_first_scope [1]). Called once before the
// program's own warm-up, prepare() moves that work there and the warm-up takes the cost (+2..+8%). Like
// cudaFree(0) for the context.
#pragma once

#include <cuda_runtime_api.h>

namespace gpuchrono {

// Does the first-use work for the device of `stream` now (what the GPU-state switch leaves out, it leaves out:
// gpu_state.hpp), launches the library's warm-up kernel on `stream` and waits for it. Its NVML read counts as the
// device's periodic one: timers starting in the next 250 ms read no GPU state (and so make no GPU-state
// finding); later ones read it as usual. Throws CudaError (no device, a broken context) and TimerError when
// `stream` is being captured (nothing can be measured or waited for inside a capture).
void prepare(cudaStream_t stream);

}  // namespace gpuchrono
