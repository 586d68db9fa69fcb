// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A launch of the library's own empty kernel, made by a timer's start right after its rare, slow bookkeeping
// (NVML reads, gpu_state.hpp) and before its interval begins. Private to the library; a plain C++ declaration
// so that the policies compiled by clang can call it.
//
// Why: on an H100 in a VM (driver 580, CUDA 13.0) the first kernel launch after the launching thread paused -
// a 300 ms synchronisation, the NVML reads at a timer's start - cost 40-50 us of host time instead of about 4
// (gpu-run-1: a host clock around a single launch after a 300 ms synchronisation read 46 us; event timers whose
// start read NVML measured 30-50 us more than the same timers without, and an empty kernel 56.8 us). Launched
// on the timed stream before the start record, this kernel pays that cost outside the interval, in the
// stream's own order, whether the cost is the host's or the stream's. It does nothing on the GPU, and the
// timer does not wait for it.
#pragma once

#include <cuda_runtime_api.h>

namespace gpuchrono::detail {

// Launches the empty kernel on `stream`, which belongs to `device`, and returns without waiting. The first call
// for a device launches it six times: under lazy module loading the first launch loads the library's module
// there, itself driver work that the launch after it would pay for again, and the first timer's first-use work
// is the longest pause of all (see launch_warmup.cu). Throws CudaError.
void launch_warmup_kernel(cudaStream_t stream, int device);

// After a timer's first-use work on a device (NVML's loading, the event floor, the first events): launches the
// empty kernel, timing each launch call on the host, until three calls in a row cost at most 1.25x the cheapest
// one seen (at least 8 launches, at most 2 ms), so that the user's next launch finds the launch path as warm as
// in the steady state. One launch after NVML's loading was not enough (the user's next launch still
// paid 4-7 us, the first EventPolicy scope +31%). With `stream_idle` (nothing of the user's is queued) it then
// waits for its own kernels, so the start event is not recorded behind them (that would hide the user's launch
// latency, which every later scope's interval holds). Returns the launches made. Throws CudaError.
int settle_launches(cudaStream_t stream, int device, bool stream_idle);

// Whether settle_launches has run for `device` in this process.
bool launches_settled(int device) noexcept;

}  // namespace gpuchrono::detail
