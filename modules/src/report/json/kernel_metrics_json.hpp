// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The "kernel_metrics" member of a series in report.json (docs/report-json.md, "Hardware metrics"): a
// metrics::MetricsResult written and read back whole, NaN as null. Private to the report library: the series
// writer and reader (report_json_write.cpp, report_json_read.cpp) call it, so the metrics layout lives in a
// file of its own.
#pragma once

#include "json/json_writer.hpp"

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <string>

namespace gpuchrono::report::detail {

using json::Json;

Json kernel_metrics_json(const metrics::MetricsResult& result);

// Throws ReportError naming the member (below `path`, e.g. "experiments[0].series[1].kernel_metrics") that is
// wrong. Absent members read as their defaults, NaN for numbers.
metrics::MetricsResult read_kernel_metrics(const Json& value, const std::string& path);

}  // namespace gpuchrono::report::detail
