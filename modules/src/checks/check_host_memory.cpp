// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_host_memory.hpp>
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include <string>

namespace gpuchrono {

std::optional<Finding> check_host_memory_type(cudaMemoryType type, std::size_t bytes) {
    if (type != cudaMemoryTypeUnregistered) return std::nullopt;
    return make_finding(codes::pageable_host_memory,
                        "the host buffer of " + std::to_string(bytes) +
                            " bytes is pageable: cudaMemcpyAsync with it runs synchronously, through a staging "
                            "copy, at a fraction of the pinned bandwidth",
                        {{"bytes", static_cast<double>(bytes)}});
}

std::optional<Finding> check_pinned(const void* host, std::size_t bytes, std::source_location where) {
    cudaPointerAttributes attributes{};
    GPUCHRONO_CUDA_CHECK(cudaPointerGetAttributes(&attributes, host), "asking whether a host buffer is pinned");
    std::optional<Finding> found = check_host_memory_type(attributes.type, bytes);
    if (found) {
        Findings one{*found};
        handle_findings(one, CallSite::at(where));
        found = one.front();
    }
    return found;
}

}  // namespace gpuchrono
