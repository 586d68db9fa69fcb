// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/svg.hpp"

#include "core/fixed_text.hpp"
#include "json/utf8.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gpuchrono::report::svg {

std::string escape(std::string_view raw) {
    // Names come from users: bytes that are not UTF-8 would make the whole file unreadable to an XML parser.
    const std::string text = json::valid_utf8(raw);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        // U+FFFE and U+FFFF are valid UTF-8 but not XML characters.
        if (c == '\xef' && i + 2 < text.size() && text[i + 1] == '\xbf' && (text[i + 2] == '\xbe' || text[i + 2] == '\xbf')) {
            out += json::replacement_character;
            i += 2;
            continue;
        }
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // XML 1.0 forbids most control characters even when escaped; a space stands in for them.
                out += (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') ? ' ' : c;
        }
    }
    return out;
}

std::vector<double> linear_ticks(double low, double high, int target) {
    if (!(std::isfinite(low) && std::isfinite(high) && low < high) || target < 2)
        throw std::invalid_argument("gpuchrono::report::svg::linear_ticks: need finite low < high and target >= 2");
    const double raw = (high - low) / target;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * magnitude;
        if (step >= raw) break;
    }
    std::vector<double> ticks;
    const double first = std::floor(low / step + 1e-9) * step;
    for (double t = first; t < high + step * 0.999; t += step) {
        ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);  // no "-0" or 1e-17 at the origin
        if (ticks.size() > 1000) break;
    }
    return ticks;
}

std::vector<double> log_ticks(double low, double high, bool powers_of_two) {
    if (!(low > 0 && high > low && std::isfinite(high)))
        throw std::invalid_argument("gpuchrono::report::svg::log_ticks: need 0 < low < high, both finite");
    std::vector<double> candidates;
    if (powers_of_two) {
        const double every = std::log2(high / low) > 16 ? 2.0 : 1.0;  // every other power when the axis would crowd
        for (double t = std::exp2(std::floor(std::log2(low))); t < high * 8.0; t *= std::exp2(every)) candidates.push_back(t);
    } else {
        const bool dense = std::log10(high / low) < 3.0;
        for (double decade = std::pow(10.0, std::floor(std::log10(low))); decade < high * 100.0; decade *= 10.0) {
            candidates.push_back(decade);
            if (dense) {
                candidates.push_back(2 * decade);
                candidates.push_back(5 * decade);
            }
        }
    }
    // From the last candidate <= low to the first >= high.
    std::size_t first = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (candidates[i] <= low * (1 + 1e-12)) first = i;
    std::vector<double> ticks;
    for (std::size_t i = first; i < candidates.size(); ++i) {
        ticks.push_back(candidates[i]);
        if (candidates[i] >= high * (1 - 1e-12)) break;
    }
    return ticks;
}

const std::string& colour(std::size_t index) {
    static const std::array<std::string, 10> palette = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                                        "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    return palette[index % palette.size()];
}

std::string coord(double value) {
    if (!std::isfinite(value)) return "0";
    std::string s = detail::fixed_text(value, 2);
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    if (s == "-0") s = "0";
    return s;
}

}  // namespace gpuchrono::report::svg
