// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The merged job as a text table: ranks with their clock alignment, then per scope name the straggler
// summary (how often each rank was last, its total lateness, what the others waited) and the worst steps.
#pragma once

#include <gpuchrono/job/job_merge.hpp>

#include <string>

namespace gpuchrono::distributed {

std::string render_job_text(const MergedJob& job);

}  // namespace gpuchrono::distributed
