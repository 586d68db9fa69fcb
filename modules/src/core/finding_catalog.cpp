#include <gpuchrono/core/finding_catalog.hpp>

#include <stdexcept>

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

}  // namespace gpuchrono
