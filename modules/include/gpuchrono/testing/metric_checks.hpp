// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A check over hardware metrics for unit tests: "this kernel reads less than N DRAM bytes",
// "this loop runs above 80% of the SM's throughput". It reads a MetricsResult (a MetricsScope's, or the one
// measure() kept with a Series when MeasureOptions::metrics asked for metrics) and compares each launch of
// the kernel against the bound. The message says what was measured either way: the value with its unit, the
// kernel and launch, and the bound; a metric that was not collected fails with the names that were.
//
//     gpuchrono::CheckResult r = gpuchrono::check_metric(series, "dram__bytes_read.sum",
//                                                        gpuchrono::MetricBound::less_than, 300e6);
//
// Host only.
#pragma once

#include <gpuchrono/core/series.hpp>
#include <gpuchrono/metrics/kernel_metrics.hpp>
#include <gpuchrono/testing/check_result.hpp>

#include <string_view>

namespace gpuchrono {

enum class MetricBound { less_than, less_equal, greater_than, greater_equal };

// "<", "<=", ">", ">=".
const char* to_string(MetricBound bound) noexcept;

// Passes when every launch of `kernel` has a finite value of `metric` within the bound. An empty `kernel`
// means the only kernel the result holds; a result with several kernel names fails, listing them (say which).
// Fails too when the result holds no kernels, the kernel is absent, the metric was not collected (the message
// lists what was), or its value is NaN (the device could not evaluate it).
CheckResult check_metric(const metrics::MetricsResult& result, std::string_view metric, MetricBound bound, double limit,
                         std::string_view kernel = {});

// The same over the metrics measure() kept with the series (Series::measure_record()->kernel_metrics); fails,
// saying so, for a series measure() did not take or took without metrics.
CheckResult check_metric(const Series& series, std::string_view metric, MetricBound bound, double limit,
                         std::string_view kernel = {});

}  // namespace gpuchrono
