// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The marks a stream-mode KernelPolicy scope places on its own stream at start and at stop: launches of the
// library's empty kernel `gpuchrono_stream_marker`, whose CUPTI kernel records bound the scope's work in the
// stream's order (stream_bounds.hpp). Internal; a plain C++ declaration so that clang-compiled code can call it.
//
// Why a kernel: its record is one CUPTI already writes (kernel records are on), so no other activity kind (and
// no launch callback) is needed; its block shape carries the scope's token, which the record keeps, so each
// scope finds its own two marks among those of nested and interleaved scopes on the same stream.
#pragma once

#include "cupti/stream_mark.hpp"  // stream_marker_name

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuchrono::detail {

// Tokens run 1..stream_marker_tokens; a scope's start mark has block (token, 1, 1), its stop mark (token, 2, 1);
// a batch's marks share one token and have block (token, 1, 2) (x * y * z stays within 1024 threads).
inline constexpr std::uint32_t stream_marker_tokens = 512;

// A fresh token (process-wide round robin).
std::uint32_t next_stream_marker_token() noexcept;

// Launches the mark on `stream`; `stop` picks the stop shape. Returns the launch's own error, never throws.
cudaError_t launch_stream_marker(cudaStream_t stream, std::uint32_t token, bool stop) noexcept;

// Launches one boundary mark of a batch of samples (batch_segments.hpp): block (token, 1, 2). Returns the launch's
// own error, never throws.
cudaError_t launch_batch_marker(cudaStream_t stream, std::uint32_t token) noexcept;

}  // namespace gpuchrono::detail
