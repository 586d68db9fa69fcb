// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Fixed-point text of a double, of any magnitude, for the library's printed figures (private header).
//
// Why not snprintf into a char[64]: a duration of 1e300 ns has 292 digits in seconds, and a fixed buffer
// cut it silently, unit and all. std::to_chars also ignores the user's locale (setlocale may make printf
// write "1,5"), so reports read the same everywhere.
#pragma once

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gpuchrono::detail {

// `decimals` digits after the point (0..100), rounded to nearest as printf's %.*f does; NaN and infinity
// are the caller's to handle (they have no fixed form).
inline std::string fixed_text(double value, int decimals) {
    if (decimals < 0 || decimals > 100)
        throw std::invalid_argument("gpuchrono: decimals must be 0..100, got " + std::to_string(decimals));
    if (!std::isfinite(value)) return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
    // The largest double has 309 integer digits; a sign, the point and the decimals come on top.
    std::string out(312 + static_cast<std::size_t>(decimals), '\0');
    const auto [end, ec] = std::to_chars(out.data(), out.data() + out.size(), value, std::chars_format::fixed, decimals);
    if (ec != std::errc()) throw std::logic_error("gpuchrono: fixed_text buffer too small");
    out.resize(static_cast<std::size_t>(end - out.data()));
    return out;
}

// `significant - 1` decimals in scientific notation, as printf's %.*e writes it ("1.23e+300").
inline std::string scientific_text(double value, int significant) {
    if (significant < 1 || significant > 100)
        throw std::invalid_argument("gpuchrono: significant digits must be 1..100, got " + std::to_string(significant));
    if (!std::isfinite(value)) return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
    std::string out(16 + static_cast<std::size_t>(significant), '\0');
    const auto [end, ec] =
        std::to_chars(out.data(), out.data() + out.size(), value, std::chars_format::scientific, significant - 1);
    if (ec != std::errc()) throw std::logic_error("gpuchrono: scientific_text buffer too small");
    out.resize(static_cast<std::size_t>(end - out.data()));
    return out;
}

// `significant` digits of a figure beside a unit, "12.3", "0.851", "2710", "1.23e+07": scientific beyond 1e7 and
// under 1e-3, whole numbers (block counts, MHz) whole; "-" for NaN, "inf"/"-inf" for infinities.
inline std::string number_text(double value, int significant) {
    if (std::isnan(value)) return "-";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    const double a = std::fabs(value);
    if (a != 0.0 && (a >= 1e7 || a < 1e-3)) return scientific_text(value, significant);
    if (a < 1e7 && value == std::floor(value)) return fixed_text(value, 0);
    const int before = a == 0.0 ? 1 : static_cast<int>(std::floor(std::log10(a))) + 1;
    const int decimals = significant - before > 0 ? significant - before : 0;
    return fixed_text(value, decimals);
}

}  // namespace gpuchrono::detail
