// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/testing/findings_checks.hpp>

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/checks/summary.hpp>

#include <algorithm>
#include <cstddef>
#include <string>

namespace gpuchrono {

namespace {

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string series_label(const Series& series) {
    return "series \"" + series.name() + "\" (" + plural(series.size(), "measurement", "measurements") + ")";
}

// One line per finding, as the finding sink prints it.
std::string finding_lines(const Findings& findings) {
    std::string out;
    for (const Finding& f : findings) out += "\n  " + to_string(f);
    return out;
}

bool is_warning_or_error(const Finding& f) { return f.severity != Severity::info; }

// The summary's findings, computed without reacting: the check's message is where they are reported.
Summary quiet_summary(const Series& series, std::source_location where) {
    ScopedFindingReaction collect(Reaction::collect);
    return summary(series, NoiseLimits{}, where);
}

}  // namespace

CheckResult check_no_findings(const Series& series, std::source_location where) {
    if (series.empty()) return {false, series_label(series) + ": no measurements to check"};
    const Summary s = quiet_summary(series, where);
    const auto warnings = static_cast<std::size_t>(std::count_if(s.findings.begin(), s.findings.end(), is_warning_or_error));
    std::string message = series_label(series) + ": ";
    if (s.failed > 0)
        message += plural(s.failed, "measurement", "measurements") + " failed (the first: " + s.first_error + "); ";
    if (warnings == 0 && s.failed == 0) {
        message += "no warning-level finding";
        if (!s.findings.empty()) message += "; info:" + finding_lines(s.findings);
        return {true, message};
    }
    message += plural(warnings, "warning-level finding", "warning-level findings");
    if (!s.findings.empty()) message += ":" + finding_lines(s.findings);
    return {false, message};
}

CheckResult check_finding(const Series& series, std::string_view code, std::source_location where) {
    if (!find_finding_kind(code))
        return {false, "\"" + std::string(code) + "\" is not a finding code (finding_catalog() lists them all)"};
    if (series.empty()) return {false, series_label(series) + ": no measurements to check for " + std::string(code)};
    const Summary s = quiet_summary(series, where);
    if (const Finding* f = s.find(code)) return {true, series_label(series) + ": found" + finding_lines({*f})};
    std::string message = series_label(series) + ": no " + std::string(code) + " finding; ";
    message += s.findings.empty() ? std::string("it has no findings") : "its findings:" + finding_lines(s.findings);
    return {false, message};
}

}  // namespace gpuchrono
