// A ratio as a signed percentage with two decimals ("+12.31%", "-0.40%", "+inf%"): how compare() and the
// comparison report print a change, so that the verdict's reason and the report agree to the digit. Internal.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace gpuchrono::detail {

inline std::string signed_percent(double ratio) {
    if (std::isinf(ratio)) return ratio > 0 ? "+inf%" : "-inf%";
    char text[32];
    std::snprintf(text, sizeof text, "%+.2f%%", ratio * 100.0);
    return text;
}

}  // namespace gpuchrono::detail
