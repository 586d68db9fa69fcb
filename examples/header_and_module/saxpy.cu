// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The header path: a CUDA translation unit, compiled by nvcc, which cannot `import` a module. It includes
// <gpuchrono/gpuchrono.hpp> and gets the very entities `import gpuchrono;` exports (they live in headers in
// the global module), so the Measurement it returns is the module's Measurement.
#include "saxpy.hpp"

#include <gpuchrono/gpuchrono.hpp>

namespace header_and_module {

namespace {

constexpr unsigned threads = 256;

__global__ void saxpy(unsigned n, float a, const float* x, float* y) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

}  // namespace

void launch_saxpy(cudaStream_t stream, unsigned n, float a, const float* x, float* y) {
    saxpy<<<(n + threads - 1) / threads, threads, 0, stream>>>(n, a, x, y);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching saxpy");
}

gpuchrono::Measurement time_saxpy_in_cu(cudaStream_t stream, unsigned n, float a, const float* x, float* y) {
    const unsigned g = (n + threads - 1) / threads, b = threads;
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
    saxpy<<<g, b, 0, stream>>>(n, a, x, y);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching saxpy from the .cu file");
    return t.stop();
}

}  // namespace header_and_module
