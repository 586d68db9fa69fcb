// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Seed 004's experiment: the sum of cubes of n ints, read in two access patterns.
//   chunked      thread t of T reads its own contiguous chunk [t*n/T, (t+1)*n/T): neighbouring threads of a
//                warp read addresses a whole chunk apart, so one load instruction touches 32 cache lines.
//   interleaved  thread t reads t, t+T, t+2T, ...: the 32 threads of a warp read 32 neighbouring ints, one
//                128-byte line per load instruction (coalesced).
// Both add every value's cube into *result (64-bit, so 64 Mi values of 0..9 cannot overflow it).
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuchrono::kernels {

enum class AccessPattern { chunked, interleaved };

const char* to_string(AccessPattern p) noexcept;

// *result must be zeroed by the caller (e.g. cudaMemsetAsync on the same stream) before each launch.
// threads: a multiple of 32 in 32..1024. Throws std::invalid_argument on a bad shape, CudaError if the
// launch is refused.
void launch_sum_of_cubes(AccessPattern pattern, const int* values, std::size_t n, unsigned long long* result,
                         unsigned blocks, unsigned threads, cudaStream_t stream);

// Blocks of `threads` threads one SM holds at once for this kernel (its occupancy).
int sum_of_cubes_resident_blocks_per_sm(AccessPattern pattern, unsigned threads);

}  // namespace gpuchrono::kernels
