// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The on/off environment variables (GPUCHRONO_NVTX, GPUCHRONO_GPU_STATE): one spelling for all of them.
// Internal.
#pragma once

#include <optional>
#include <string_view>

namespace gpuchrono::detail {

// "0", "off", "false" -> false; "1", "on", "true" -> true; anything else -> nothing.
std::optional<bool> parse_switch_setting(std::string_view text) noexcept;

// The variable's value: unset or empty -> true; a value parse_switch_setting does not know -> true, and
// gpuchrono says so on stderr, naming `what` (the feature that stays on).
bool switch_from_environment(const char* variable, const char* what) noexcept;

}  // namespace gpuchrono::detail
