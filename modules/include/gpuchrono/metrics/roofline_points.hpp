// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One roofline point per kernel launch of a MetricsResult, from the counters a collection took:
//   FLOPs      smsp__sass_thread_inst_executed_op_{f,d}{add,mul,fma}_pred_on.sum (add + mul + 2 fma), of the
//              precision with the larger count ("fp32" or "fp64");
//   DRAM bytes dram__bytes_read.sum + dram__bytes_write.sum (or dram__bytes.sum when only that was taken);
//   time       gpu__time_duration.sum;
//   roofs      result.peaks (DRAM bytes/s and the FLOP/s of the point's precision).
// A launch without the counters gets no point; roofline_point_notes() names it with the metrics it lacks, so
// nothing is dropped silently. Pure arithmetic over the result: device-free.
#pragma once

#include <gpuchrono/metrics/kernel_metrics.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono::metrics {

// The metric names a roofline point needs, for a collection to add to what the user asked for.
std::vector<std::string_view> roofline_metric_names();

// The points of every launch that has the counters, in launch order. Without peaks (or with a NaN peak) the
// point still has its intensity and achieved FLOP/s; attainable and bound stay NaN / empty.
std::vector<RooflinePoint> roofline_points(const MetricsResult& result);

// Why launches got no point (one line each, e.g. "no roofline point for \"copy\" launch 0: it lacks
// smsp__sass_thread_inst_executed_op_ffma_pred_on.sum, ..."), and what is missing for the roofs.
std::vector<std::string> roofline_point_notes(const MetricsResult& result);

// Fills result.roofline with roofline_points() and appends roofline_point_notes() to result.notes: what a
// collection calls at its end, once result.peaks is set.
void add_roofline(MetricsResult& result);

}  // namespace gpuchrono::metrics
