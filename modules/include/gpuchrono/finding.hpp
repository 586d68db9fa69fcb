// A Finding is one reason a measurement cannot be taken at face value (see ../shared/PITFALLS.md): a stable
// code a script can match, a severity, a one-line message carrying the numbers that triggered it, and the fix.
// Findings travel with the Measurement they were detected on.
#pragma once

#include <string>
#include <vector>

namespace gpuchrono {

enum class Severity { info, warning, error };

const char* to_string(Severity s) noexcept;

struct Finding {
    std::string code;      // stable, kebab-case, e.g. "host-stop-with-pending-work"
    Severity severity = Severity::warning;
    std::string message;   // what was seen, with its numbers
    std::string fix;       // what to do about it

    friend bool operator==(const Finding&, const Finding&) = default;
};

using Findings = std::vector<Finding>;

}  // namespace gpuchrono
