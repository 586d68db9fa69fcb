// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Checks over a Series' findings, for unit tests that pin "this kernel is timed without a pitfall" or "this
// scope raises that finding". They read the findings of gpuchrono::summary(series): every measurement's own
// findings (one per code, counted) and what only the whole series shows (a cold first sample, too few samples,
// too much variation). The checks themselves react to nothing: the series-level findings they compute are
// collected (no stderr line, no FindingError) and reported in the result's message instead.
//
//     gpuchrono::CheckResult r = gpuchrono::check_no_findings(series);
//     if (!r) std::cerr << r.message;
//
// Host only (the summary's statistics use range-v3).
#pragma once

#include <gpuchrono/core/series.hpp>
#include <gpuchrono/testing/check_result.hpp>

#include <source_location>
#include <string_view>

namespace gpuchrono {

// Passes when the series has measurements, none of them failed, and no finding of severity warning or error.
// The message lists every finding, one line each, as the finding sink prints it: severity, code, the message
// with its numbers, the fix, and where it was detected (info findings are listed and do not fail the check).
CheckResult check_no_findings(const Series& series, std::source_location where = std::source_location::current());

// Passes when the series carries a finding of that code (any severity). The message quotes that finding, or
// lists the findings the series does have. A code that is not in the catalog (finding_catalog.hpp) fails the
// check, saying so: a misspelt code must not pass as "not found" in a check that expects absence elsewhere.
CheckResult check_finding(const Series& series, std::string_view code,
                          std::source_location where = std::source_location::current());

}  // namespace gpuchrono
