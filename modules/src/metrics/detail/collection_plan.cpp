// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "collection_plan.hpp"

#include "cupti/cupti_library.hpp"
#include "cupti_failure.hpp"
#include "range_session.hpp"

#include <gpuchrono/metrics/metric_catalogue.hpp>

#include <cuda.h>  // types only: driver functions come through the runtime's entry points
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string_view>

namespace gpuchrono::metrics::detail {

std::string metric_unit(std::string_view name, std::string_view dimension_unit) {
    const std::size_t dot = name.find('.');
    const std::string_view suffix = dot == std::string_view::npos ? std::string_view{} : name.substr(dot);
    if (suffix.find("pct") != std::string_view::npos) return "%";
    if (suffix.find(".ratio") != std::string_view::npos) return "";
    if (suffix.find("per_second") != std::string_view::npos) return std::string(dimension_unit) + "/second";
    if (suffix.find("per_cycle") != std::string_view::npos) return std::string(dimension_unit) + "/cycle";
    return std::string(dimension_unit);
}

void* current_cuda_context(int device) {
    if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
        const cudaError_t e = cudaGetLastError();
        throw std::runtime_error(std::string("hardware metrics: device ") + std::to_string(device) +
                                 " could not be made current: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
    }
    static CUresult (*get_current)(CUcontext*) = [] {
        void* fn = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 4000, cudaEnableDefault, &found) != cudaSuccess ||
            found != cudaDriverEntryPointSuccess) {
            (void)cudaGetLastError();
            return static_cast<CUresult (*)(CUcontext*)>(nullptr);
        }
        return reinterpret_cast<CUresult (*)(CUcontext*)>(fn);
    }();
    CUcontext ctx = nullptr;
    if (!get_current || get_current(&ctx) != CUDA_SUCCESS || ctx == nullptr)
        throw std::runtime_error("hardware metrics: the driver's current context could not be read (cuCtxGetCurrent)");
    return ctx;
}

namespace {

#if GPUCHRONO_HAS_RANGE_PROFILER
int resolve_device(int device) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        (void)cudaGetLastError();
        throw std::runtime_error(std::string("hardware metrics need a CUDA device: cudaGetDeviceCount says ") +
                                 (e == cudaSuccess ? "0 devices" : cudaGetErrorName(e)));
    }
    if (device < 0) {
        if (cudaGetDevice(&device) != cudaSuccess) {
            (void)cudaGetLastError();
            device = 0;
        }
    }
    if (device >= count)
        throw std::invalid_argument("hardware metrics: device " + std::to_string(device) + " does not exist (" +
                                    std::to_string(count) + " devices)");
    return device;
}

// One way of calling CUPTI here: a failure throws with the call's name, CUPTI's words and the advice.
void call(CUptiResult r, const char* what) { require_cupti_success(r, what); }

// CUPTI's profiler loads NVIDIA's host performance library (NVPW) itself; when it is absent CUPTI reports only
// an internal error, so gpuchrono looks first and says where.
void require_nvperf_host() {
    static const std::string missing = [] {
        const std::string& cupti_path = cupti::cupti_library().path;
        std::vector<std::string> tried;
        std::string dir;
        if (const std::size_t slash = cupti_path.rfind('/'); slash != std::string::npos) dir = cupti_path.substr(0, slash);
        for (const std::string& candidate :
             {dir.empty() ? std::string() : dir + "/libnvperf_host.so", std::string("libnvperf_host.so")}) {
            if (candidate.empty()) continue;
            if (void* h = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) {
                (void)h;  // stays loaded: CUPTI uses it next
                return std::string();
            }
            const char* why = dlerror();
            tried.push_back((candidate == "libnvperf_host.so" ? candidate + " (dynamic loader path)" : candidate) + ": " +
                            (why ? why : "not found"));
        }
        std::string m = "hardware metrics need libnvperf_host.so (NVIDIA's host performance library, which CUPTI's "
                        "profiler loads; it ships next to libcupti in the toolkit), not found: ";
        for (std::size_t i = 0; i < tried.size(); ++i) m += (i ? "; " : "") + tried[i];
        return m + ". Add its folder to LD_LIBRARY_PATH";
    }();
    if (!missing.empty()) throw std::runtime_error(missing);
}

