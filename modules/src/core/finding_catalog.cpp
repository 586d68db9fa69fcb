// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/finding_catalog.hpp>

#include <stdexcept>
#include <string>

namespace gpuchrono {

const FindingKind* find_finding_kind(std::string_view code) noexcept {
    for (const FindingKind& kind : finding_catalog())
        if (kind.code == code) return &kind;
    return nullptr;
}

Finding make_finding(std::string_view code, std::string message, std::vector<Evidence> evidence, std::string fix) {
    const FindingKind* kind = find_finding_kind(code);
    if (!kind)
        throw std::invalid_argument("gpuchrono::make_finding: \"" + std::string(code) +
                                    "\" is not a code of the finding catalog (finding_catalog.hpp)");
    Finding f;
    f.code = kind->code;
    f.severity = kind->severity;
    f.message = std::move(message);
    f.fix = fix.empty() ? std::string(kind->fix) : std::move(fix);
    f.evidence = std::move(evidence);
    return f;
}

std::string explain(std::string_view code) {
    const FindingKind* kind = find_finding_kind(code);
    if (!kind) {
        std::string known;
        for (const FindingKind& k : finding_catalog()) known.append(known.empty() ? "" : ", ").append(k.code);
        throw std::invalid_argument("gpuchrono::explain: \"" + std::string(code) + "\" is not a finding code; the codes are " +
                                    known);
    }
    std::string text(kind->code);
    text.append(" (").append(to_string(kind->severity));
    if (kind->pitfall_row > 0) text.append("; pitfall #").append(std::to_string(kind->pitfall_row)).append(" of docs/pitfalls-catalog.md");
    text.append("): ").append(kind->summary).append(".\nFix: ").append(kind->fix);
    text.append(".\nThresholds and figures: docs/pitfalls.md, under ").append(kind->code).append(".");
    return text;
}

}  // namespace gpuchrono
