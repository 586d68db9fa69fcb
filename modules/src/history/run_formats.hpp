// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The readers of each report format the history takes, from a parsed document to a run without its commit
// (read_run.cpp adds that). Each throws json::ReadError naming the member that is wrong.
#pragma once

#include "json/json_reader.hpp"

#include "history/record.hpp"
#include <gpuchrono/report/json/report_json.hpp>

#include <string_view>

namespace gpuchrono::history {

RunRecord run_from_report(std::string_view text);                 // gpuchrono-report: library and `gpuchrono run`
RunRecord run_from_job(const json::Json& document);               // gpuchrono-job: a merged job
RunRecord run_from_pytest_benchmark(const json::Json& document);  // pytest-benchmark --benchmark-json
RunRecord run_from_google_benchmark(const json::Json& document);  // Google Benchmark --benchmark_out
RunRecord run_from_asv(const json::Json& document);               // asv's results file (version 2)
bool is_asv_results(const json::Json& document);

}  // namespace gpuchrono::history
