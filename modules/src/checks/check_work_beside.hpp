// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// concurrent-work-overlapped / concurrent-work-beside: other streams' work that ran while a KernelPolicy scope's
// did. Pure over what the records say (cupti::work_beside), so the policy gathers and this decides.
#pragma once

#include <gpuchrono/core/finding.hpp>
#include "cupti/activity_intervals.hpp"

#include <optional>

namespace gpuchrono {

// The finding for `beside`, the work beside the scope's on a device of `sm_count` SMs; nullopt when nothing
// overlapped. Overlapped when it stretches the reading (beside.stretches()), else beside.
std::optional<Finding> check_work_beside(const cupti::WorkBeside& beside, int sm_count);

}  // namespace gpuchrono
