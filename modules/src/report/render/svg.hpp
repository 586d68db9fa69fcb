// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the SVG renderers share: escaping text for XML, "nice" axis ticks, and the colour palette, so the
// timeline and the sweep plot look like one family and every string a user supplied (kernel and region
// names) is escaped the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono::report::svg {

// Escapes &, <, >, " and ' for use in element text and attribute values. The result is always XML 1.0
// character data: ill-formed UTF-8 and U+FFFE/U+FFFF become U+FFFD, control characters a space.
std::string escape(std::string_view text);

// Tick positions covering [low, high] on a linear axis, spaced 1, 2 or 5 x 10^k, about `target` of them;
// the first tick <= low and the last >= high. Throws std::invalid_argument unless low < high, both finite.
std::vector<double> linear_ticks(double low, double high, int target = 6);

// Ticks for a log axis over [low, high] (both > 0): powers of ten, with 2 and 5 between them when the
// range spans less than three decades, or powers of two for ranges that look like block counts (1..4096).
std::vector<double> log_ticks(double low, double high, bool powers_of_two);

// Categorical colours (Tableau 10), readable on white and distinguishable for most colour-blind readers.
const std::string& colour(std::size_t index);

// A number formatted for an SVG coordinate (at most 2 decimals, no exponent).
std::string coord(double value);

}  // namespace gpuchrono::report::svg
