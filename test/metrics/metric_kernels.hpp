// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Kernels of known character for the metrics GPU test and bench/metrics_vs_ncu: what each reads and computes is
// known exactly, so a counter can be checked against it. Plain launch functions (compiled by the CUDA compiler
// in metric_kernels.cu), callable from host C++ that imports gpuchrono.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace metric_kernels {

// A device-to-device copy of `bytes` (a multiple of 16) with float4 loads and stores, grid-stride.
void launch_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

// `blocks` x `threads` threads, each doing `fmas_per_thread` dependent single-precision FMAs (a multiple of 4,
// four chains) and one store: exactly blocks*threads*fmas_per_thread FFMA, no FADD/FMUL.
void launch_fma(float* out, unsigned blocks, unsigned threads, unsigned fmas_per_thread, cudaStream_t stream);
inline constexpr std::uint64_t fma_flops(unsigned blocks, unsigned threads, unsigned fmas_per_thread) {
    return 2ull * blocks * threads * fmas_per_thread;
}

// Each thread sums `loads` pseudo-random words of a small table (`table_words`, a power of two: cache resident)
// and stores one word: many loads served by L1/L2, little DRAM traffic.
void launch_gather(float* out, const float* table, std::size_t table_words, unsigned blocks, unsigned threads,
                   unsigned loads, cudaStream_t stream);

// Two trivial kernels of distinct names, for launch-order checks.
void launch_first_named(float* out, cudaStream_t stream);
void launch_second_named(float* out, cudaStream_t stream);

}  // namespace metric_kernels
