// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The hardware metrics of one series as text (report.txt and the terminal): what was asked and what the
// collection cost, one table row per kernel launch and metric with its unit (ncu's names, so every figure can
// be checked with `ncu --metrics <name>`), the device peaks with how they were derived, the roofline table,
// and the collection's notes.
#pragma once

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <string>

namespace gpuchrono::report {

// "peaks of device 0 (NVIDIA H100 80GB HBM3, compute 9.0, 132 SMs at 1980 MHz): FP32 66.9 TFLOP/s, FP64
// 33.5 TFLOP/s, DRAM 3352 GB/s" and, on the next line, how each was derived.
std::string render_peaks_text(const metrics::DevicePeaks& peaks, const std::string& indent = "    ");

// Every line starts with `indent`; empty string for a result without kernels, roofline or notes.
std::string render_kernel_metrics_text(const metrics::MetricsResult& result, const std::string& indent = "    ");

}  // namespace gpuchrono::report
