#include <gpuchrono/measure/l2_flush.hpp>

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>

#include <string>

namespace gpuchrono {

L2Flush::L2Flush(int device) : device_(device) {
    int l2 = 0;
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "reading the L2 size for the L2 flush");
    // Twice the L2, so that no line of the kernel's data survives whatever the replacement policy keeps.
    bytes_ = 2 * static_cast<std::size_t>(l2 > 0 ? l2 : 0);
    if (bytes_ == 0) return;  // no L2 to flush
    DeviceGuard on(device);
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&buffer_, bytes_),
                         "allocating the " + std::to_string(bytes_ >> 20) + " MiB buffer that flushes the L2 (cold cache)");
}

L2Flush::~L2Flush() {
    if (buffer_) (void)cudaFree(buffer_);  // a destructor cannot throw; the context may already be gone
}

void L2Flush::enqueue(cudaStream_t stream) {
    if (!buffer_) return;
    GPUCHRONO_CUDA_CHECK(cudaCtxResetPersistingL2Cache(), "resetting persisting L2 lines before a cold sample");
    GPUCHRONO_CUDA_CHECK(cudaMemsetAsync(buffer_, 0, bytes_, stream), "writing the L2 flush buffer before a cold sample");
}

}  // namespace gpuchrono