// cuptiProfilerInitialize once per process; a failure is kept and reported again to every caller.
void initialize_profiler(const ProfilerFunctions& f) {
    static const std::string failure = [&f] {
        auto p = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
        const CUptiResult r = f.initialize(&p);
        if (r == CUPTI_SUCCESS) return std::string();
        return "hardware metrics: " + explain_cupti_failure(r, "cuptiProfilerInitialize", cupti_result_text(r));
    }();
    if (!failure.empty()) throw std::runtime_error(failure);
}

struct DeviceMetricList {
    std::vector<std::string> names;            // base names, every type
    std::map<std::string, CUpti_MetricType> type_of;
};

DeviceMetricList device_metric_list(const ProfilerFunctions& f, CUpti_Profiler_Host_Object* host) {
    DeviceMetricList list;
    for (const CUpti_MetricType type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
        auto p = params<CUpti_Profiler_Host_GetBaseMetrics_Params>(CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
        p.pHostObject = host;
        p.metricType = type;
        call(f.host_get_base_metrics(&p), "cuptiProfilerHostGetBaseMetrics");
        for (std::size_t i = 0; i < p.numMetrics; ++i) {
            list.names.emplace_back(p.ppMetricNames[i]);
            list.type_of.emplace(p.ppMetricNames[i], type);
        }
    }
    return list;
}

std::string sub_metrics_of(const ProfilerFunctions& f, CUpti_Profiler_Host_Object* host, const std::string& base,
                           CUpti_MetricType type) {
    auto p = params<CUpti_Profiler_Host_GetSubMetrics_Params>(CUpti_Profiler_Host_GetSubMetrics_Params_STRUCT_SIZE);
    p.pHostObject = host;
    p.metricType = type;
    p.pMetricName = base.c_str();
    if (f.host_get_sub_metrics(&p) != CUPTI_SUCCESS) return "(the device would not list them)";
    std::string s;
    for (std::size_t i = 0; i < p.numOfSubmetrics && i < 40; ++i) s += (i ? ", " : "") + base + p.ppSubMetrics[i];
    if (p.numOfSubmetrics > 40) s += ", ... (" + std::to_string(p.numOfSubmetrics) + " in all)";
    return s;
}

std::shared_ptr<const CollectionPlan> build_plan(const std::vector<std::string>& names, int device) {
    // Without a device, a missing CUPTI or NVPW or CUPTI's own error is only a consequence: say that first, and
    // keep the other words.
    const ProfilerFunctions* functions = nullptr;
    try {
        functions = &profiler_functions();
        require_nvperf_host();
        initialize_profiler(*functions);
    } catch (const std::runtime_error& e) {
        try {
            resolve_device(device);
        } catch (const std::exception& no_device) {
            throw std::runtime_error(std::string(no_device.what()) + "; CUPTI also said: " + e.what());
        }
        throw;
    }
    const ProfilerFunctions& f = *functions;
    device = resolve_device(device);
    void* ctx = current_cuda_context(device);

    auto plan = std::make_shared<CollectionPlan>();
    plan->device = device;
    plan->metrics = names;
    auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = static_cast<std::size_t>(device);
    call(f.device_get_chip_name(&chip), "cuptiDeviceGetChipName");
    plan->chip = chip.pChipName;

    // The query fails while the range profiler is enabled on the context (kept between sessions): released first.
    auto avail = params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    avail.ctx = static_cast<CUcontext>(ctx);
    // On the H100 the size query succeeded but the image query failed (CUPTI_ERROR_INVALID_PARAMETER) while the
    // profiler was enabled. The image is the device's: kept per device from the first query, made before the
    // device's first session; another query releases the kept profiler first.
    static std::map<int, std::vector<std::uint8_t>> availability_of;
    std::vector<std::uint8_t>& availability = availability_of[device];
    if (availability.empty()) {
        release_kept_profiler();
        call(f.get_counter_availability(&avail), "cuptiProfilerGetCounterAvailability (size)");
        availability.resize(avail.counterAvailabilityImageSize);
        avail.pCounterAvailabilityImage = availability.data();
        if (const CUptiResult r = f.get_counter_availability(&avail); r != CUPTI_SUCCESS) {
            availability.clear();
            call(r, "cuptiProfilerGetCounterAvailability");
        }
    }

    auto init = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    init.pChipName = plan->chip.c_str();
    init.pCounterAvailabilityImage = availability.data();
    call(f.host_initialize(&init), "cuptiProfilerHostInitialize");
    plan->host = init.pHostObject;

    // Every name checked against the device's list before the config is built, so the refusal names them all.
    const DeviceMetricList list = device_metric_list(f, plan->host);
    std::vector<std::string_view> views(list.names.begin(), list.names.end());
    for (const std::string& name : names) {
        const std::string base = name.substr(0, name.find('.'));
        if (list.type_of.count(base) == 0) {
            try {
                require_known_metric(base, views, "the device's metric list (" + plan->chip + ")");
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument("metric '" + name + "' is not on this GPU: " + e.what());
            }
        }
    }
    // All names in one call (on the H100, CUDA 13.0, three sass instruction metrics added one call each came
    // back with the first one's value for all three). Only when that call fails are they added one by one, on
    // a fresh host object, to name the metric the device refused.
    bool added_together = false;
    {
        std::vector<const char*> all;
        for (const std::string& name : names) all.push_back(name.c_str());
        auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
        add.pHostObject = plan->host;
        add.ppMetricNames = all.data();
        add.numMetrics = all.size();
        added_together = f.host_config_add_metrics(&add) == CUPTI_SUCCESS;
        if (!added_together) {
            auto deinit = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
            deinit.pHostObject = plan->host;
            (void)f.host_deinitialize(&deinit);
            call(f.host_initialize(&init), "cuptiProfilerHostInitialize");
            plan->host = init.pHostObject;
        }
    }
    for (const std::string& name : names) {
        const char* one = name.c_str();
        auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
        add.pHostObject = plan->host;
        add.ppMetricNames = &one;
        add.numMetrics = 1;
        if (const CUptiResult r = added_together ? CUPTI_SUCCESS : f.host_config_add_metrics(&add); r != CUPTI_SUCCESS) {
            const std::string base = name.substr(0, name.find('.'));
            throw std::invalid_argument("metric '" + name + "' was refused by the device (" +
                                        explain_cupti_failure(r, "cuptiProfilerHostConfigAddMetrics", cupti_result_text(r)) +
                                        "); the forms of " + base + " it knows: " +
                                        sub_metrics_of(f, plan->host, base, list.type_of.at(base)));
        }
        auto props = params<CUpti_Profiler_Host_GetMetricProperties_Params>(CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
        props.pHostObject = plan->host;
        const std::string base = name.substr(0, name.find('.'));
        props.pMetricName = base.c_str();
        const bool described = f.host_get_metric_properties(&props) == CUPTI_SUCCESS && props.pDimUnit;
        plan->units.push_back(metric_unit(name, described ? props.pDimUnit : ""));
    }
    auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = plan->host;
    call(f.host_get_config_image_size(&size), "cuptiProfilerHostGetConfigImageSize");
    plan->config_image.resize(size.configImageSize);
    auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    image.pHostObject = plan->host;
    image.configImageSize = plan->config_image.size();
    image.pConfigImage = plan->config_image.data();
    call(f.host_get_config_image(&image), "cuptiProfilerHostGetConfigImage");
    auto passes = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    passes.configImageSize = plan->config_image.size();
    passes.pConfigImage = plan->config_image.data();
    call(f.host_get_num_of_passes(&passes), "cuptiProfilerHostGetNumOfPasses");
    plan->passes = passes.numOfPasses;
    return plan;
}
#endif

}  // namespace

std::shared_ptr<const CollectionPlan> prepare_collection(std::span<const std::string> names, int device) {
    const std::vector<std::string> expanded = expand_metric_names(names);
#if GPUCHRONO_HAS_RANGE_PROFILER
    static std::mutex mutex;
    static std::map<std::pair<int, std::vector<std::string>>, std::shared_ptr<const CollectionPlan>> cache;
    const std::lock_guard lock(mutex);
    const int key_device = device < 0 ? (cudaGetDevice(&device) == cudaSuccess ? device : ((void)cudaGetLastError(), 0)) : device;
    const auto key = std::make_pair(key_device, expanded);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
    auto plan = build_plan(expanded, key_device);
    cache.emplace(key, plan);
    return plan;
#else
    (void)device;
    profiler_functions();  // throws the refusal
    return nullptr;
#endif
}

}  // namespace gpuchrono::metrics::detail
