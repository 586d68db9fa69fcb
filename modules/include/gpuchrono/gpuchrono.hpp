// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Everything a CUDA translation unit may include: nvcc cannot `import gpuchrono;`, so .cu files include this
// header and get the very entities the module exports (the module re-exports these declarations; it does
// not declare its own). Nothing here may include range-v3: nvcc 13.0 cannot compile it, so the statistics
// pipeline is reachable from host code only (`import gpuchrono;` or <gpuchrono/stats/stats.hpp>).
#pragma once

// nvcc 12.x/13.x compile C++17 unless told otherwise; say what to set rather than fail on the first concept.
#if __cplusplus < 202002L
#error "gpuchrono needs C++20: set(CMAKE_CUDA_STANDARD 20) / set(CMAKE_CXX_STANDARD 20) in CMake (with CMake < 3.26 and nvcc, add -std=c++20 to CMAKE_CUDA_FLAGS), or pass -std=c++20 to nvcc or the compiler"
#endif

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/version.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/kernel_activity.hpp>
#include <gpuchrono/core/measurement.hpp>
#include <gpuchrono/core/scoped_timer.hpp>
#include <gpuchrono/core/series.hpp>
#include <gpuchrono/core/timing_policy.hpp>
#include <gpuchrono/cupti/cupti_hold.hpp>

#include <gpuchrono/policies/device_clock/device_clock_policy.hpp>
#include <gpuchrono/gpu/event_floor.hpp>
#include <gpuchrono/policies/event/event_policy.hpp>
#include <gpuchrono/gpu/event_pool.hpp>
#include <gpuchrono/policies/host_clock/host_clock_policy.hpp>
#include <gpuchrono/policies/host_sync/host_sync_policy.hpp>
#include <gpuchrono/policies/kernel/kernel_policy.hpp>

#include <gpuchrono/core/block_samples.hpp>
#include <gpuchrono/gpu/buffer_pool.hpp>
#include <gpuchrono/policies/device_clock/calibration.hpp>
#include <gpuchrono/policies/device_clock/decode.hpp>
#include <gpuchrono/core/probe_layout.hpp>

#include <gpuchrono/checks/check_cold_start.hpp>
#include <gpuchrono/checks/check_device_clock.hpp>
#include <gpuchrono/checks/check_event_interval.hpp>
#include <gpuchrono/checks/check_gpu_state.hpp>
#include <gpuchrono/checks/check_host_memory.hpp>
#include <gpuchrono/checks/check_host_stop.hpp>
#include <gpuchrono/checks/check_resolution.hpp>
#include <gpuchrono/checks/check_stream_state.hpp>
#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>

#include <gpuchrono/gpu/stream.hpp>
#include <gpuchrono/gpu/driver_probe.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/gpu/pools.hpp>
#include <gpuchrono/gpu/prepare.hpp>

#include <gpuchrono/core/nvtx_range.hpp>
