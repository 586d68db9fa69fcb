// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/measure/measure_record.hpp>

#include <cmath>
#include <cstdio>
#include <string>

namespace gpuchrono {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::string fixed(double v, int decimals) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

std::string percent(double ratio) {
    if (std::isnan(ratio)) return "n/a";
    if (std::isinf(ratio)) return "inf";
    return fixed(ratio * 100.0, ratio < 0.1 ? 2 : 1) + "%";
}

}  // namespace

double MeasureRecord::bytes_per_second() const noexcept {
    if (bytes_per_call == 0 || interval.samples == 0 || !(interval.median_ns > 0)) return nan;
    return static_cast<double>(bytes_per_call) / (interval.median_ns * 1e-9);
}

double MeasureRecord::items_per_second() const noexcept {
    if (items_per_call == 0 || interval.samples == 0 || !(interval.median_ns > 0)) return nan;
    return static_cast<double>(items_per_call) / (interval.median_ns * 1e-9);
}

double MeasureRecord::fraction_of_peak_bandwidth() const noexcept {
    return bytes_per_second() / peak_bytes_per_second;  // NaN propagates from either
}

std::string to_string(const MeasureRecord& r) {
    std::string out = "method " + std::string(to_string(r.method));
    if (r.calls_per_sample > 1) out += " (" + std::to_string(r.calls_per_sample) + " calls per sample)";
    out += ", " + std::string(to_string(r.cache)) + " L2, device " + std::to_string(r.device);
    if (!r.method_note.empty()) out += ": " + r.method_note;
    out += "\nwarm-up " + to_string(r.warmup.time) + ", " + std::to_string(r.warmup.calls) + " calls (first " +
           to_string(r.warmup.first_call) + "): " + r.warmup.ended;
    out += "\nstopped: " + std::string(to_string(r.stop_reason)) + ", " +
           fixed(100.0 * r.interval.coverage, 1) + "% CI of the median " + to_string(Duration::from_ns(r.interval.low_ns)) +
           " .. " + to_string(Duration::from_ns(r.interval.high_ns)) + " (" + percent(r.interval.relative_width()) +
           (r.converged() ? " <= " : ", target ") + percent(r.target_relative_width) + "), " +
           std::to_string(r.interval.samples) + " samples in " + to_string(r.sampling_time);
    if (r.flagged > 0) {
        // Appended piece by piece: g++ 12 misreads "\n" + std::string (-Wrestrict, a known false positive).
        out.append("\n").append(std::to_string(r.flagged)).append(" samples taken under a low or capped SM clock");
        out.append(r.excluded > 0 ? ", " + std::to_string(r.excluded) + " excluded" : std::string(", kept"));
    }
    if (r.bytes_per_call > 0) {
        out += "\nthroughput " + fixed(r.bytes_per_second() / 1e9, 1) + " GB/s";
        if (std::isfinite(r.peak_bytes_per_second))
            out += " (" + percent(r.fraction_of_peak_bandwidth()) + " of the " + fixed(r.peak_bytes_per_second / 1e9, 0) +
                   " GB/s peak)";
    }
    if (r.items_per_call > 0) out += (r.bytes_per_call > 0 ? ", " : "\nthroughput ") + fixed(r.items_per_second() / 1e9, 3) + " G items/s";
    return out;
}

}  // namespace gpuchrono
