// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Everything `import gpuchrono;` makes visible, for host C++ translation units that include rather than import
// (any compiler, any generator). gpuchrono.cppm's global module fragment includes exactly this header, so the
// two ways see one list. Not for .cu files: the statistics views need range-v3, which nvcc cannot compile; a
// .cu file includes <gpuchrono/gpuchrono.hpp> (timers, policies, measurements).
#pragma once

#include <gpuchrono/gpuchrono.hpp>
#include <gpuchrono/job/job_merge.hpp>
#include <gpuchrono/distributed/rank_section.hpp>
#include <gpuchrono/distributed/collective_bandwidth.hpp>
#include <gpuchrono/report/model/report_section.hpp>
#include <gpuchrono/measure/compare.hpp>
#include <gpuchrono/measure/measure.hpp>
#include <gpuchrono/measure/measure_record.hpp>
#include <gpuchrono/measure/sequential_compare.hpp>
#include <gpuchrono/report/model/sweep.hpp>
#include <gpuchrono/metrics/metric_catalogue.hpp>
#include <gpuchrono/metrics/collect.hpp>
#include <gpuchrono/metrics/metrics_scope.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/progress.hpp>
#include <gpuchrono/report/render/report_files.hpp>
#include <gpuchrono/report/json/report_json.hpp>
#include <gpuchrono/report/render/text_report.hpp>
#include <gpuchrono/report/render/units.hpp>
#include <gpuchrono/report/render/write_report.hpp>
#include <gpuchrono/stats/stats.hpp>
#include <gpuchrono/checks/summary.hpp>
#include <gpuchrono/stats/views.hpp>
#include <gpuchrono/testing/check_result.hpp>
#include <gpuchrono/testing/comparison_checks.hpp>
#include <gpuchrono/testing/findings_checks.hpp>
#include <gpuchrono/testing/metric_checks.hpp>
#include <gpuchrono/testing/sequential_checks.hpp>
#include <gpuchrono/metrics/device_peaks.hpp>
#include <gpuchrono/metrics/roofline_points.hpp>
