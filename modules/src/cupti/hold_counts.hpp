// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How gpuchrono's hold of CUPTI (cupti_hold.hpp) stands: the holds alive now, and how many times CUPTI was set up
// (subscribed, activity kinds enabled) in this process. Tests and benchmarks read them to tell a loop that
// re-acquires CUPTI per scope from one under a CuptiHold. Internal: not exported by the module.
#pragma once

#include <cstddef>
#include <string>

namespace gpuchrono::cupti {

std::size_t cupti_holders() noexcept;
std::size_t cupti_acquisitions() noexcept;
// Whether gpuchrono holds CUPTI now by sharing the subscription of `gpuchrono run`'s injection (the program runs
// under `gpuchrono run`): its scopes then time as anywhere else, and the run's report counts the program's kernels.
bool cupti_shared_with_run() noexcept;
// Another tool records through CUPTI's activity buffers without taking the subscriber slot (torch.profiler): the
// Python package says so while it does ("" when it stops), and a new set-up of CUPTI is refused naming it.
void set_cupti_taken_by(std::string tool);

}  // namespace gpuchrono::cupti
