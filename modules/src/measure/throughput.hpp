// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The peak memory bandwidth a throughput is measured against: twice the memory clock (double data rate)
// times the bus width, from the device's attributes (cudaDevAttrMemoryClockRate, GlobalMemoryBusWidth: the
// cudaDeviceProp fields for them left in CUDA 13). An H100 SXM: 2 x 2619 MHz x 5120 bit = 3.35 TB/s.
#pragma once

namespace gpuchrono {

// Bytes per second; NaN when either attribute is not positive.
double peak_memory_bandwidth(long long memory_clock_khz, int bus_width_bits) noexcept;

// Of `device`, asked of the runtime; throws CudaError naming the attribute that could not be read.
double device_peak_memory_bandwidth(int device);

}  // namespace gpuchrono
