// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A change as compare() and the comparison report print it, so that the verdict's reason and the report agree
// to the digit: a signed percentage with two decimals ("+12.31%", "-0.40%", "+inf%"), with its confidence
// interval, "+12.31% [+12.02%, +12.60%]", and the p-value and options to three digits. Internal.
#pragma once

#include "core/fixed_text.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace gpuchrono::detail {

inline std::string signed_percent(double ratio) {
    if (std::isinf(ratio)) return ratio > 0 ? "+inf%" : "-inf%";
    const std::string digits = fixed_text(ratio * 100.0, 2);
    return (digits.front() == '-' ? digits : "+" + digits) + "%";
}

// Three significant digits ("0.000206", "95", "1.23e+04"), as the p-value, threshold and confidence are printed.
// (std::to_chars in general format is printf's %.3g, locale aside.)
inline std::string three_digits(double v) {
    char text[32];  // "-1.23e-308" at the longest
    const auto [end, ec] = std::to_chars(text, text + sizeof text, v, std::chars_format::general, 3);
    return ec == std::errc() ? std::string(text, end) : std::string("?");
}

inline std::string change_with_interval(double change, double low, double high) {
    return signed_percent(change) + " [" + signed_percent(low) + ", " + signed_percent(high) + "]";
}

}  // namespace gpuchrono::detail
