// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The cold-cache scrub of measure() (CacheState::cold) and of metrics::collect(): before each sample or pass,
// outside what is measured, reset the persisting L2 lines (cudaCtxResetPersistingL2Cache: lines an
// access-policy window marked persisting would survive a plain scrub), write a buffer of twice the L2's size,
// as nvbench's L2 flush writes one (docs/pitfalls-catalog.md #23: a 16 MB read takes 6.1 us warm and 12.4 us cold on an
// H100, whose L2 is 50 MB), then read it back, so that the L2 is left cold and clean: no dirty line whose
// write-back would land in the next kernel (in its DRAM writes, where ncu's --cache-control all has none).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuchrono {

class L2Flush {
public:
    // Allocates the buffer on `device`. Throws CudaError (e.g. out of memory, with the size in the message).
    explicit L2Flush(int device);
    ~L2Flush();
    L2Flush(const L2Flush&) = delete;
    L2Flush& operator=(const L2Flush&) = delete;

    // Enqueues the scrub on `stream` (which must belong to the same device). Throws CudaError.
    void enqueue(cudaStream_t stream);

    std::size_t bytes() const noexcept { return bytes_; }
    int device() const noexcept { return device_; }

private:
    int device_;
    int sms_ = 0;
    std::size_t bytes_ = 0;
    void* buffer_ = nullptr;
};

}  // namespace gpuchrono
