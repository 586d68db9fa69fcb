// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "gpu/context_id.hpp"

#include <cuda.h>  // types and constants only: the functions are found at run time, libcuda is never linked
#include <cuda_runtime_api.h>

namespace gpuchrono::detail {

namespace {

struct ContextCalls {
    CUresult (*get_current)(CUcontext*) = nullptr;
    CUresult (*get_id)(CUcontext, unsigned long long*) = nullptr;
};

const ContextCalls& context_calls() noexcept {
    static const ContextCalls calls = [] {
        ContextCalls c;
        void* current = nullptr;
        void* id = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        // 4000 and 12000: the versions that introduced cuCtxGetCurrent and cuCtxGetId.
        if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &current, 4000, cudaEnableDefault, &found) != cudaSuccess ||
            found != cudaDriverEntryPointSuccess ||
            cudaGetDriverEntryPointByVersion("cuCtxGetId", &id, 12000, cudaEnableDefault, &found) != cudaSuccess ||
            found != cudaDriverEntryPointSuccess || current == nullptr || id == nullptr) {
            (void)cudaGetLastError();  // no driver or an old one: the pools then cannot see a reset (errors.md)
            return c;
        }
        c.get_current = reinterpret_cast<CUresult (*)(CUcontext*)>(current);
        c.get_id = reinterpret_cast<CUresult (*)(CUcontext, unsigned long long*)>(id);
        return c;
    }();
    return calls;
}

}  // namespace

std::uint64_t current_context_id() noexcept {
    const ContextCalls& calls = context_calls();
    if (!calls.get_current) return 0;
    CUcontext context = nullptr;
    if (calls.get_current(&context) != CUDA_SUCCESS || context == nullptr) return 0;
    unsigned long long id = 0;
    if (calls.get_id(context, &id) != CUDA_SUCCESS) return 0;
    return id;
}

std::uint64_t runtime_context_id() noexcept {
    if (const std::uint64_t id = current_context_id()) return id;
    if (!context_calls().get_current) return 0;
    // No live context is current on this thread (a new thread, or the device was reset): the runtime makes
    // one current on its next call that needs it. cudaFree(nullptr) is that call and does nothing else.
    if (cudaFree(nullptr) != cudaSuccess) {
        (void)cudaGetLastError();  // the caller's next checked call reports what is wrong
        return 0;
    }
    return current_context_id();
}

}  // namespace gpuchrono::detail
