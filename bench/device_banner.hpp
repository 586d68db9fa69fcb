// The line every benchmark prints first: figures mean nothing without the device and clocks beside them.
#pragma once

#include <gpuchrono/core/cuda_error.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>

inline void print_device_banner(const char* bench) {
    int device = 0, sm_clock_khz = 0, mem_clock_khz = 0, driver = 0, runtime = 0;
    GPUCHRONO_CUDA_CHECK(cudaGetDevice(&device), "reading the current device");
    cudaDeviceProp prop{};
    GPUCHRONO_CUDA_CHECK(cudaGetDeviceProperties(&prop, device), "reading the device properties");
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, device), "reading the SM clock rate");
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, device),
                         "reading the memory clock rate");
    GPUCHRONO_CUDA_CHECK(cudaDriverGetVersion(&driver), "reading the driver version");
    GPUCHRONO_CUDA_CHECK(cudaRuntimeGetVersion(&runtime), "reading the runtime version");
    std::printf("%s on %s (device %d, %d SMs, sm_%d%d, max SM clock %.0f MHz, memory clock %.0f MHz, driver %d.%d, "
                "runtime %d.%d)\n",
                bench, prop.name, device, prop.multiProcessorCount, prop.major, prop.minor, sm_clock_khz / 1e3,
                mem_clock_khz / 1e3, driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
}
