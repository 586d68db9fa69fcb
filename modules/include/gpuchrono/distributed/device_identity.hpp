// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which physical GPU a measurement ran on. The CUDA ordinal alone does not say it: CUDA_VISIBLE_DEVICES
// renumbers devices per process, so "device 0" of two ranks may be two GPUs, or one GPU shared. The UUID and
// the PCI bus id name the board itself, as nvidia-smi does.
#pragma once

#include <string>

namespace gpuchrono::distributed {

struct DeviceIdentity {
    int index = -1;          // CUDA ordinal in this process
    std::string name;        // "NVIDIA H100 80GB HBM3"
    std::string uuid;        // "GPU-8d3c1f0e-...", as nvidia-smi -L prints it
    std::string pci_bus_id;  // "0000:18:00.0" (domain:bus:device.function)

    friend bool operator==(const DeviceIdentity&, const DeviceIdentity&) = default;
};

// From cudaGetDeviceProperties (throws gpuchrono::CudaError when the runtime refuses).
DeviceIdentity describe_device_identity(int index);

// The 16 UUID bytes as nvidia-smi writes them: "GPU-" then 8-4-4-4-12 hex digits.
std::string format_uuid(const unsigned char (&bytes)[16]);

}  // namespace gpuchrono::distributed
