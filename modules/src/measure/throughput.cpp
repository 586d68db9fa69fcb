// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "measure/throughput.hpp"

#include <gpuchrono/core/cuda_error.hpp>

#include <cuda_runtime_api.h>

#include <limits>

namespace gpuchrono {

double peak_memory_bandwidth(long long memory_clock_khz, int bus_width_bits) noexcept {
    if (memory_clock_khz <= 0 || bus_width_bits <= 0) return std::numeric_limits<double>::quiet_NaN();
    return 2.0 * static_cast<double>(memory_clock_khz) * 1e3 * static_cast<double>(bus_width_bits) / 8.0;
}

double device_peak_memory_bandwidth(int device) {
    int clock_khz = 0, bus_bits = 0;
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device),
                         "reading the memory clock rate for the peak bandwidth");
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device),
                         "reading the memory bus width for the peak bandwidth");
    return peak_memory_bandwidth(clock_khz, bus_bits);
}

}  // namespace gpuchrono
