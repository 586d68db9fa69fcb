// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The names of measure()'s options, apart from measure() itself: the report code names a series' method and cache
// with them, and a program that links only the report code (gpuchrono run's injection library, loaded inside
// CUDA's own initialisation) must not pull in measure() and with it the library's kernels and the CUDA runtime.
#include <gpuchrono/measure/measure.hpp>

namespace gpuchrono {

const char* to_string(Method m) noexcept {
    switch (m) {
        case Method::automatic: return "automatic";
        case Method::kernel: return "kernel";
        case Method::graph: return "graph";
        case Method::event: return "event";
        case Method::host: return "host";
    }
    return "unknown";
}

const char* to_string(CacheState c) noexcept {
    switch (c) {
        case CacheState::warm: return "warm";
        case CacheState::cold: return "cold";
    }
    return "unknown";
}

}  // namespace gpuchrono
