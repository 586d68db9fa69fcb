// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/duration.hpp>

#include "fixed_text.hpp"

#include <cmath>
#include <cstring>
#include <ostream>
#include <stdexcept>

namespace gpuchrono {

namespace {
double scale_of(const char* unit) {
    if (std::strcmp(unit, "ns") == 0) return 1.0;
    if (std::strcmp(unit, "us") == 0) return 1e3;
    if (std::strcmp(unit, "ms") == 0) return 1e6;
    if (std::strcmp(unit, "s") == 0) return 1e9;
    throw std::invalid_argument(std::string("gpuchrono::to_string: unknown unit \"") + unit +
                                "\" (expected ns, us, ms or s)");
}
}  // namespace

const char* natural_unit(Duration d) noexcept {
    const double a = std::fabs(d.ns());
    if (!(a >= 1e3)) return "ns";  // also NaN
    if (a < 1e6) return "us";
    if (a < 1e9) return "ms";
    return "s";
}

std::string to_string(Duration d) {
    const double ns = d.ns();
    if (std::isnan(ns)) return "nan";
    if (std::isinf(ns)) return ns > 0 ? "inf" : "-inf";
    const char* unit = natural_unit(d);
    const double v = ns / scale_of(unit);
    const double a = std::fabs(v);
    // Three significant digits; ns below 1000 are printed whole since the clocks tick in whole ns.
    const int decimals = unit[0] == 'n' && unit[1] == 's' ? 0 : a >= 100 ? 0 : a >= 10 ? 1 : 2;
    return to_string(d, unit, decimals);
}

std::string to_string(Duration d, const char* unit, int decimals) {
    if (decimals < 0 || decimals > 12)
        throw std::invalid_argument("gpuchrono::to_string: decimals must be 0..12, got " + std::to_string(decimals));
    const double v = d.ns() / scale_of(unit);
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return detail::fixed_text(v, decimals) + " " + unit;
}

std::ostream& operator<<(std::ostream& os, Duration d) { return os << to_string(d); }

}  // namespace gpuchrono
