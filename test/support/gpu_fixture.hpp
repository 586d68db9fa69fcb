// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What GPU tests share: a non-blocking stream of their own (never the legacy default stream, which would
// serialise against everything), warmed up so the first measurement does not carry module loading.
#pragma once

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/duration.hpp>

#include <spin.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

struct GpuStream {
    cudaStream_t stream = nullptr;

    GpuStream() {
        GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the test stream");
        gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_us(10), stream);
        gpuchrono::kernels::launch_empty(stream);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "warming up the test stream");
    }
    ~GpuStream() { (void)cudaStreamDestroy(stream); }
    GpuStream(const GpuStream&) = delete;
    GpuStream& operator=(const GpuStream&) = delete;
};

// cudaEventElapsedTime resolves about 0.5 us (CUDA Runtime API docs); an interval that holds a kernel of
// known length D can read at most that much below D.
inline constexpr double event_resolution_ns = 500.0;

// The host time since construction: the upper bound, in the same run, of any interval timed in between (GPU
// work enqueued after it started and read before it is asked cannot have taken longer). A slowdown (a
// sanitizer, a loaded machine) stretches both alike, so a test bounds a reading from above without assuming
// any speed; a unit error (ms read as ns) still lands far outside.
struct HostSpan {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    // In ns, plus the event timer's resolution: the two clocks are read at slightly different moments.
    double bound_ns() const {
        return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() + 1000.0;
    }
};

// Whether a shared library whose file name holds `name` (libcupti, libnvidia-ml) is mapped into this process
// (/proc/self/maps): loaded by the library, or by a tool. Suites that check the library left one unloaded
// run in a process of their own.
inline bool library_is_mapped(std::string_view name) {
    std::ifstream maps("/proc/self/maps");
    if (!maps) throw std::runtime_error("cannot read /proc/self/maps");
    std::string line;
    while (std::getline(maps, line))
        if (line.find(name) != std::string::npos) return true;
    return false;
}
