// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The CUPTI Range Profiler and profiler host functions (cupti_range_profiler.h, cupti_profiler_host.h), resolved
// with dlsym from the libcupti that gpuchrono already loads (cupti/cupti_library.hpp), so building needs
// only the headers. The range profiler exists in CUPTI API version 28 (CUDA 12.9) and later; built against an
// older toolkit (12.4, 12.5) the collector compiles to a refusal that says which CUPTI it needs.
#pragma once

#include <cupti_version.h>

#include <cstddef>
#include <string>

#if CUPTI_API_VERSION >= 28 && __has_include(<cupti_range_profiler.h>) && __has_include(<cupti_profiler_host.h>)
#define GPUCHRONO_HAS_RANGE_PROFILER 1
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#else
#define GPUCHRONO_HAS_RANGE_PROFILER 0
#endif

namespace gpuchrono::metrics::detail {

// The CUPTI API version the range profiler needs, for messages.
inline constexpr const char* range_profiler_requirement =
    "CUPTI's Range Profiler (cupti_range_profiler.h, CUPTI API version 28 = CUDA 12.9, or newer)";

#if GPUCHRONO_HAS_RANGE_PROFILER
struct ProfilerFunctions {
    decltype(&::cuptiProfilerInitialize) initialize = nullptr;
    decltype(&::cuptiDeviceGetChipName) device_get_chip_name = nullptr;
    decltype(&::cuptiProfilerGetCounterAvailability) get_counter_availability = nullptr;
    decltype(&::cuptiProfilerDeviceSupported) device_supported = nullptr;
    decltype(&::cuptiProfilerHostInitialize) host_initialize = nullptr;
    decltype(&::cuptiProfilerHostDeinitialize) host_deinitialize = nullptr;
    decltype(&::cuptiProfilerHostGetBaseMetrics) host_get_base_metrics = nullptr;
    decltype(&::cuptiProfilerHostGetSubMetrics) host_get_sub_metrics = nullptr;
    decltype(&::cuptiProfilerHostGetMetricProperties) host_get_metric_properties = nullptr;
    decltype(&::cuptiProfilerHostConfigAddMetrics) host_config_add_metrics = nullptr;
    decltype(&::cuptiProfilerHostGetConfigImageSize) host_get_config_image_size = nullptr;
    decltype(&::cuptiProfilerHostGetConfigImage) host_get_config_image = nullptr;
    decltype(&::cuptiProfilerHostGetNumOfPasses) host_get_num_of_passes = nullptr;
    decltype(&::cuptiProfilerHostEvaluateToGpuValues) host_evaluate_to_gpu_values = nullptr;
    decltype(&::cuptiRangeProfilerEnable) enable = nullptr;
    decltype(&::cuptiRangeProfilerDisable) disable = nullptr;
    decltype(&::cuptiRangeProfilerGetCounterDataSize) get_counter_data_size = nullptr;
    decltype(&::cuptiRangeProfilerCounterDataImageInitialize) counter_data_image_initialize = nullptr;
    decltype(&::cuptiRangeProfilerSetConfig) set_config = nullptr;
    decltype(&::cuptiRangeProfilerStart) start = nullptr;
    decltype(&::cuptiRangeProfilerStop) stop = nullptr;
    decltype(&::cuptiRangeProfilerDecodeData) decode_data = nullptr;
    decltype(&::cuptiRangeProfilerGetCounterDataInfo) get_counter_data_info = nullptr;
    decltype(&::cuptiRangeProfilerCounterDataGetRangeInfo) counter_data_get_range_info = nullptr;
};
#else
struct ProfilerFunctions {};
#endif

// A CUPTI parameter block zeroed, with its size set (every field a call does not name stays 0 / null).
template <class P>
P params(std::size_t struct_size) {
    P p{};
    p.structSize = struct_size;
    return p;
}

// The process's one resolution (thread-safe, made on first call). Throws std::runtime_error saying why the
// profiler cannot be used: CUPTI not loaded (where it was looked for), a CUPTI without these functions, or a
// gpuchrono built against a toolkit without the range profiler.
const ProfilerFunctions& profiler_functions();

}  // namespace gpuchrono::metrics::detail
