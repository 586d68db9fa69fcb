// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/gpu/buffer_pool.hpp>
#include <gpuchrono/gpu/pools.hpp>
#include <gpuchrono/gpu/event_pool.hpp>

#include <cstdlib>
#include <mutex>
#include <optional>

namespace gpuchrono {

void release_pools() {
    std::optional<CudaError> first;
    try {
        (void)EventPool::instance().release_idle();
    } catch (const CudaError& e) {
        first = e;
    }
    try {
        (void)ProbeBufferPool::instance().release_idle();
    } catch (const CudaError& e) {
        if (!first) first = e;
    }
    if (first) throw *first;
}

namespace detail {

namespace {
void release_at_exit() {
    EventPool::instance().close();
    ProbeBufferPool::instance().close();
}
}  // namespace

void release_pools_at_exit() noexcept {
    // The first call comes right after the library's first successful CUDA allocation, so the runtime has
    // registered its own teardown before: handlers run in reverse order, and this one finds the context alive.
    static std::once_flag once;
    try {
        std::call_once(once, [] {
            if (std::atexit(release_at_exit) != 0) {
                // No room for another handler: the memory is left to the driver, which frees it with the
                // context at exit, as before.
            }
        });
    } catch (...) {
    }
}

}  // namespace detail

}  // namespace gpuchrono
