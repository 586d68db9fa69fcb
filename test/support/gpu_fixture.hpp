// What GPU tests share: a non-blocking stream of their own (never the legacy default stream, which would
// serialise against everything), warmed up so the first measurement does not carry module loading.
#pragma once

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/duration.hpp>

#include <spin.hpp>

#include <cuda_runtime_api.h>

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
