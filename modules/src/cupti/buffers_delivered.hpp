// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How many activity buffers CUPTI has handed back to KernelPolicy in this process (0 until a KernelPolicy set
// CUPTI up). CUPTI keeps about 80 B of host heap for good per buffer it hands back (docs/errors.md), and with
// per-thread buffers (off now) a flush handed back one buffer per thread that launched since the last:
// bench_stress counts them to tell CUPTI's memory from the library's. Internal: not exported by the module.
#pragma once

#include <cstddef>

namespace gpuchrono::cupti {

std::size_t buffers_delivered() noexcept;

}  // namespace gpuchrono::cupti
