// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "core/switch_setting.hpp"

#include <cstdio>
#include <cstdlib>

namespace gpuchrono::detail {

std::optional<bool> parse_switch_setting(std::string_view text) noexcept {
    if (text == "0" || text == "off" || text == "false") return false;
    if (text == "1" || text == "on" || text == "true") return true;
    return std::nullopt;
}

bool switch_from_environment(const char* variable, const char* what) noexcept {
    const char* env = std::getenv(variable);
    if (!env || !*env) return true;
    if (const std::optional<bool> parsed = parse_switch_setting(env)) return *parsed;
    std::fprintf(stderr, "gpuchrono: %s=\"%s\" is not 0/off/false or 1/on/true; %s stay on\n", variable, env, what);
    return true;
}

}  // namespace gpuchrono::detail
