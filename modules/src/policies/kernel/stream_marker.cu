// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "stream_marker.hpp"

#include <atomic>

extern "C" __global__ void gpuchrono_stream_marker() {}

namespace gpuchrono::detail {

namespace {
std::atomic<std::uint32_t> tokens_issued{0};
}

std::uint32_t next_stream_marker_token() noexcept {
    return tokens_issued.fetch_add(1, std::memory_order_relaxed) % stream_marker_tokens + 1;
}

cudaError_t launch_stream_marker(cudaStream_t stream, std::uint32_t token, bool stop) noexcept {
    // cudaLaunchKernel returns this launch's own error (cudaGetLastError could return an earlier one of the user's).
    return cudaLaunchKernel(reinterpret_cast<const void*>(&gpuchrono_stream_marker), dim3(1),
                            dim3(token, stop ? 2u : 1u, 1u), nullptr, 0, stream);
}

cudaError_t launch_batch_marker(cudaStream_t stream, std::uint32_t token) noexcept {
    return cudaLaunchKernel(reinterpret_cast<const void*>(&gpuchrono_stream_marker), dim3(1), dim3(token, 1u, 2u), nullptr, 0,
                            stream);
}

}  // namespace gpuchrono::detail
