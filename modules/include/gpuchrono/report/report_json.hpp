// A Report as JSON and back: the file layout documented in docs/report-json.md (schema_version 1).
// Every raw sample goes into the file, so a report saved on the GPU machine renders every other format
// (text, CSV, SVG, Chrome trace) on a machine without a GPU, with nothing lost but NaN-ness of absent
// figures (written as null, read back as NaN).
#pragma once

#include <gpuchrono/report/json.hpp>
#include <gpuchrono/report/report.hpp>

#include <filesystem>
#include <string>

namespace gpuchrono::report {

json::Value to_json(const Report& report);

// Reads a report document. Throws std::invalid_argument naming the member that is wrong, as a path like
// "experiments[1].series[0].samples_ns[4]: expected a number, found string", and refuses a schema_version
// newer than this library's. Members it does not know are ignored (later minor additions stay readable).
Report report_from_json(const json::Value& document);

// File helpers. save_report writes the JSON text (2-space indent); both throw std::runtime_error naming
// the file when it cannot be written or read, and load_report lets json::ParseError and
// std::invalid_argument through with the file name prepended.
void save_report(const Report& report, const std::filesystem::path& file);
Report load_report(const std::filesystem::path& file);

}  // namespace gpuchrono::report
