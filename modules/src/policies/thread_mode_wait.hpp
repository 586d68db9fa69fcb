// Why the last thread-mode KernelPolicy scope that waited for the whole device did so (kernel_policy.cpp:
// KernelScope::mark_end_of_launched_work), and forgets it; empty when none has since the last call. For tests and
// diagnosis: a thread-mode scope normally waits only for the streams its thread used. Internal.
#pragma once

#include <string>

namespace gpuchrono::detail {

std::string take_last_thread_mode_device_wait();

}  // namespace gpuchrono::detail
