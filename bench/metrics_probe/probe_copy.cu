// Probe for issue 23: one 256 MiB device-to-device copy kernel, so that ncu's reading of its DRAM
// counters on the lent GPU can be set beside the byte count the program knows it moved.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void copy_kernel(const float4* in, float4* out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}
int main() {
  const size_t bytes = size_t(256) << 20, n = bytes / sizeof(float4);
  float4 *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, bytes) != cudaSuccess || cudaMalloc(&out, bytes) != cudaSuccess) { std::puts("cudaMalloc failed"); return 1; }
  cudaMemset(in, 1, bytes); cudaMemset(out, 0, bytes);
  int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  copy_kernel<<<sms * 8, 256>>>(in, out, n);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("copy of %zu bytes: %s (expected dram read %zu, write %zu)\n", bytes, cudaGetErrorString(e), bytes, bytes);
  return e == cudaSuccess ? 0 : 1;
}
