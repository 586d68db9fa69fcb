// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the library holds on the GPU between timers, and giving it back.
//
// Timing events (EventPool) and probe buffers with their pinned host mirrors (ProbeBufferPool) are made once
// and lent again, so warm timers allocate nothing. They are freed:
// - when the process ends: a handler registered with std::atexit right after the library's first CUDA
//   allocation runs before the CUDA runtime tears itself down (which it also arranges at exit, earlier), so
//   the frees still reach a live context. Errors there are not reported: a context that a sticky error
//   poisoned (docs/errors.md) refuses every call, and its memory goes with it anyway;
// - when asked, with release_pools(), e.g. before cudaDeviceReset or a leak check, or to give the memory back
//   in a long-running program that timed once.
// A lease still out (a running timer, a pending Measurement) is not touched: it goes back to the pool when it
// ends and is freed at the next release or at exit. Timers keep working after a release; they allocate anew.
#pragma once

namespace gpuchrono {

// Frees every idle pooled event and probe buffer on every device. A probe buffer abandoned while GPU work could
// still write into it (its scope failed or was abandoned mid-flight) is freed once its device has drained:
// this waits for that device (cudaDeviceSynchronize), and only when such a buffer exists. What belongs to a
// context that no longer exists (cudaDeviceReset) is forgotten, never freed twice. Everything is attempted;
// then the first failure, if any, is thrown as CudaError naming the call and the device.
void release_pools();

namespace detail {
// Registers, once per process, the release at exit described above. The pools call it after their first
// successful allocation.
void release_pools_at_exit() noexcept;
}  // namespace detail

}  // namespace gpuchrono
