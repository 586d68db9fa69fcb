// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A Finding is one reason a measurement cannot be taken at face value (see docs/pitfalls-catalog.md): a stable
// code a script can match, a severity, a one-line message carrying the numbers that triggered it, and the fix.
// Findings travel with the Measurement they were detected on, with the Series that holds it, and with the
// Summary (summary.hpp) built from a Series.
//
// Every code is listed once, with its severity, its docs/pitfalls-catalog.md row and its fix, in finding_catalog.hpp;
// what happens when one is detected (collect, report, throw) is chosen in finding_reaction.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpuchrono {

enum class Severity { info, warning, error };

const char* to_string(Severity s) noexcept;

// One number behind a finding, named with its unit ("measured_ns", "floor_ns", "sm_clock_mhz"), so a script
// can read the figures without parsing the message.
struct Evidence {
    std::string name;
    double value = 0.0;

    friend bool operator==(const Evidence&, const Evidence&) = default;
};

struct Finding {
    std::string code;      // stable, kebab-case, e.g. "host-stop-with-pending-work"
    Severity severity = Severity::warning;
    std::string message;   // what was seen, with its numbers
    std::string fix;       // what to do about it
    // Where it was detected in the user's program: "file.cpp:42" when the library was handed a source
    // location, "program+0x1a2b" (an address addr2line resolves) when it only knows the caller's return
    // address, empty when neither is known. Two findings of one code at different call sites are reported
    // separately; the same code at the same site is reported once.
    std::string where{};
    std::vector<Evidence> evidence{};  // the figures in the message, machine-readable

    // The value of the named evidence, or `otherwise` when the finding carries none of that name.
    double evidence_or(const std::string& name, double otherwise) const noexcept {
        for (const Evidence& e : evidence)
            if (e.name == name) return e.value;
        return otherwise;
    }

    friend bool operator==(const Finding&, const Finding&) = default;
};

using Findings = std::vector<Finding>;

// "warning [host-stop-with-pending-work] <message>. Fix: <fix> (at <where>)": the whole finding on one line, as
// reports, test checks and FindingError carry it.
std::string to_string(const Finding& f);

// The line printed on stderr: at most `width` characters (200 unless given): severity, code, the message up to
// its first clause that carries a number (or cut at a word), the fix's first clause, and where. The whole text
// stays in the Finding, the report and explain(code).
std::string to_short_string(const Finding& f, std::size_t width = 200);

}  // namespace gpuchrono
