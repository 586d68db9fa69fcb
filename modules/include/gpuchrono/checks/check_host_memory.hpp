// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// docs/pitfalls-catalog.md #2: cudaMemcpyAsync from pageable host memory is synchronous and slow. The library never sees a
// user's copies, so this check is one the user calls on the host buffer of an asynchronous copy they time.
#pragma once

#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/finding_reaction.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <source_location>

namespace gpuchrono {

// The decision: memory of type cudaMemoryTypeUnregistered is pageable.
std::optional<Finding> check_host_memory_type(cudaMemoryType type, std::size_t bytes);

// Asks cudaPointerGetAttributes about `host` and reacts to a finding as configured (finding_reaction.hpp),
// then returns it. Throws CudaError if CUDA cannot answer.
std::optional<Finding> check_pinned(const void* host, std::size_t bytes,
                                    std::source_location where = std::source_location::current());

}  // namespace gpuchrono
