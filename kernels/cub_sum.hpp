// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A library call whose kernels the caller did not write: a CUB DeviceReduce::Sum (CCCL, from the toolkit) over
// device-resident floats. KernelPolicy lists its internal kernels by name. Plain C++ declarations.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuchrono::kernels {

class CubSum {
public:
    // `count` floats, all 1.0f, and CUB's scratch space, on the current device. Throws CudaError.
    explicit CubSum(std::size_t count);
    ~CubSum();
    CubSum(const CubSum&) = delete;
    CubSum& operator=(const CubSum&) = delete;

    // Enqueues the reduction on `stream` (CUB launches its kernels there). Throws CudaError.
    void launch(cudaStream_t stream);
    // Waits for `stream` and returns the sum (== count when the kernels ran).
    double result(cudaStream_t stream) const;

private:
    std::size_t count_;
    float* in_ = nullptr;
    float* out_ = nullptr;
    void* scratch_ = nullptr;
    std::size_t scratch_bytes_ = 0;
};

}  // namespace gpuchrono::kernels
