// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The untimed work a batch of timed calls queues behind. Private to the library; a plain C++ declaration so that
// code compiled by clang can call it.
//
// Why: a batch's first timed call must not start on an idle GPU (it would run behind the host's launch path, and
// the first kernel after idle runs long: docs/pitfalls.md), so measure()'s methods queue something untimed first.
// One call of the user's own work does that best for short calls. For a call of milliseconds it costs a whole
// call per batch, the largest part of what measure() added beyond its samples on a 2.7 ms torch.mm; a spin of
// the library's that lasts about as long as the host needs to queue the first timed call does the same job.
#pragma once

#include <gpuchrono/core/duration.hpp>

#include <cuda_runtime_api.h>

#include <functional>

namespace gpuchrono::detail {

// Calls longer than this are led by the library's spin, shorter ones by one call of their own.
inline constexpr Duration lead_by_spin_above = Duration::from_us(200);
// How long the spin runs: several times the host time to queue one timed call (a KernelPolicy scope with its two
// marks, or an event pair), so the first timed call is queued before the spin ends.
inline constexpr Duration lead_spin_time = Duration::from_us(150);

// Launches the library's spin of `time` (by %globaltimer) on `stream`, which belongs to `device`. Throws CudaError.
void launch_lead_spin(cudaStream_t stream, int device, Duration time);

// What a batch queues first: `own_call` when `per_call` (the warm-up's estimate) is at most lead_by_spin_above,
// else launch_lead_spin for lead_spin_time.
void queue_lead(cudaStream_t stream, int device, Duration per_call, const std::function<void()>& own_call);

}  // namespace gpuchrono::detail
