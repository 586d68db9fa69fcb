// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The device's peak figures that roofline points and "% of peak" divide by: FP32 and FP64 FLOP/s from the SM
// count, the FP32/FP64 lanes per SM of the compute capability and an SM clock; DRAM bytes/s from the memory
// clock and bus width. Everything comes from the driver's attributes of the device at hand (nothing assumes
// an H100), and DevicePeaks::source spells out each product so a reader can redo it.
//
// The lanes per SM are the "results per clock cycle per multiprocessor" of 32-bit and 64-bit floating-point
// add, multiply and multiply-add in the CUDA C++ Programming Guide's arithmetic-instruction throughput table
// (docs/metrics.md reproduces it). A compute capability the table does not hold (a GPU newer than this
// library) gets NaN FLOP peaks and a source that says so: a guessed peak would make every roofline wrong.
#pragma once

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace gpuchrono::metrics {

// FP32 and FP64 FMA lanes of one SM (results per clock per multiprocessor); NaN for one the table lacks.
struct ArithmeticLanes {
    double fp32 = std::numeric_limits<double>::quiet_NaN();
    double fp64 = std::numeric_limits<double>::quiet_NaN();
    std::string note;  // why a figure is NaN, else empty
};

// The Programming Guide's figures for compute capability major.minor (5.0 .. 12.1); NaN and a note otherwise.
ArithmeticLanes arithmetic_lanes_per_sm(int compute_major, int compute_minor);

// The attribute values device_peaks() reads (cudaDeviceGetAttribute), as plain numbers so the arithmetic is
// testable without a device. Clocks in kHz as the attributes give them.
struct DeviceAttributes {
    int device = -1;
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    int sm_count = 0;                   // cudaDevAttrMultiProcessorCount
    std::int64_t max_sm_clock_khz = 0;  // cudaDevAttrClockRate: the highest SM clock the board may run
    std::int64_t memory_clock_khz = 0;  // cudaDevAttrMemoryClockRate
    std::int64_t memory_bus_bits = 0;   // cudaDevAttrGlobalMemoryBusWidth
};

// Reads the attributes of `device` (throws CudaError naming the attribute that could not be read).
DeviceAttributes read_device_attributes(int device);

// The peaks of a device with these attributes. sm_clock_mhz: the SM clock the FLOP peaks assume (e.g. the
// clock a run observed); NaN takes the attribute's maximum clock. Throws std::invalid_argument for an SM clock
// that is given but not a positive finite number, or for a device without SMs. A figure that cannot be
// derived (memory clock reported as 0, a compute capability the lane table lacks) stays NaN, with the reason
// in `source`.
DevicePeaks device_peaks(const DeviceAttributes& attributes,
                         double sm_clock_mhz = std::numeric_limits<double>::quiet_NaN());

// The same from the device itself: read_device_attributes(device), then the overload above.
DevicePeaks device_peaks(int device, double sm_clock_mhz = std::numeric_limits<double>::quiet_NaN());

}  // namespace gpuchrono::metrics
