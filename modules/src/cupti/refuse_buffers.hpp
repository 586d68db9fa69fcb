// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// For tests: make the library's CUPTI buffer callback hand CUPTI no buffer, as a failed allocation would, so that
// CUPTI has nowhere to write records and drops them. That is the one way records get lost in a healthy process,
// and KernelPolicy must report it (kernel-records-dropped, kernel-records-late), never return a silently short
// list. Takes effect at CUPTI's next buffer request: after a flush (every KernelPolicy stop flushes), or when the
// buffer in use fills. Internal: not exported by the module.
#pragma once

namespace gpuchrono::cupti {

void refuse_activity_buffers(bool refuse) noexcept;

}  // namespace gpuchrono::cupti
