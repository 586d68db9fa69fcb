// The cold-cache scrub of measure() (CacheState::cold): before each sample, outside its interval, reset the
// persisting L2 lines (cudaCtxResetPersistingL2Cache: lines an access-policy window marked persisting would
// survive a plain scrub) and write a buffer of twice the L2's size, as nvbench's L2 flush writes one
// (PITFALLS.md #23: a 16 MB read takes 6.1 us warm and 12.4 us cold on an H100, whose L2 is 50 MB).
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
    std::size_t bytes_ = 0;
    void* buffer_ = nullptr;
};

}  // namespace gpuchrono
