// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Derived figures from counter values and device attributes: FLOPs from the sass per-thread
// instruction counters (a fused multiply-add is two operations), arithmetic intensity, achieved rates, and
// the DRAM peak from the attributes the driver reports. Pure arithmetic, device-free, so it is tested on CPU
// against hand-computed values; nothing here assumes a particular GPU.
#pragma once

#include <cstdint>

namespace gpuchrono::metrics {

// smsp__sass_thread_inst_executed_op_{x}add/mul/fma_pred_on.sum of one precision.
struct SassFlopCounts {
    double add = 0;
    double mul = 0;
    double fma = 0;
};

// add + mul + 2 fma.
double flops(const SassFlopCounts& counts);

// FLOPs per DRAM byte; throws std::invalid_argument when dram_bytes is not > 0 (no intensity without traffic).
double arithmetic_intensity(double flop_count, double dram_bytes);

// amount / seconds; throws std::invalid_argument when seconds is not > 0.
double rate_per_second(double amount, double seconds);

// Double-data-rate peak: 2 transfers per clock x bus width in bytes. memory_clock_khz and bus_width_bits as
// cudaDevAttrMemoryClockRate and cudaDevAttrGlobalMemoryBusWidth give them; throws on zero inputs.
double dram_peak_bytes_per_second(std::int64_t memory_clock_khz, std::int64_t bus_width_bits);

// The roofline's attainable rate at this intensity: min(compute peak, intensity x bandwidth peak).
double attainable_flops_per_second(double intensity, double peak_flops_per_second, double peak_bytes_per_second);

// Percent of a peak, 100 x achieved / peak; throws when peak is not > 0.
double percent_of_peak(double achieved, double peak);

}  // namespace gpuchrono::metrics
