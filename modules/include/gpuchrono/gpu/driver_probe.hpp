// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Questions about the CUDA driver that the runtime API cannot answer, asked without linking libcuda (the
// binaries are built on machines without a driver and carried to the GPU machine).
#pragma once

namespace gpuchrono {

enum class ModuleLoading { unknown, eager, lazy };

// "unknown", "eager", "lazy".
const char* to_string(ModuleLoading m) noexcept;

// The driver's module loading mode (cuModuleGetLoadingMode, through cudaGetDriverEntryPointByVersion): lazy is
// the default since CUDA 12.2 (CUDA_MODULE_LOADING=EAGER turns it off), and then the first launch of each
// kernel loads it (docs/pitfalls-catalog.md #4). Asked once and cached; unknown when there is no driver or device.
// It initialises the CUDA runtime if nothing else has: call it only where CUDA is in use already.
ModuleLoading module_loading_mode() noexcept;

// How many devices have an active primary context (the one the runtime API uses), asked of the driver library
// this process has ALREADY loaded: the call loads nothing, initialises nothing and makes no CUDA runtime call,
// so a host-only program pays about 15 ns. 0 when no driver library is loaded or the driver is not
// initialised (then no context can exist); -1 when the loaded driver cannot be asked.
int active_primary_contexts() noexcept;

}  // namespace gpuchrono
