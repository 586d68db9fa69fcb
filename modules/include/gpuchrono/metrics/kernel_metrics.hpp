// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a metrics collection yields: per kernel name, the values of the metrics asked for, by ncu's
// names and with their units, and the device peaks the derived percentages and the roofline were computed
// against. Plain data, host only, device-free and without range-v3, so the collector (metrics/detail/), the
// measure() option, the report renderers and the Boost.Test check all meet here and a report round-trips it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono::metrics {

inline constexpr double metric_not_measured = std::numeric_limits<double>::quiet_NaN();

// One metric of one kernel. `unit` as NVPW's metric description gives it ("byte", "%", "inst", "ns", "warp",
// "cycle", "byte/second", "" for a ratio); `value` NaN when the device could not evaluate it.
struct MetricValue {
    std::string name;
    double value = metric_not_measured;
    std::string unit;

    // What the value's unit says of it when it cannot hold it (out_of_range_note); empty otherwise.
    std::string note() const;
};

// A note for a value its unit cannot hold: a percentage outside 0..100, or a negative count, time, size or
// rate; empty for a value in range, NaN, or a ratio (unit ""). The counters behind such a value are read apart
// (e.g. a hit rate's hits and lookups), so it is shown as the device gave it, never clamped, but flagged: it is
// not evidence of more than 100% or of a negative amount.
std::string out_of_range_note(std::string_view unit, double value);

// The metrics of every launch of one kernel name inside a scope (or of measure()'s callable). A kernel launched
// several times gets one entry per launch, in launch order: `launch` numbers them from 0, so nothing is
// averaged away silently.
struct KernelMetrics {
    std::string kernel;           // the name CUPTI gives the range: the kernel's demangled name
    std::uint64_t launch = 0;     // which launch of that name in the scope, from 0
    int device = -1;
    std::vector<MetricValue> values;

    // The value named `name`, or nullptr.
    const MetricValue* find(std::string_view name) const noexcept;
};

// The device's peak figures the percentages and the roofline divide by, each with how it was obtained (so a
// reader can check it): from the device attributes and the SM clock the run observed.
struct DevicePeaks {
    int device = -1;
    std::string device_name;
    int compute_major = 0;
    int compute_minor = 0;
    int sm_count = 0;
    double sm_clock_mhz = metric_not_measured;      // the clock the FLOP peaks assume
    double memory_clock_mhz = metric_not_measured;
    int memory_bus_bits = 0;
    double dram_bytes_per_second = metric_not_measured;
    double fp32_flops_per_second = metric_not_measured;
    double fp64_flops_per_second = metric_not_measured;
    std::string source;  // e.g. "attributes: 132 SMs x 128 FP32 lanes x 2 x 1980 MHz; 2619 MHz x 5120 bit x 2"
};

// One kernel's roofline point, derived from its sass FLOP counters, DRAM bytes and GPU time.
struct RooflinePoint {
    std::string kernel;
    std::uint64_t launch = 0;
    std::string precision;          // "fp32" or "fp64": the one with the larger FLOP count
    double flops = metric_not_measured;
    double dram_bytes = metric_not_measured;
    double seconds = metric_not_measured;            // gpu__time_duration.sum
    double intensity = metric_not_measured;          // FLOP per DRAM byte
    double achieved_flops_per_second = metric_not_measured;
    double attainable_flops_per_second = metric_not_measured;  // min(compute peak, intensity x DRAM peak)
    std::string bound;              // "memory" or "compute": which roof is lower at this intensity
};

// The whole result of one collection.
struct MetricsResult {
    std::vector<std::string> requested;  // metric names in the order asked (sets expanded)
    std::vector<KernelMetrics> kernels;  // launch order
    std::vector<RooflinePoint> roofline; // kernels whose counters allow a point
    std::optional<DevicePeaks> peaks;
    std::size_t passes = 0;              // replay passes the metrics needed per kernel
    double collection_ns = metric_not_measured;  // host wall time the collection took
    std::vector<std::string> notes;      // e.g. which kernels could not be profiled and why

    // The value of `metric` for the first launch of `kernel` (empty kernel: the only kernel, or the first when
    // all launches are of one name); nullptr when absent.
    const MetricValue* find(std::string_view kernel, std::string_view metric) const noexcept;
};

}  // namespace gpuchrono::metrics
