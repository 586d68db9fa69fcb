# Hardware metrics (issue 23): the metric names (ready sets, close-name suggestions) and the roofline arithmetic.
# Device-free so far; headers in include/gpuchrono/metrics/, installed with the others.
target_sources(gpuchrono PRIVATE
  src/metrics/kernel_metrics.cpp
  src/metrics/metric_catalogue.cpp
  src/metrics/roofline_math.cpp)
target_sources(gpuchrono PRIVATE
  src/metrics/device_peaks.cpp
  src/metrics/roofline_points.cpp
  src/testing/metric_checks.cpp
  src/report/kernel_metrics_json.cpp
  src/report/kernel_metrics_text.cpp
  src/report/kernel_metrics_csv.cpp
  src/report/roofline_svg.cpp
  src/measure/metric_comparison.cpp)
# Collection through CUPTI's Range Profiler (CUDA 12.9+; a refusal on older toolkits): the scope and its internals.
target_sources(gpuchrono PRIVATE
  src/metrics/metrics_scope.cpp
  src/metrics/collect.cpp
  src/metrics/detail/one_session.cpp
  src/metrics/detail/collection_plan.cpp
  src/metrics/detail/cupti_failure.cpp
  src/metrics/detail/profiler_functions.cpp
  src/metrics/detail/range_session.cpp)
