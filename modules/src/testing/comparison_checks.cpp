// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/testing/comparison_checks.hpp>

#include <gpuchrono/core/duration.hpp>

#include <exception>
#include <optional>
#include <stdexcept>
#include <string>

namespace gpuchrono {

namespace {

std::string quoted(const Series& s) { return "\"" + s.name() + "\""; }

std::string figures(const Comparison& c) {
    std::string out = c.reason + "; medians " + to_string(c.median_a) + " and " + to_string(c.median_b) + " (" +
                      std::to_string(c.samples_a) + " and " + std::to_string(c.samples_b) + " samples)";
    for (const std::string& n : c.notes) out += "; note: " + n;
    return out;
}

// compare(), or the failed check that says why the two series cannot be compared.
std::optional<Comparison> comparison(const Series& base, const Series& candidate, const CompareOptions& options,
                                     CheckResult& refused) {
    for (const Series* s : {&base, &candidate})
        if (s->durations().empty()) {
            refused = {false, "cannot compare " + quoted(candidate) + " with " + quoted(base) + ": " + quoted(*s) +
                                  " has no successful measurement" +
                                  (s->failed_count() ? " (" + std::to_string(s->failed_count()) + " failed: " + s->first_error() + ")"
                                                     : std::string())};
            return std::nullopt;
        }
    try {
        return compare(base, candidate, options);
    } catch (const std::invalid_argument& e) {
        refused = {false, "cannot compare " + quoted(candidate) + " with " + quoted(base) + ": " + e.what()};
        return std::nullopt;
    }
}

}  // namespace

CheckResult check_not_slower(const Series& base, const Series& candidate, const CompareOptions& options) {
    CheckResult refused;
    const std::optional<Comparison> c = comparison(base, candidate, options, refused);
    if (!c) return refused;
    if (c->verdict == Verdict::slower)
        return {false, quoted(candidate) + " is slower than " + quoted(base) + ": " + figures(*c)};
    return {true, quoted(candidate) + " is not slower than " + quoted(base) + ": " + figures(*c)};
}

CheckResult check_faster(const Series& base, const Series& candidate, const CompareOptions& options) {
    CheckResult refused;
    const std::optional<Comparison> c = comparison(base, candidate, options, refused);
    if (!c) return refused;
    if (c->verdict == Verdict::faster)
        return {true, quoted(candidate) + " is faster than " + quoted(base) + ": " + figures(*c)};
    return {false, quoted(candidate) + " is not shown faster than " + quoted(base) + ": " + figures(*c)};
}

}  // namespace gpuchrono
