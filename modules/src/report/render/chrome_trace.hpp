// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Per-block records as Chrome trace-event JSON (the "JSON Array/Object Format" that chrome://tracing and
// https://ui.perfetto.dev open), so a kernel's blocks can be zoomed, searched and measured interactively.
//
// Layout: pid = the device index (process "GPU 0: <name>"), tid = the SM (%smid at the block's start;
// thread "SM 12"), one complete event (ph "X") per (block, region) record with ts and dur in microseconds
// (fractional: ns resolution) on %globaltimer, measured from the earliest record in the report, so the
// kernels of a report appear in the order and at the distances they ran. A block that overlaps another
// on the same SM (several resident at once) goes to an extra track of that SM, tid = sm + 1000 x lane
// ("SM 12 #2"), because trace viewers nest overlapping events of one thread as if one called the other.
// Each event's args carry block, region, sm_start, sm_stop, cycles (null when the SM changed), the kernel
// name and, for loop regions, count and accumulated_ns.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <string>

namespace gpuchrono::report {

// KernelPolicy's activities (Experiment::activities) go to process chrome_trace_activity_pid + device
// ("GPU 0 activities"), one track per CUPTI stream id (tid = stream), one slice per kernel, copy or set named
// after it, with kind, correlation_id, graph_id and grid/block (kernels) or bytes in args. Their ts count from
// the earliest activity of the report: CUPTI's clock is not %globaltimer.
inline constexpr int chrome_trace_activity_pid = 1000;

// Tracks of one SM beyond the first are tid = sm + chrome_trace_lane_stride * lane.
inline constexpr std::uint32_t chrome_trace_lane_stride = 1000;

// The trace as JSON text (compact, one event per line).
std::string render_chrome_trace(const Report& report);

}  // namespace gpuchrono::report
