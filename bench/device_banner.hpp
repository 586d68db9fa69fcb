// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The line every benchmark prints first, and the SM clock beside its table: figures mean nothing without the
// device and clocks beside them.
#pragma once

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>

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

// The SM clock now (NVML), against its maximum. A program whose question involves the process's first NVML read
// prints it after its table only.
inline void print_sm_clock(const char* when) {
    int device = 0;
    GPUCHRONO_CUDA_CHECK(cudaGetDevice(&device), "reading the current device");
    const gpuchrono::GpuState s = gpuchrono::read_gpu_state(device);
    if (s.sm_clock_mhz && s.max_sm_clock_mhz)
        std::printf("SM clock %s: %u of %u MHz\n", when, *s.sm_clock_mhz, *s.max_sm_clock_mhz);
    else
        std::printf("SM clock %s: unknown (%s)\n", when, s.nvml_loaded ? "NVML gave no clock" : s.nvml_error.c_str());
}
