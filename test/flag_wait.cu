#include "flag_wait.hpp"

#include <gpuchrono/core/cuda_error.hpp>

namespace gpuchrono::test {

namespace {

__global__ void wait_for_flag_kernel(const volatile int* flag) {
    if (threadIdx.x != 0) return;
    while (*flag == 0) {
#if __CUDA_ARCH__ >= 700
        __nanosleep(1000);  // leave the memory system to others between reads
#endif
    }
}

__global__ void empty_kernel() {}

}  // namespace

void launch_wait_for_flag(const volatile int* flag, cudaStream_t stream) {
    wait_for_flag_kernel<<<1, 32, 0, stream>>>(flag);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching wait_for_flag_kernel");
}

void launch_empty_through_cuda_launch_kernel(cudaStream_t stream) {
    GPUCHRONO_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&empty_kernel), dim3(1), dim3(1), nullptr, 0, stream),
                         "launching an empty kernel through cudaLaunchKernel");
}

}  // namespace gpuchrono::test
