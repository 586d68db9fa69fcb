// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which CUDA context is current on this thread, as the driver's process-unique context id (cuCtxGetId).
// The pools tag what they create with it: after cudaDeviceReset (by any part of the program) the device's
// primary context is a new one, the pooled events and buffers of the old one are gone with it, and lending
// them again would hand out dead handles or, worse, device addresses the new context may have given to
// someone else. Comparing ids is two driver calls through entry points found once (no libcuda link).
#pragma once

#include <cstdint>

namespace gpuchrono::detail {

// The id of the context current on this thread; 0 when the driver cannot say (no driver, no context made
// current yet on this thread, or a context that has been destroyed). Never throws, never creates a context.
std::uint64_t current_context_id() noexcept;

// The id of the context the runtime uses for the current device, creating or re-creating the device's
// primary context if there is none (after cudaDeviceReset) exactly as the next runtime call would.
// 0 when the driver cannot say (the context ids need a CUDA 12.0 driver).
std::uint64_t runtime_context_id() noexcept;

}  // namespace gpuchrono::detail
