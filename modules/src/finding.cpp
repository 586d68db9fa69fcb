#include <gpuchrono/finding.hpp>

namespace gpuchrono {

const char* to_string(Severity s) noexcept {
    switch (s) {
        case Severity::info: return "info";
        case Severity::warning: return "warning";
        case Severity::error: return "error";
    }
    return "unknown";
}

}  // namespace gpuchrono
