// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// nvtx_ncu_probe: the program test/ncu_nvtx_check.sh runs under Nsight Compute to see gpuchrono's NVTX ranges.
// It launches kernel_alpha_outside_scope outside any gpuchrono scope (before and after), and
// kernel_beta_inside_scope inside a ScopedTimer bound to the Series "inside". So
//     ncu --nvtx --nvtx-include "gpuchrono@inside/" nvtx_ncu_probe
// must profile kernel_beta_inside_scope and never kernel_alpha_outside_scope. It is a .cu file on purpose: the
// ranges are pushed from nvcc-compiled code, through the header the module shares.
// The program prints neither kernel's name, so a name in ncu's output is ncu's. Exit 77 without a device.
#include <gpuchrono/gpuchrono.hpp>

#include <cstdio>
#include <exception>

namespace {

__global__ void kernel_alpha_outside_scope(int* count) {
    if (threadIdx.x == 0) atomicAdd(count, 1);
}

__global__ void kernel_beta_inside_scope(int* count) {
    if (threadIdx.x == 0) atomicAdd(count, 100);
}

}  // namespace

int main() try {
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("skipped: no CUDA device (%s)\n", why->c_str());
        return 77;
    }
    // The tiny timed kernel rightly raises findings (below the event floor): they become NVTX marks, not noise.
    gpuchrono::set_finding_reaction(gpuchrono::Reaction::collect);
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the probe's stream");
    int* count = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&count, sizeof(int)), "allocating the probe's counter");
    GPUCHRONO_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream), "clearing the probe's counter");

    kernel_alpha_outside_scope<<<1, 32, 0, stream>>>(count);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the kernel outside the scope");
    gpuchrono::Series inside("inside");
    {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> timer(inside, stream);
        kernel_beta_inside_scope<<<1, 32, 0, stream>>>(count);
        GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the kernel inside the scope");
    }
    kernel_alpha_outside_scope<<<1, 32, 0, stream>>>(count);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the kernel outside the scope again");

    int host_count = 0;
    GPUCHRONO_CUDA_CHECK(cudaMemcpyAsync(&host_count, count, sizeof(int), cudaMemcpyDeviceToHost, stream), "reading the counter");
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for the probe's kernels");
    GPUCHRONO_CUDA_CHECK(cudaFree(count), "freeing the probe's counter");
    GPUCHRONO_CUDA_CHECK(cudaStreamDestroy(stream), "destroying the probe's stream");
    const bool ran = host_count == 102;
    std::printf("nvtx_ncu_probe: %s (counter %d, expected 102); NVTX %s; the scope measured %s\n",
                ran ? "all three kernels ran" : "a kernel did not run", host_count, gpuchrono::nvtx_enabled() ? "on" : "off",
                inside.failed_count() == 0 ? gpuchrono::to_string(inside.durations().front()).c_str() : inside.first_error().c_str());
    return ran ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "nvtx_ncu_probe: %s\n", e.what());
    return 1;
}
