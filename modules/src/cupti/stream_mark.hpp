// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How the activity store tells the library's own stream marks (the empty kernel a stream-mode KernelPolicy
// scope launches at start and stop, policies/kernel/stream_marker.hpp) from the work it times: the store keeps
// the two apart, so the mark's name is known here, below the policy that launches it.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <string_view>

namespace gpuchrono::detail {

// The kernel's name as CUPTI reports it (extern "C": no mangling, no demangling).
inline constexpr const char* stream_marker_name = "gpuchrono_stream_marker";

inline bool is_stream_marker_record(const KernelActivity& r) noexcept {
    return r.kind == ActivityKind::kernel && std::string_view(r.name) == stream_marker_name;
}

}  // namespace gpuchrono::detail
