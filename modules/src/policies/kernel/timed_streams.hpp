// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The (device, CUPTI stream) pairs whose work a stream-mode KernelPolicy scope or a kernel-method batch times in
// this process: a scope on another stream does not report work launched on one of them meanwhile as
// kernel-activity-elsewhere (it is another timer's, not work the user sent to the wrong stream). Internal; the
// list lives in kernel_policy.cpp.
#pragma once

#include <cstdint>

namespace gpuchrono::detail {

void add_timed_stream(int device, std::uint32_t stream);

}  // namespace gpuchrono::detail
