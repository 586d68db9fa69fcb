// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Kernels that each lean on one resource the GPU shares between streams, with the grid chosen by the caller, so
// a benchmark can set them beside each other and know what they compete for:
//   stream copy  DRAM bandwidth: every byte read once and written once, a few loads in flight per thread;
//   FMA chains   the SMs' issue slots: independent chains of dependent FMAs, no memory traffic but one store.
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuchrono::kernels {

// dst[i] = src[i] for i < n float4s, grid-stride over `blocks` x `threads` threads. Throws std::invalid_argument on
// an empty shape, CudaError if the launch is refused.
void launch_stream_copy(void* dst, const void* src, std::size_t float4s, unsigned blocks, unsigned threads,
                        cudaStream_t stream);

// Every thread runs `iterations` rounds of 8 independent dependent-FMA chains, then stores one float to
// out[global thread index] (`out` holds blocks x threads floats). Throws as launch_stream_copy.
void launch_fma_chains(float* out, unsigned iterations, unsigned blocks, unsigned threads, cudaStream_t stream);

}  // namespace gpuchrono::kernels
