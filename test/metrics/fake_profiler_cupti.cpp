// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A stand-in for libcupti, loaded through GPUCHRONO_CUPTI by metrics_refused.cpp, that reaches the profiler's
// refusals without a GPU: the activity functions gpuchrono's loader resolves exist (and are never called), the
// API version is the build's, and cuptiProfilerInitialize returns the CUptiResult named by
// $FAKE_CUPTI_PROFILER_RESULT (e.g. 35, CUPTI_ERROR_INSUFFICIENT_PRIVILEGES). Built without the range profiler's
// functions (FAKE_CUPTI_NO_RANGE_PROFILER) it stands for a CUPTI older than CUDA 12.9.
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_version.h>

#include <cstdint>
#include <cstdlib>

extern "C" {
CUptiResult CUPTIAPI cuptiGetVersion(std::uint32_t* version) {
    *version = CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult, const char** text) {
    *text = "fake CUPTI's description";
    return CUPTI_SUCCESS;
}
#include "fake_cupti_loader_functions.hpp"

// The exact type: UBSan (-fsanitize=function, the asan job) refuses a call through a pointer of another type.
CUptiResult CUPTIAPI cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params*) {
    const char* code = std::getenv("FAKE_CUPTI_PROFILER_RESULT");
    return static_cast<CUptiResult>(code ? std::atoi(code) : 999);
}
int cuptiDeviceGetChipName() { return 999; }
CUptiResult CUPTIAPI cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params*) {
    return static_cast<CUptiResult>(999);
}
CUptiResult CUPTIAPI cuptiProfilerDeviceSupported(CUpti_Profiler_DeviceSupported_Params*) {
    return static_cast<CUptiResult>(999);
}
int cuptiProfilerHostInitialize() { return 999; }
int cuptiProfilerHostDeinitialize() { return 999; }
int cuptiProfilerHostGetBaseMetrics() { return 999; }
int cuptiProfilerHostGetSubMetrics() { return 999; }
int cuptiProfilerHostGetMetricProperties() { return 999; }
int cuptiProfilerHostConfigAddMetrics() { return 999; }
int cuptiProfilerHostGetConfigImageSize() { return 999; }
int cuptiProfilerHostGetConfigImage() { return 999; }
int cuptiProfilerHostGetNumOfPasses() { return 999; }
int cuptiProfilerHostEvaluateToGpuValues() { return 999; }
#if !defined(FAKE_CUPTI_NO_RANGE_PROFILER)
int cuptiRangeProfilerEnable() { return 999; }
#endif
int cuptiRangeProfilerDisable() { return 999; }
int cuptiRangeProfilerGetCounterDataSize() { return 999; }
int cuptiRangeProfilerCounterDataImageInitialize() { return 999; }
int cuptiRangeProfilerSetConfig() { return 999; }
int cuptiRangeProfilerStart() { return 999; }
int cuptiRangeProfilerStop() { return 999; }
int cuptiRangeProfilerDecodeData() { return 999; }
int cuptiRangeProfilerGetCounterDataInfo() { return 999; }
int cuptiRangeProfilerCounterDataGetRangeInfo() { return 999; }
}
