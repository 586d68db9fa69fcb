// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/finding.hpp>

#include <algorithm>
#include <string_view>

namespace gpuchrono {

const char* to_string(Severity s) noexcept {
    switch (s) {
        case Severity::info: return "info";
        case Severity::warning: return "warning";
        case Severity::error: return "error";
    }
    return "unknown";
}

std::string to_string(const Finding& f) {
    std::string line = to_string(f.severity);
    line.append(" [").append(f.code).append("] ").append(f.message);
    if (!f.fix.empty()) line.append(". Fix: ").append(f.fix);
    if (!f.where.empty()) line.append(" (at ").append(f.where).append(")");
    return line;
}

namespace {

// The text up to the first clause boundary at or after `from` ("; ", ": ", " (", ", or "), or all of it.
std::string_view first_clause(std::string_view text, std::size_t from = 0) {
    std::size_t cut = std::string_view::npos;
    for (std::string_view boundary : {"; ", ": ", " (", ", or ", ". "}) {
        const std::size_t at = text.find(boundary, from);
        if (at != std::string_view::npos && at < cut) cut = at;
    }
    return cut == std::string_view::npos ? text : text.substr(0, cut);
}

bool has_digit(std::string_view text) {
    return text.find_first_of("0123456789") != std::string_view::npos;
}

// The message's clauses, as few as carry its first number: "stream had pending work when the host timer stopped:
// the 7.86 us measured exclude it" rather than only the first clause, which names no figure.
std::string_view headline(std::string_view message) {
    std::string_view taken = first_clause(message);
    while (!has_digit(taken) && taken.size() < message.size()) {
        const std::string_view longer = first_clause(message, taken.size() + 1);
        if (longer.size() <= taken.size()) break;
        taken = longer;
    }
    return has_digit(taken) ? taken : first_clause(message);
}

// Cut at a word boundary to at most `width` characters, marking the cut.
std::string fit(std::string_view text, std::size_t width) {
    if (text.size() <= width) return std::string(text);
    if (width < 4) return std::string(text.substr(0, width));
    std::size_t cut = text.rfind(' ', width - 3);
    if (cut == std::string_view::npos || cut < width / 2) cut = width - 3;
    return std::string(text.substr(0, cut)) + "...";
}

}  // namespace

std::string to_short_string(const Finding& f, std::size_t width) {
    std::string line = to_string(f.severity);
    line.append(" [").append(f.code).append("] ");
    const std::string at = f.where.empty() ? std::string() : " (at " + f.where + ")";
    const std::string_view fix = first_clause(f.fix);
    const std::string fix_part = fix.empty() ? std::string() : "; fix: " + std::string(fix);
    // The message first, then the fix, each cut to what is left; `where` always fits: it is how a user finds
    // the place.
    const std::size_t fixed = line.size() + at.size();
    const std::size_t room = width > fixed ? width - fixed : 0;
    const std::size_t fix_share = std::min(fix_part.size(), room * 2 / 5);
    const std::string message = fit(headline(f.message), room - fix_share);
    line.append(message);
    if (room > message.size()) line.append(fit(fix_part, room - message.size()));
    line.append(at);
    return line;
}

}  // namespace gpuchrono
