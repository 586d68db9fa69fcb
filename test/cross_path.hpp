// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Functions defined in cross_path.cu (compiled by nvcc, headers only) and called from cross_path_test.cpp
// (compiled by clang, `import gpuchrono;`). If the module attached its own copies of these types, this
// would not link; if the types differed, the static_asserts in the test would not compile.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/measurement.hpp>

#include <cuda_runtime_api.h>

namespace cross_path {
gpuchrono::Duration duration_made_by_nvcc(double ns);
// Times a kernel with `ScopedTimer<EventPolicy> t(stream); kernel<<<...>>>` written exactly so in a .cu file.
gpuchrono::Measurement time_spin_in_cu(cudaStream_t stream, gpuchrono::Duration spin);
}  // namespace cross_path
