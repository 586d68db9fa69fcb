// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// load_report_streaming_activities for a caller that reads many reports in turn (each of the job merge's
// reading threads): the file's text goes into `text`, whose capacity the caller keeps, so a thread allocates
// and faults in the pages of a rank report of tens of megabytes once rather than once per report.
#pragma once

#include <gpuchrono/report/json/report_json.hpp>

#include <filesystem>
#include <string>

namespace gpuchrono::report {

Report load_report_streaming_activities(const std::filesystem::path& file, const ActivitySink& on_activity, std::string& text);

}  // namespace gpuchrono::report
