// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The "distributed" member of report.json (docs/report-json.md): a RankSection as JSON and back. Kept apart
// from report_json_write.cpp and report_json_read.cpp so that they do not grow with every section.
#pragma once

#include <gpuchrono/distributed/rank_section.hpp>

#include "json/json_writer.hpp"

#include <string>

namespace gpuchrono::distributed::detail {

json::Json rank_section_json(const RankSection& section);

// Throws report::ReportError naming the member ("distributed.anchors[1].steady_ns: ...").
RankSection read_rank_section(const json::Json& value, const std::string& path);

}  // namespace gpuchrono::distributed::detail
