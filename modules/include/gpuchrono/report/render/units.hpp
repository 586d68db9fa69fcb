// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Number formatting shared by the renderers: one time unit per table column or plot axis, chosen from the
// values it holds, and plain numbers to three significant digits.
#pragma once

#include <span>
#include <string>

namespace gpuchrono::report {

struct TimeUnit {
    const char* name;    // "ns", "us", "ms", "s"
    double ns_per_unit;  // 1, 1e3, 1e6, 1e9
};

inline constexpr TimeUnit unit_ns{"ns", 1.0};
inline constexpr TimeUnit unit_us{"us", 1e3};
inline constexpr TimeUnit unit_ms{"ms", 1e6};
inline constexpr TimeUnit unit_s{"s", 1e9};

// The unit in which the typical value (the median magnitude of the finite values) reads between 1 and
// 1000; ns when there is no finite value. A column of 800 ns .. 40 us reads in us: "0.800 .. 40.0".
TimeUnit time_unit_for(std::span<const double> ns_values);

// Decimals for a column already scaled to its unit: enough for three significant digits of the smallest
// non-zero magnitude, at most `max_decimals`; 0 for ns (the clocks tick in whole ns).
int decimals_for(std::span<const double> values, const TimeUnit& unit, int max_decimals = 3);

// "12.3", "0.851", "2710", "1.23e+07"; "-" for NaN, "inf"/"-inf" for infinities. significant: 1..100.
std::string format_number(double value, int significant = 3);

// A value with a fixed number of decimals, 0..100 ("-" for NaN), in full at any magnitude: 1e300 is all
// 301 digits, never cut. Throws std::invalid_argument for decimals outside 0..100.
std::string format_fixed(double value, int decimals);

// A metric value with its unit: durations ("ns") in their natural unit, "x" glued ("7.26x"), others spaced.
std::string format_with_unit(double value, const std::string& unit);

// 52428800 -> "50.0 MiB".
std::string format_bytes(double bytes);

}  // namespace gpuchrono::report
