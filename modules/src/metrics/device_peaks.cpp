// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/metrics/device_peaks.hpp>

#include <gpuchrono/core/cuda_error.hpp>
#include "metrics/roofline_math.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace gpuchrono::metrics {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// "1980", "1410", "1597.5": clocks as a person writes them.
std::string mhz_text(double mhz) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", mhz);
    return buf;
}

std::string lanes_text(double lanes) { return std::to_string(static_cast<long long>(lanes)); }

int attribute(cudaDeviceAttr what, int device, const char* name) {
    int value = 0;
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&value, what, device),
                         std::string("reading ") + name + " of device " + std::to_string(device));
    return value;
}

}  // namespace

// The CUDA C++ Programming Guide, "Arithmetic Instructions", table "Throughput of Native Arithmetic
// Instructions (number of results per clock cycle per multiprocessor)", rows "32-bit floating-point add,
// multiply, multiply-add" and "64-bit floating-point add, multiply, multiply-add". Per architecture:
//   5.0 5.2 5.3 (Maxwell)        128 / 4
//   6.0 (P100)                    64 / 32      6.1 6.2 (Pascal consumer, Jetson TX2)  128 / 4
//   7.0 7.2 (V100, Xavier)        64 / 32      7.5 (Turing; the guide's footnote)      64 / 2
//   8.0 (A100)                    64 / 32      8.6 8.7 8.9 (GA10x, Orin, Ada)         128 / 2
//   9.0 (H100, H200)             128 / 64
//   10.0 (B200, GB200)           128 / 64      11.0 12.0 12.1 (Thor, RTX 50, GB10)    128 / 2
// 10.3 (B300) cut FP64 to a rate the table does not give per SM: its FP64 peak is left NaN, not guessed.
ArithmeticLanes arithmetic_lanes_per_sm(int major, int minor) {
    const int cc = major * 10 + minor;
    switch (cc) {
        case 50: case 52: case 53: return {128, 4, {}};
        case 60: return {64, 32, {}};
        case 61: case 62: return {128, 4, {}};
        case 70: case 72: return {64, 32, {}};
        case 75: return {64, 2, {}};
        case 80: return {64, 32, {}};
        case 86: case 87: case 89: return {128, 2, {}};
        case 90: return {128, 64, {}};
        case 100: return {128, 64, {}};
        case 103:
            return {128, nan,
                    "compute 10.3: the FP64 rate per SM is not in gpuchrono's table (taken from the CUDA Programming "
                    "Guide), so no FP64 peak is given"};
        case 110: case 120: case 121: return {128, 2, {}};
        default: break;
    }
    ArithmeticLanes unknown;
    unknown.note = "compute " + std::to_string(major) + "." + std::to_string(minor) +
                   " is not in gpuchrono's FP32/FP64 lane table (compute 5.0 .. 12.1, from the CUDA Programming "
                   "Guide's arithmetic-instruction throughput table): no FLOP peaks are given for it rather than a "
                   "guess; an update of gpuchrono adds the architecture";
    return unknown;
}

DevicePeaks device_peaks(const DeviceAttributes& a, double sm_clock_mhz) {
    if (a.sm_count <= 0)
        throw std::invalid_argument("device_peaks: device " + std::to_string(a.device) + " reports " +
                                    std::to_string(a.sm_count) + " SMs; a GPU has at least one");
    const bool clock_given = !std::isnan(sm_clock_mhz);
    if (clock_given && !(std::isfinite(sm_clock_mhz) && sm_clock_mhz > 0))
        throw std::invalid_argument("device_peaks: the SM clock must be a positive number of MHz, got " +
                                    std::to_string(sm_clock_mhz));

    DevicePeaks p;
    p.device = a.device;
    p.device_name = a.name;
    p.compute_major = a.compute_major;
    p.compute_minor = a.compute_minor;
    p.sm_count = a.sm_count;
    p.memory_bus_bits = static_cast<int>(a.memory_bus_bits);
    p.sm_clock_mhz = clock_given ? sm_clock_mhz : (a.max_sm_clock_khz > 0 ? a.max_sm_clock_khz / 1000.0 : nan);
    p.memory_clock_mhz = a.memory_clock_khz > 0 ? a.memory_clock_khz / 1000.0 : nan;

    const std::string clock_origin = clock_given ? "the SM clock given" : "the maximum SM clock attribute";
    const ArithmeticLanes lanes = arithmetic_lanes_per_sm(a.compute_major, a.compute_minor);
    std::string source;
    auto flop_peak = [&](const char* what, double per_sm) {
        if (std::isnan(per_sm)) {
            source += std::string(what) + ": not given (" + lanes.note + "); ";
            return nan;
        }
        if (std::isnan(p.sm_clock_mhz)) {
            source += std::string(what) + ": not given (the device reports no SM clock and none was given); ";
            return nan;
        }
        source += std::string(what) + " = " + std::to_string(a.sm_count) + " SMs x " + lanes_text(per_sm) +
                  " lanes x 2 (FMA) x " + mhz_text(p.sm_clock_mhz) + " MHz (" + clock_origin + "); ";
        return static_cast<double>(a.sm_count) * per_sm * 2.0 * p.sm_clock_mhz * 1e6;
    };
    p.fp32_flops_per_second = flop_peak("FP32", lanes.fp32);
    p.fp64_flops_per_second = flop_peak("FP64", lanes.fp64);
    if (a.memory_clock_khz > 0 && a.memory_bus_bits > 0) {
        p.dram_bytes_per_second = dram_peak_bytes_per_second(a.memory_clock_khz, a.memory_bus_bits);
        source += "DRAM = 2 x " + mhz_text(p.memory_clock_mhz) + " MHz x " + std::to_string(a.memory_bus_bits) +
                  " bit / 8 (memory clock and bus width attributes)";
    } else {
        source += "DRAM: not given (the device reports memory clock " + std::to_string(a.memory_clock_khz) +
                  " kHz and bus width " + std::to_string(a.memory_bus_bits) + " bit)";
    }
    if (lanes.note.empty())
        source += "; lanes per SM for compute " + std::to_string(a.compute_major) + "." + std::to_string(a.compute_minor) +
                  " from the CUDA Programming Guide's arithmetic-instruction throughput table";
    p.source = std::move(source);
    return p;
}

DeviceAttributes read_device_attributes(int device) {
    DeviceAttributes a;
    a.device = device;
    cudaDeviceProp prop{};
    GPUCHRONO_CUDA_CHECK(cudaGetDeviceProperties(&prop, device),
                         "reading the properties of device " + std::to_string(device));
    a.name = prop.name;
    a.compute_major = attribute(cudaDevAttrComputeCapabilityMajor, device, "the compute capability (major)");
    a.compute_minor = attribute(cudaDevAttrComputeCapabilityMinor, device, "the compute capability (minor)");
    a.sm_count = attribute(cudaDevAttrMultiProcessorCount, device, "the SM count");
    // CUDA 13 removed clockRate and memoryClockRate from cudaDeviceProp; the attributes remain in 12.x and 13.x.
    a.max_sm_clock_khz = attribute(cudaDevAttrClockRate, device, "the maximum SM clock");
    a.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, device, "the memory clock");
    a.memory_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device, "the memory bus width");
    return a;
}

DevicePeaks device_peaks(int device, double sm_clock_mhz) { return device_peaks(read_device_attributes(device), sm_clock_mhz); }

}  // namespace gpuchrono::metrics
