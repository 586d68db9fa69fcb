// The "distributed" member of report.json (docs/report-json.md): a RankSection as JSON and back. Kept apart
// from report_json.cpp so that the report's main file does not grow with every section.
#pragma once

#include <gpuchrono/distributed/rank_section.hpp>

#include "json/json_writer.hpp"

#include <string>

namespace gpuchrono::distributed::detail {

report::detail::Json rank_section_json(const RankSection& section);

// Throws report::ReportError naming the member ("distributed.anchors[1].steady_ns: ...").
RankSection read_rank_section(const report::detail::Json& value, const std::string& path);

}  // namespace gpuchrono::distributed::detail
