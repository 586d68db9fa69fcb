// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>

namespace gpuchrono {

namespace {
bool means_no_device(cudaError_t e) {
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorNotSupported ||
           e == cudaErrorInvalidDevice;
}
}  // namespace

int device_count() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (means_no_device(e)) {
        (void)cudaGetLastError();
        return 0;
    }
    check(e, "cudaGetDeviceCount(&n)", "counting CUDA devices");
    return n;
}

std::optional<std::string> no_device_reason() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    }
    if (n == 0) return std::string("cudaGetDeviceCount reported 0 devices");
    return std::nullopt;
}

int current_device() {
    int device = -1;
    GPUCHRONO_CUDA_CHECK(cudaGetDevice(&device), "reading the current device");
    return device;
}

DeviceGuard::DeviceGuard(int device) : previous_(current_device()), switched_(previous_ != device) {
    if (switched_) GPUCHRONO_CUDA_CHECK(cudaSetDevice(device), "making the stream's device current");
}

DeviceGuard::~DeviceGuard() {
    // A destructor cannot report; restoring can only fail if the context is already broken, and the next
    // checked call on this thread reports that.
    if (switched_) (void)cudaSetDevice(previous_);
}

}  // namespace gpuchrono
