// A change as compare() and the comparison report print it, so that the verdict's reason and the report agree
// to the digit: a signed percentage with two decimals ("+12.31%", "-0.40%", "+inf%"), and with its confidence
// interval, "+12.31% [+12.02%, +12.60%]". Internal.
#pragma once

#include "../core/fixed_text.hpp"

#include <cmath>
#include <string>

namespace gpuchrono::detail {

inline std::string signed_percent(double ratio) {
    if (std::isinf(ratio)) return ratio > 0 ? "+inf%" : "-inf%";
    const std::string digits = fixed_text(ratio * 100.0, 2);
    return (digits.front() == '-' ? digits : "+" + digits) + "%";
}

inline std::string change_with_interval(double change, double low, double high) {
    return signed_percent(change) + " [" + signed_percent(low) + ", " + signed_percent(high) + "]";
}

}  // namespace gpuchrono::detail
