// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A Report as JSON and back: the file layout documented in docs/report-json.md (schema_version 1).
// Every raw sample goes into the file, so a report saved on the GPU machine renders every other format
// (text, CSV, SVG, Chrome trace) on a machine without a GPU, with nothing lost but NaN-ness of absent
// figures (written as null, read back as NaN).
//
// The JSON itself is nlohmann-json, a private dependency of the library: this header (like every
// installed one) needs no JSON headers.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuchrono::report {

// A report that cannot be read: one line naming the file (when it came from one), where in the document
// (a path like "experiments[1].series[0].samples_ns[4]") and what was wrong, e.g.
// "out/report.json: experiments[0].series[2].samples_ns[5]: expected a number, found string" or
// "out/report.json: parse error at line 3, column 7: ... (the file ends early: truncated?)".
class ReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// load_report() refuses larger files with a ReportError saying so, before reading them: a report of that
// size is not one gpuchrono wrote (a million per-block records take ~330 MB), and parsing holds the whole
// document in memory (about three times the file). Anything up to the limit is read in full.
inline constexpr std::uintmax_t max_report_file_bytes = std::uintmax_t{1} << 30;  // 1 GiB

// The JSON text of `report` (2-space indent, no trailing newline), as save_report writes it. Names that
// are not valid UTF-8 are written with U+FFFD in place of each invalid byte, so the text is valid JSON.
std::string to_json(const Report& report);

// Reads a report document from JSON text. Throws ReportError naming the member that is wrong, and refuses
// a schema_version newer than this library's. Members it does not know are ignored (later minor
// additions stay readable).
Report report_from_json(std::string_view text);

// File helpers. save_report writes to_json() and a newline, and throws std::runtime_error naming the file
// when it cannot be written. load_report throws ReportError naming the file for everything that can be
// wrong with it: absent, unreadable, a directory, empty, larger than max_report_file_bytes, not JSON,
// truncated, or not a report.
void save_report(const Report& report, const std::filesystem::path& file);
Report load_report(const std::filesystem::path& file);

// load_report(), except that each GPU activity (experiments[].activities[]) goes to `on_activity` as soon
// as it is read, in file order, instead of into the report (whose experiments then have none): the
// activities never stand as one JSON document, which takes about six times their text. The merge of a job
// reads rank reports this way. Refusals as load_report's, the member's path counting every activity.
using ActivitySink = std::function<void(KernelActivity&&)>;
Report load_report_streaming_activities(const std::filesystem::path& file, const ActivitySink& on_activity);

}  // namespace gpuchrono::report
