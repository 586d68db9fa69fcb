// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cub_sum.hpp"

#include <gpuchrono/core/cuda_error.hpp>

#include <cub/device/device_reduce.cuh>

#include <vector>

namespace gpuchrono::kernels {

CubSum::CubSum(std::size_t count) : count_(count) {
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&in_, count * sizeof(float)), "allocating the CUB sum input");
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&out_, sizeof(float)), "allocating the CUB sum output");
    const std::vector<float> ones(count, 1.0f);
    GPUCHRONO_CUDA_CHECK(cudaMemcpy(in_, ones.data(), count * sizeof(float), cudaMemcpyHostToDevice),
                         "filling the CUB sum input");
    GPUCHRONO_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, scratch_bytes_, in_, out_, static_cast<int>(count)),
                         "asking CUB for its scratch size");
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&scratch_, scratch_bytes_), "allocating CUB's scratch space");
}

CubSum::~CubSum() {
    (void)cudaFree(scratch_);
    (void)cudaFree(out_);
    (void)cudaFree(in_);
}

void CubSum::launch(cudaStream_t stream) {
    GPUCHRONO_CUDA_CHECK(cub::DeviceReduce::Sum(scratch_, scratch_bytes_, in_, out_, static_cast<int>(count_), stream),
                         "cub::DeviceReduce::Sum");
}

double CubSum::result(cudaStream_t stream) const {
    float sum = 0.0f;
    GPUCHRONO_CUDA_CHECK(cudaMemcpyAsync(&sum, out_, sizeof(float), cudaMemcpyDeviceToHost, stream), "reading the CUB sum");
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for the CUB sum");
    return sum;
}

}  // namespace gpuchrono::kernels
