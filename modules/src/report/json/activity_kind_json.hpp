// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// An activity's "kind" as report.json writes it (to_string(ActivityKind)), read back: one list of the names for
// both readers of activities (the strict reader and the RapidJSON one), so they cannot come to disagree.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <optional>
#include <string_view>

namespace gpuchrono::report::detail {

// nullopt for a name report.json never holds.
inline std::optional<ActivityKind> activity_kind_named(std::string_view name) noexcept {
    for (const ActivityKind kind : {ActivityKind::kernel, ActivityKind::memcpy, ActivityKind::memset})
        if (name == to_string(kind)) return kind;
    return std::nullopt;
}

}  // namespace gpuchrono::report::detail
