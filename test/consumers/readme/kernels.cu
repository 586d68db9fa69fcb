// kernels.cu: nvcc cannot import, so it includes
#include <gpuchrono/gpuchrono.hpp>

__global__ void saxpy(int n, float a, const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

void launch_saxpy(cudaStream_t stream, int n, float a, const float* x, float* y) {
    saxpy<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching saxpy");
}

// The same timer from the .cu side.
gpuchrono::Measurement time_saxpy(cudaStream_t stream, int n, float a, const float* x, float* y) {
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
    launch_saxpy(stream, n, a, x, y);
    return t.stop();
}
