// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A heat map of lateness: one row per rank, one column per step, each cell coloured by how late the rank
// ended that step (white on time, dark red at the step's largest lateness in the whole map).
#pragma once

#include <gpuchrono/distributed/straggler_analysis.hpp>

#include <string>

namespace gpuchrono::distributed {

std::string render_lateness_svg(const ScopeStragglers& scope);

}  // namespace gpuchrono::distributed
