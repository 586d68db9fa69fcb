// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cupti_failure.hpp"

#include "cupti/cupti_library.hpp"

#include <cupti_version.h>

#include <stdexcept>

namespace gpuchrono::metrics::detail {

namespace {

const char* code_name(CUptiResult code) {
    switch (code) {
        case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: return "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
            return "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES";
        case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: return "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
        case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED: return "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED";
        case CUPTI_ERROR_HARDWARE_BUSY: return "CUPTI_ERROR_HARDWARE_BUSY";
        case CUPTI_ERROR_NOT_COMPATIBLE: return "CUPTI_ERROR_NOT_COMPATIBLE";
        case CUPTI_ERROR_NOT_SUPPORTED: return "CUPTI_ERROR_NOT_SUPPORTED";
        case CUPTI_ERROR_NOT_INITIALIZED: return "CUPTI_ERROR_NOT_INITIALIZED";
        case CUPTI_ERROR_INVALID_CONTEXT: return "CUPTI_ERROR_INVALID_CONTEXT";
        case CUPTI_ERROR_INVALID_DEVICE: return "CUPTI_ERROR_INVALID_DEVICE";
        case CUPTI_ERROR_INVALID_OPERATION: return "CUPTI_ERROR_INVALID_OPERATION";
        case CUPTI_ERROR_INVALID_PARAMETER: return "CUPTI_ERROR_INVALID_PARAMETER";
        case CUPTI_ERROR_INVALID_METRIC_NAME: return "CUPTI_ERROR_INVALID_METRIC_NAME";
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED";
// The codes CUPTI added last (41-46), named where the headers have them: the collector needs CUPTI API 28+
// anyway, and CUPTI_ERROR_INVALID_CHIP_NAME is new in CUDA 13.
#if CUPTI_API_VERSION >= 28
        case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED: return "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED";
        case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED";
        case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED";
        case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED";
        case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED";
#endif
#if CUPTI_API_VERSION >= 130000
        case CUPTI_ERROR_INVALID_CHIP_NAME: return "CUPTI_ERROR_INVALID_CHIP_NAME";
#endif
        case CUPTI_ERROR_OUT_OF_MEMORY: return "CUPTI_ERROR_OUT_OF_MEMORY";
        case CUPTI_ERROR_UNKNOWN: return "CUPTI_ERROR_UNKNOWN";
        default: return nullptr;
    }
}

}  // namespace

std::string advice_for(CUptiResult code) {
    switch (code) {
        case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
            return "Profiling is not permitted for this user (ERR_NVGPUCTRPERM): the driver restricts GPU performance "
                   "counters to administrators. Run as root, or allow all users by loading the nvidia module with "
                   "NVreg_RestrictProfilingToAdminUsers=0 (e.g. a line 'options nvidia "
                   "NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/, then reboot), as NVIDIA's page "
                   "\"ERR_NVGPUCTRPERM: Permission issue with Performance Counters\" describes; in a vGPU, the host "
                   "must enable profiling for the VM";
        case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        case CUPTI_ERROR_HARDWARE_BUSY:
            return "Another profiler already holds the GPU's counters in this process or on this device (Nsight "
                   "Compute/ncu, Nsight Systems with GPU metrics, DCGM profiling, or a second gpuchrono MetricsScope): "
                   "one profiler at a time; run without the other tool, or end the other scope first";
        case CUPTI_ERROR_NOT_COMPATIBLE:
            return "The profiler cannot run alongside what is already enabled in this process (another tool "
                   "injected into it, e.g. ncu or nsys): run without it";
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
#if CUPTI_API_VERSION >= 28
        case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
#endif
#if CUPTI_API_VERSION >= 130000
        case CUPTI_ERROR_INVALID_CHIP_NAME:
#endif
        case CUPTI_ERROR_NOT_SUPPORTED:
            return "This device or configuration does not support hardware counters through CUPTI's profiler";
        case CUPTI_ERROR_INVALID_CONTEXT:
            return "The CUDA context is gone (was the device reset, e.g. cudaDeviceReset(), during the scope?): "
                   "its counters are lost";
        default: return "";
    }
}

std::string explain_cupti_failure(CUptiResult code, std::string_view call, std::string_view cupti_text) {
    std::string m = std::string(call) + " failed: ";
    const char* name = code_name(code);
    m += name ? std::string(name) : "CUPTI error " + std::to_string(static_cast<int>(code));
    if (!cupti_text.empty()) m += ": " + std::string(cupti_text);
    if (const std::string advice = advice_for(code); !advice.empty()) m += ". " + advice;
    return m;
}

std::string cupti_result_text(CUptiResult code) {
    const char* text = nullptr;
    const cupti::CuptiLibrary& lib = cupti::cupti_library();
    if (lib.get_result_string && lib.get_result_string(code, &text) == CUPTI_SUCCESS && text) return text;
    return {};
}

void require_cupti_success(CUptiResult code, std::string_view call) {
    if (code == CUPTI_SUCCESS) return;
    throw std::runtime_error("hardware metrics: " + explain_cupti_failure(code, call, cupti_result_text(code)));
}

}  // namespace gpuchrono::metrics::detail
