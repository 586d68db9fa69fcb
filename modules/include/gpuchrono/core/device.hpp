// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Small, checked questions about devices that every policy asks (the streams' are in gpu/stream.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <optional>
#include <string>

namespace gpuchrono {

// The number of CUDA devices; 0 when there is no device or no driver (those are answers, not errors).
// Throws CudaError for any other failure.
int device_count();

// Why no device can be used ("cudaErrorNoDevice: no CUDA-capable device is detected"), or nothing if one can.
std::optional<std::string> no_device_reason();

// The current device of this thread.
int current_device();

// Makes `device` current for the lifetime of the guard and restores the previous one afterwards, so the
// library never leaves a caller's thread on another device.
class DeviceGuard {
public:
    explicit DeviceGuard(int device);
    ~DeviceGuard();
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int previous_;
    bool switched_;
};

}  // namespace gpuchrono
