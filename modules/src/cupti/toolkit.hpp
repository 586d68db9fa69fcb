// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Everything in the library that depends on the CUDA toolkit it is built with, named in one place and chosen
// at build time from that toolkit's own headers (CUDA 12.4 .. 12.x and 13.x). Internal: CUPTI types stay in src/.
//
//                         CUDA 12.4-12.9   13.0       13.1-13.2  13.3       13.4 and later
//   CUPTI soname          libcupti.so.12   libcupti.so.13 ...
//   CUPTI_API_VERSION     18 .. 28         130001     130101..   130301     130401..
//   kernel record         Kernel9          Kernel10   Kernel11   Kernel12   Kernel13
//   memcpy / memset       Memcpy6 / Memset4 ..................................  Memcpy7 / Memset5
//   (read from each toolkit's headers, 2026-11-25: every kernel record 9..13 keeps start, end, deviceId,
//   contextId, streamId, grid, block, correlationId, name, graphNodeId, graphId at the same offsets, and so do
//   Memcpy6/7 and Memset4/5: each version only appends)
//   nvtx3                 include/nvtx3, header-only, in all of them (the v2 nvToolsExt library is gone in 13.0)
//   Event/Metric APIs     present (unused)        removed                removed
//
// A CUPTI loaded at run time writes records in its own newest layout. A newer one than the build's keeps every
// field the library reads at the same offset (each record version only appends), but an older one writes a
// layout the library would misread: cupti_library.cpp refuses it by CUPTI_API_VERSION, and KernelPolicy then
// falls back as when CUPTI is missing.
#pragma once

#include <cuda.h>  // CUDA_VERSION
#include <cupti_activity.h>
#include <cupti_version.h>  // CUPTI_API_VERSION

#include <cstdint>

#if CUDA_VERSION < 12040
#error "gpuchrono needs CUDA 12.4 or newer: this toolkit's cuda.h is older"
#endif

namespace gpuchrono::toolkit {

inline constexpr int cuda_major = CUDA_VERSION / 1000;

#if CUDA_VERSION >= 14000
#error "gpuchrono does not know CUDA 14's CUPTI (its soname and record layouts): add them to modules/src/cupti/toolkit.hpp"
#elif CUDA_VERSION >= 13000
inline constexpr const char* cupti_soname = "libcupti.so.13";
#else
inline constexpr const char* cupti_soname = "libcupti.so.12";
#endif

// The CUPTI API version of the headers built against: the oldest run-time CUPTI whose records read correctly.
inline constexpr std::uint32_t cupti_api_version = CUPTI_API_VERSION;

#if CUPTI_API_VERSION >= 130401
using KernelRecord = CUpti_ActivityKernel13;
#elif CUPTI_API_VERSION >= 130301
using KernelRecord = CUpti_ActivityKernel12;
#elif CUPTI_API_VERSION >= 130101
using KernelRecord = CUpti_ActivityKernel11;
#elif CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
#else
using KernelRecord = CUpti_ActivityKernel9;
#endif
#if CUPTI_API_VERSION >= 130401
using MemcpyRecord = CUpti_ActivityMemcpy7;
using MemsetRecord = CUpti_ActivityMemset5;
#else
using MemcpyRecord = CUpti_ActivityMemcpy6;
using MemsetRecord = CUpti_ActivityMemset4;
#endif

// Where a toolkit installs CUPTI, for this major version, searched after $GPUCHRONO_CUPTI and before the dynamic
// loader's path.
#if CUDA_VERSION >= 13000
inline constexpr const char* cupti_folders[] = {"/usr/local/cuda/lib64", "/usr/local/cuda-13/targets/x86_64-linux/lib",
                                                "/usr/local/cuda-13.0/targets/x86_64-linux/lib",
                                                "/usr/local/cuda/extras/CUPTI/lib64"};
#else
inline constexpr const char* cupti_folders[] = {"/usr/local/cuda/lib64", "/usr/local/cuda-12/targets/x86_64-linux/lib",
                                                "/usr/local/cuda/extras/CUPTI/lib64"};
#endif

// Where NVIDIA's CUPTI wheel for this major version (nvidia-cuda-cupti, nvidia-cuda-cupti-cu12) puts the library,
// relative to site-packages: searched beside the binary that holds gpuchrono (a Python wheel's extension module
// sits in site-packages/gpuchrono/), so `pip install gpuchrono-cu13` finds CUPTI with no toolkit installed.
#if CUDA_VERSION >= 13000
inline constexpr const char* cupti_wheel_folder = "nvidia/cu13/lib";
#else
inline constexpr const char* cupti_wheel_folder = "nvidia/cuda_cupti/lib";
#endif

}  // namespace gpuchrono::toolkit
