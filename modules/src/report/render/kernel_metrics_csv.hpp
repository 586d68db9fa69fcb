// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hardware metrics as CSV tables (the conventions of csv.hpp: long form, NaN as an empty field):
//
//   kernel_metrics  experiment,series,kernel,launch,device,metric,value,unit,note  every metric of every launch (note: out of its unit's range)
//   roofline        experiment,series,kernel,launch,precision,flops,dram_bytes,seconds,intensity,
//                   achieved_flops_per_second,attainable_flops_per_second,bound,
//                   peak_flops_per_second,peak_dram_bytes_per_second             one row per roofline point
//
// write_report_files writes them (kernel_metrics.csv, roofline.csv) when a series of the report carries metrics.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <string>

namespace gpuchrono::report {

// Whether any series of the report carries hardware metrics.
bool has_kernel_metrics(const Report& report) noexcept;

std::string render_kernel_metrics_csv(const Report& report);
std::string render_roofline_csv(const Report& report);

}  // namespace gpuchrono::report
