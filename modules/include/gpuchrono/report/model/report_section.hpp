// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Every report says which process wrote it: report::new_report() starts Report::distributed (identity from the
// launcher, start anchor) and the writers finish it here (end anchor, the identity of each device the report's
// measurements ran on), so a report written without a ScopeLog still carries rank, devices and clock anchors
// and can be merged with its job's other ranks.
#pragma once

#include <gpuchrono/distributed/rank_section.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::report {
struct Report;
}

namespace gpuchrono::distributed {

// The device ordinals a report's measurements ran on, ascending: its device, its series' devices, its
// activities' and timelines' devices.
std::vector<int> devices_of(const report::Report& report);

// What a writer records as the report's "distributed" section. A section holding only its start anchor (made
// by new_report() in this process and not yet written) is returned with an end anchor (reading CUPTI's clock
// too when the report has GPU activities) and the identity of every device of devices_of() it does not name;
// a device that cannot be described here (no CUDA device) is named in `notes` instead. Any other section (a
// ScopeLog's finish(), one read from a file) is returned as it is: describing devices now could name another
// machine's GPUs. nullopt when the report has no section.
std::optional<RankSection> finished_report_section(const report::Report& report, std::vector<std::string>& notes);

}  // namespace gpuchrono::distributed
