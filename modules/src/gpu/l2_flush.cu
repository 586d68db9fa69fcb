// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "gpu/l2_flush.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>

#include <string>

namespace gpuchrono {

namespace {

// Reads the scrub buffer so that the L2 is left holding clean lines. After the memset alone it holds the
// buffer's dirty lines, and their write-back to DRAM would land in the next kernel: hardware metrics then count
// it as that kernel's DRAM writes (seen on the H100: a compute loop that writes 4 KB "wrote" 659 KB), where
// ncu's --cache-control all leaves nothing to write back. `sink` is written only for a value the zeroed buffer
// never holds, so that the loads are not removed.
__global__ void read_l2_scrub_buffer(const uint4* words, std::size_t count, unsigned* sink) {
    unsigned acc = 0;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
        const uint4 w = words[i];
        acc ^= w.x ^ w.y ^ w.z ^ w.w;
    }
    if (acc == 0xdeadbeefu) *sink = acc;
}

}  // namespace

L2Flush::L2Flush(int device) : device_(device) {
    int l2 = 0;
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "reading the L2 size for the L2 flush");
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device),
                         "reading the SM count for the L2 flush");
    // Twice the L2, so that no line of the kernel's data survives whatever the replacement policy keeps.
    bytes_ = 2 * static_cast<std::size_t>(l2 > 0 ? l2 : 0);
    if (bytes_ == 0) return;  // no L2 to flush
    DeviceGuard on(device);
    // The sink word sits past the words read, in the same allocation.
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&buffer_, bytes_ + sizeof(uint4)),
                         "allocating the " + std::to_string(bytes_ >> 20) + " MiB buffer that flushes the L2 (cold cache)");
}

L2Flush::~L2Flush() {
    if (buffer_) (void)cudaFree(buffer_);  // a destructor cannot throw; the context may already be gone
}

void L2Flush::enqueue(cudaStream_t stream) {
    if (!buffer_) return;
    DeviceGuard on(device_);  // the persisting-line reset and the launch go to the current device's context
    GPUCHRONO_CUDA_CHECK(cudaCtxResetPersistingL2Cache(), "resetting persisting L2 lines before a cold sample");
    GPUCHRONO_CUDA_CHECK(cudaMemsetAsync(buffer_, 0, bytes_, stream), "writing the L2 flush buffer before a cold sample");
    auto* words = static_cast<const uint4*>(buffer_);
    std::size_t count = bytes_ / sizeof(uint4);
    auto* sink = reinterpret_cast<unsigned*>(static_cast<char*>(buffer_) + bytes_);
    void* args[] = {&words, &count, &sink};
    GPUCHRONO_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&read_l2_scrub_buffer),
                                          dim3(static_cast<unsigned>(sms_ > 0 ? sms_ : 1) * 4u), dim3(256), args, 0, stream),
                         "reading the L2 flush buffer back (leaves the L2 clean) before a cold sample");
}

}  // namespace gpuchrono
