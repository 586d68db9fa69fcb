// CUDA 13 compiles kernel<<<...>>> to a call of the runtime's __cudaLaunchKernel, whose parameters CUPTI reports
// but publishes no struct for (launch_streams.hpp: via_driver). Its signature is public (crt/device_functions.h:
// kernel, gridDim, blockDim, args, sharedMem, stream), and CUPTI lays out every other call's parameters as its
// signature, in order. Rather than trust that, the library checks it once per process: it launches a kernel of
// its own with <<<>>> and a shape no user would pick, and the launch callback compares what it reads there with
// what was launched. Only a match lets thread mode read the stream of __cudaLaunchKernel. Internal.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuchrono::cupti {

// The probe's launch: shape, dynamic shared memory, and the stream the caller gives.
struct LayoutProbeLaunch {
    dim3 grid{3, 2, 1};
    dim3 block{7, 1, 1};
    std::size_t shared_bytes = 24;
    cudaStream_t stream = nullptr;
};

// Launches the library's probe kernel with <<<>>> in the probe's shape on `stream` (a .cu compiled by the
// toolkit's nvcc). Returns the launch's error, or, without launching, the user's error pending on the thread.
cudaError_t launch_layout_probe_kernel(const LayoutProbeLaunch& launch) noexcept;

// Whether the probe's launch was seen and read as launched (launch_streams.cpp), and the probe itself: once per
// process (again later while a user's CUDA error is pending on the thread, which the probe must not take), on a
// stream of its own, with the launch callbacks on (subscriber, enable_launch_callbacks). Returns why the layout
// stays unconfirmed, if it does (not an error: thread mode then reads the driver launch inside the call, or waits
// for the device); throws CudaError if the probe's stream cannot be made or destroyed, or its launch fails.
bool kernel_launch_layout_confirmed() noexcept;
const char* probe_kernel_launch_layout();
void set_kernel_launch_layout_confirmed(bool confirmed) noexcept;  // for tests of the reading, without a GPU

}  // namespace gpuchrono::cupti
