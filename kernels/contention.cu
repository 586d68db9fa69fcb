// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "contention.hpp"

#include <gpuchrono/core/cuda_error.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

// Four loads issued before their stores: enough bytes in flight per thread that two blocks of 256 threads per SM
// keep DRAM busy.
__global__ void stream_copy_kernel(float4* __restrict__ dst, const float4* __restrict__ src, std::size_t n) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        const float4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < n; i += stride) dst[i] = src[i];
}

// Eight independent chains hide the FMA latency with few warps, so the kernel is bound by issue slots: another
// kernel's warps on the same SM take slots from it.
__global__ void fma_chains_kernel(float* out, unsigned iterations) {
    const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    const float m = 0.999f + static_cast<float>(threadIdx.x & 1u) * 1e-6f;
    float c[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) c[k] = static_cast<float>(threadIdx.x + k) * 1e-3f;
    for (unsigned i = 0; i < iterations; ++i) {
#pragma unroll
        for (int k = 0; k < 8; ++k) c[k] = fmaf(c[k], m, 0.5f);
    }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; ++k) sum += c[k];
    out[id] = sum;
}

void check_shape(unsigned blocks, unsigned threads, const char* who) {
    if (blocks == 0 || threads == 0)
        throw std::invalid_argument(std::string("gpuchrono::kernels::") + who + ": blocks and threads must be > 0");
}

}  // namespace

void launch_stream_copy(void* dst, const void* src, std::size_t float4s, unsigned blocks, unsigned threads,
                        cudaStream_t stream) {
    check_shape(blocks, threads, "launch_stream_copy");
    stream_copy_kernel<<<blocks, threads, 0, stream>>>(static_cast<float4*>(dst), static_cast<const float4*>(src), float4s);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching stream_copy_kernel");
}

void launch_fma_chains(float* out, unsigned iterations, unsigned blocks, unsigned threads, cudaStream_t stream) {
    check_shape(blocks, threads, "launch_fma_chains");
    fma_chains_kernel<<<blocks, threads, 0, stream>>>(out, iterations);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching fma_chains_kernel");
}

}  // namespace gpuchrono::kernels
