// host.cpp
#include <cuda_runtime.h>                 // not cuda_runtime_api.h: the typed cudaMalloc(&x, bytes) is here
#include <gpuchrono/core/cuda_error.hpp>  // GPUCHRONO_CUDA_CHECK (a macro: it never comes through `import`)

#include <iostream>

#include <gpuchrono/api.hpp>              // the whole API; `import gpuchrono;` when the target links gpuchrono::module

void launch_saxpy(cudaStream_t stream, int n, float a, const float* x, float* y);  // in kernels.cu

int main() {
    const int n = 1 << 20;
    float* x = nullptr;
    float* y = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)), "allocating x");
    GPUCHRONO_CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)), "allocating y");
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreate(&stream), "creating the stream");

    gpuchrono::SeriesSet series;
    for (int i = 0; i < 100; ++i) {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(series["saxpy"], stream, {.wait_at_stop = false});
        launch_saxpy(stream, n, 2.0f, x, y);
    }
    gpuchrono::Stats s = series["saxpy"].durations() | gpuchrono::summarize;
    std::cout << s << '\n';                   // one line: n, median, mean, sd, cv, percentiles, max, mad
    gpuchrono::write_report(series, "out/");  // report.txt, report.json, CSV tables, SVGs, index.html
}
