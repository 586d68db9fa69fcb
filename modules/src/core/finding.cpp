#include <gpuchrono/core/finding.hpp>

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

}  // namespace gpuchrono
