// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "metrics/roofline_math.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpuchrono::metrics {

double flops(const SassFlopCounts& counts) { return counts.add + counts.mul + 2.0 * counts.fma; }

double arithmetic_intensity(double flop_count, double dram_bytes) {
    if (!(dram_bytes > 0))
        throw std::invalid_argument("arithmetic_intensity: DRAM bytes must be > 0, got " + std::to_string(dram_bytes));
    return flop_count / dram_bytes;
}

double rate_per_second(double amount, double seconds) {
    if (!(seconds > 0))
        throw std::invalid_argument("rate_per_second: the duration must be > 0 s, got " + std::to_string(seconds));
    return amount / seconds;
}

double dram_peak_bytes_per_second(std::int64_t memory_clock_khz, std::int64_t bus_width_bits) {
    if (memory_clock_khz <= 0 || bus_width_bits <= 0)
        throw std::invalid_argument("dram_peak_bytes_per_second: memory clock " + std::to_string(memory_clock_khz) +
                                    " kHz and bus width " + std::to_string(bus_width_bits) +
                                    " bits must both be > 0 (the device did not report them)");
    return 2.0 * static_cast<double>(memory_clock_khz) * 1e3 * static_cast<double>(bus_width_bits) / 8.0;
}

double attainable_flops_per_second(double intensity, double peak_flops_per_second, double peak_bytes_per_second) {
    return std::min(peak_flops_per_second, intensity * peak_bytes_per_second);
}

double percent_of_peak(double achieved, double peak) {
    if (!(peak > 0)) throw std::invalid_argument("percent_of_peak: the peak must be > 0, got " + std::to_string(peak));
    return 100.0 * achieved / peak;
}

}  // namespace gpuchrono::metrics
