#include "launch_subscriber.hpp"

#include <algorithm>
#include <cstring>

namespace gpuchrono::cupti {

namespace {

thread_local std::vector<LaunchLog*> open_logs;

void CUPTIAPI on_api_call(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId /*cbid*/,
                          const void* data) {
    if (open_logs.empty()) return;  // the common case, kept to one thread-local read
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (info->callbackSite != CUPTI_API_ENTER) return;
    for (LaunchLog* log : open_logs) {
        try {
            log->correlations.push_back(info->correlationId);
        } catch (...) {
            // Out of memory inside a CUDA call: the launch goes unattributed, and the scope then reports
            // missing activity rather than a crash inside CUDA.
        }
    }
}

bool launches_work(const char* name) {
    return name && (std::strstr(name, "Launch") || std::strstr(name, "Memcpy") || std::strstr(name, "Memset"));
}

std::optional<std::string> enable_launch_callbacks(const CuptiLibrary& lib, CUpti_SubscriberHandle subscriber,
                                                   CUpti_CallbackDomain domain, std::uint32_t count) {
    std::size_t enabled = 0;
    for (std::uint32_t cbid = 1; cbid < count; ++cbid) {
        const char* name = nullptr;
        if (lib.get_callback_name(domain, cbid, &name) != CUPTI_SUCCESS || !launches_work(name)) continue;
        if (const CUptiResult r = lib.enable_callback(1, subscriber, domain, cbid); r != CUPTI_SUCCESS)
            return std::string("cuptiEnableCallback(") + name + ") failed: " + lib.describe(r);
        ++enabled;
    }
    if (enabled == 0) return "CUPTI named no launch API of the " +
                             std::string(domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver") +
                             " domain (cuptiGetCallbackName): cannot tell which scope launched what";
    return std::nullopt;
}

}  // namespace

std::optional<std::string> subscribe_to_launches(const CuptiLibrary& lib) {
    CUpti_SubscriberHandle subscriber = nullptr;
    if (const CUptiResult r = lib.subscribe(&subscriber, on_api_call, nullptr); r != CUPTI_SUCCESS) {
        if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
            return "CUPTI is taken by another tool in this process (cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_"
                   "NOT_SUPPORTED; Nsight Systems, Nsight Compute or another profiler holds the one subscriber "
                   "slot): KernelPolicy cannot attribute kernels while it runs; use EventPolicy under such tools";
        return "cuptiSubscribe failed: " + lib.describe(r) + " (" + lib.path +
               "; without an NVIDIA driver and GPU CUPTI cannot subscribe)";
    }
    if (auto e = enable_launch_callbacks(lib, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE)) return e;
    if (auto e = enable_launch_callbacks(lib, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE)) return e;
    return std::nullopt;
}

void open_launch_log(LaunchLog* log) { open_logs.push_back(log); }

void close_launch_log(LaunchLog* log) noexcept {
    if (auto it = std::find(open_logs.begin(), open_logs.end(), log); it != open_logs.end()) open_logs.erase(it);
}

}  // namespace gpuchrono::cupti
