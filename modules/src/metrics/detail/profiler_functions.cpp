// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "profiler_functions.hpp"

#include "cupti/cupti_library.hpp"

#include <dlfcn.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace gpuchrono::metrics::detail {

namespace {

#if GPUCHRONO_HAS_RANGE_PROFILER
template <class F>
void resolve(void* handle, F& fn, const char* name, std::string& missing) {
    fn = reinterpret_cast<F>(dlsym(handle, name));
    if (!fn) missing += std::string(missing.empty() ? "" : ", ") + name;
}

struct Resolved {
    ProfilerFunctions functions;
    std::string error;
};

Resolved resolve_all() {
    Resolved r;
    const cupti::CuptiLibrary& lib = cupti::cupti_library();
    if (!lib.loaded() || lib.handle == nullptr) {
        r.error = "hardware metrics need CUPTI: " + (lib.error.empty() ? std::string("not loaded") : lib.error);
        return r;
    }
    ProfilerFunctions& f = r.functions;
    std::string missing;
    resolve(lib.handle, f.initialize, "cuptiProfilerInitialize", missing);
    resolve(lib.handle, f.device_get_chip_name, "cuptiDeviceGetChipName", missing);
    resolve(lib.handle, f.get_counter_availability, "cuptiProfilerGetCounterAvailability", missing);
    resolve(lib.handle, f.device_supported, "cuptiProfilerDeviceSupported", missing);
    resolve(lib.handle, f.host_initialize, "cuptiProfilerHostInitialize", missing);
    resolve(lib.handle, f.host_deinitialize, "cuptiProfilerHostDeinitialize", missing);
    resolve(lib.handle, f.host_get_base_metrics, "cuptiProfilerHostGetBaseMetrics", missing);
    resolve(lib.handle, f.host_get_sub_metrics, "cuptiProfilerHostGetSubMetrics", missing);
    resolve(lib.handle, f.host_get_metric_properties, "cuptiProfilerHostGetMetricProperties", missing);
    resolve(lib.handle, f.host_config_add_metrics, "cuptiProfilerHostConfigAddMetrics", missing);
    resolve(lib.handle, f.host_get_config_image_size, "cuptiProfilerHostGetConfigImageSize", missing);
    resolve(lib.handle, f.host_get_config_image, "cuptiProfilerHostGetConfigImage", missing);
    resolve(lib.handle, f.host_get_num_of_passes, "cuptiProfilerHostGetNumOfPasses", missing);
    resolve(lib.handle, f.host_evaluate_to_gpu_values, "cuptiProfilerHostEvaluateToGpuValues", missing);
    resolve(lib.handle, f.enable, "cuptiRangeProfilerEnable", missing);
    resolve(lib.handle, f.disable, "cuptiRangeProfilerDisable", missing);
    resolve(lib.handle, f.get_counter_data_size, "cuptiRangeProfilerGetCounterDataSize", missing);
    resolve(lib.handle, f.counter_data_image_initialize, "cuptiRangeProfilerCounterDataImageInitialize", missing);
    resolve(lib.handle, f.set_config, "cuptiRangeProfilerSetConfig", missing);
    resolve(lib.handle, f.start, "cuptiRangeProfilerStart", missing);
    resolve(lib.handle, f.stop, "cuptiRangeProfilerStop", missing);
    resolve(lib.handle, f.decode_data, "cuptiRangeProfilerDecodeData", missing);
    resolve(lib.handle, f.get_counter_data_info, "cuptiRangeProfilerGetCounterDataInfo", missing);
    resolve(lib.handle, f.counter_data_get_range_info, "cuptiRangeProfilerCounterDataGetRangeInfo", missing);
    if (!missing.empty())
        r.error = lib.path + " lacks " + missing + ": hardware metrics need " + range_profiler_requirement;
    return r;
}
#endif

}  // namespace

const ProfilerFunctions& profiler_functions() {
#if GPUCHRONO_HAS_RANGE_PROFILER
    static const Resolved resolved = resolve_all();
    if (!resolved.error.empty()) throw std::runtime_error(resolved.error);
    return resolved.functions;
#else
    throw std::runtime_error(std::string("hardware metrics need ") + range_profiler_requirement +
                             ": this gpuchrono was built against CUPTI API version " +
                             std::to_string(CUPTI_API_VERSION) + ", which has none; rebuild it with CUDA 12.9 or 13.x");
#endif
}

}  // namespace gpuchrono::metrics::detail
