// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/distributed/device_identity.hpp>

#include <gpuchrono/core/cuda_error.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

namespace gpuchrono::distributed {

std::string format_uuid(const unsigned char (&b)[16]) {
    char text[64];
    std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
                  b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return text;
}

DeviceIdentity describe_device_identity(int index) {
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, index), "cudaGetDeviceProperties", "describing device " + std::to_string(index) + " for a rank report");
    DeviceIdentity id;
    id.index = index;
    id.name = p.name;
    unsigned char bytes[16];
    for (int i = 0; i < 16; ++i) bytes[i] = static_cast<unsigned char>(p.uuid.bytes[i]);
    id.uuid = format_uuid(bytes);
    char bus[32];
    std::snprintf(bus, sizeof bus, "%04x:%02x:%02x.0", static_cast<unsigned>(p.pciDomainID), static_cast<unsigned>(p.pciBusID),
                  static_cast<unsigned>(p.pciDeviceID));
    id.pci_bus_id = bus;
    return id;
}

}  // namespace gpuchrono::distributed
