// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A stand-in for CUPTI (soname libcupti.so.13, its symbol version too), so that libgpuchrono_inject.so runs its
// real code on a machine without a GPU: the test program (stand_in_program.cpp) plays the CUDA driver and the
// program, calling the fake_* functions below to push NVTX ranges, make launches (callbacks) and have their
// activity records delivered through the buffers the injection registered. gpuchrono's library in the same program
// loads it too (its soname is already loaded), as it loads the injection's CUPTI under `gpuchrono run`.
#include "cupti/toolkit.hpp"

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace {

std::mutex lock;
CUpti_BuffersCallbackRequestFunc requested = nullptr;
CUpti_BuffersCallbackCompleteFunc completed = nullptr;
CUpti_CallbackFunc subscriber = nullptr;
bool subscribed = false;
bool refuse_subscription = false;
bool nvtx_enabled = false;
std::vector<std::uint8_t> pending;
std::size_t dropped = 0;
std::atomic<std::uint32_t> next_correlation{1};
int registrations = 0;
std::set<std::pair<int, std::uint32_t>> enabled_callbacks;  // (domain, cbid)

std::size_t record_size(CUpti_ActivityKind kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(gpuchrono::toolkit::KernelRecord);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(gpuchrono::toolkit::MemcpyRecord);
    default: return 0;
    }
}

// CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER: the caller promised zeroed buffers, and CUPTI then skips zeroing
// them; the stand-in holds it to that promise (a buffer with old bytes in it ends the program, named).
bool zeroed_promised = false;
std::set<int> enabled_kinds;  // activity kinds enabled (cuptiActivityEnable); a record of another kind is not made

template <class Record>
void append(const Record& r) {
    const std::lock_guard guard(lock);
    if (!enabled_kinds.count(static_cast<int>(r.kind))) return;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(&r);
    pending.insert(pending.end(), bytes, bytes + sizeof r);
}

void nvtx(CUpti_CallbackId cbid, const void* params, const void* returned = nullptr) {
    if (!subscriber || !nvtx_enabled) return;
    CUpti_NvtxData data{};
    data.functionName = "nvtx";
    data.functionParams = params;
    data.functionReturnValue = returned;
    subscriber(nullptr, CUPTI_CB_DOMAIN_NVTX, cbid, &data);
}

// The handles NVTX hands out for domains and registered strings: addresses of these, one per name.
struct Handle {
    char name[64];
};
std::vector<std::unique_ptr<Handle>> handles;
thread_local std::vector<nvtxDomainHandle_t> pushed_domains;  // each thread's open domain ranges, for their pops

void api(CUpti_CallbackDomain domain, std::uint32_t correlation) {
    if (!subscriber) return;
    CUpti_CallbackData data{};
    data.callbackSite = CUPTI_API_ENTER;
    data.correlationId = correlation;
    data.functionName = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "cudaLaunchKernel" : "cuLaunchKernel";
    subscriber(nullptr, domain, 1, &data);
    data.callbackSite = CUPTI_API_EXIT;
    subscriber(nullptr, domain, 1, &data);
}

}  // namespace

extern "C" {

// --- the stand-in's controls, for the test program ---

__attribute__((visibility("default"))) void fake_cupti_refuse_subscription(int refuse) { refuse_subscription = refuse != 0; }

__attribute__((visibility("default"))) void fake_cupti_push(const char* name) {
    nvtxRangePushA_params p{name};
    nvtx(CUPTI_CBID_NVTX_nvtxRangePushA, &p);
}

__attribute__((visibility("default"))) void fake_cupti_pop(void) {
    nvtxRangePop_params p{};
    nvtx(CUPTI_CBID_NVTX_nvtxRangePop, &p);
}

// A library's own range, as NVIDIA's libraries push them: in a domain of its own (nvtxDomainCreateA), its message a
// registered string (nvtxDomainRegisterStringA); each call creates the domain and the string anew. `domain` is
// the name's literal in the code that calls (NVTX's tools see where it lives).
__attribute__((visibility("default"))) void fake_cupti_domain_push(const char* domain, const char* message) {
    const auto handle = [](const char* text) {
        const std::lock_guard guard(lock);
        handles.push_back(std::make_unique<Handle>());
        std::snprintf(handles.back()->name, sizeof handles.back()->name, "%s", text);
        return handles.back().get();
    };
    nvtxDomainHandle_t d = reinterpret_cast<nvtxDomainHandle_t>(handle(domain));
    nvtxDomainCreateA_params created{domain};
    nvtx(CUPTI_CBID_NVTX_nvtxDomainCreateA, &created, &d);
    nvtxStringHandle_t m = reinterpret_cast<nvtxStringHandle_t>(handle(message));
    nvtxDomainRegisterStringA_params registered{d, message};
    nvtx(CUPTI_CBID_NVTX_nvtxDomainRegisterStringA, &registered, &m);
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    attributes.message.registered = m;
    nvtxDomainRangePushEx_params p{d, {&attributes}};
    nvtx(CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &p);
    pushed_domains.push_back(d);
}

// Pops the thread's innermost domain range, naming its domain as nvtxDomainRangePop does.
__attribute__((visibility("default"))) void fake_cupti_domain_pop(void) {
    if (pushed_domains.empty()) return;
    nvtxDomainRangePop_params p{pushed_domains.back()};
    pushed_domains.pop_back();
    nvtx(CUPTI_CBID_NVTX_nvtxDomainRangePop, &p);
}

// A kernel launched through the runtime (its callback, then the driver's with another id, as CUDA does) that
// ran from start to end on `device`; its record carries the runtime's id.
__attribute__((visibility("default"))) void fake_cupti_kernel(const char* name, std::uint64_t start, std::uint64_t end, int device) {
    const std::uint32_t runtime = next_correlation++;
    const std::uint32_t driver = next_correlation++;
    api(CUPTI_CB_DOMAIN_RUNTIME_API, runtime);
    api(CUPTI_CB_DOMAIN_DRIVER_API, driver);
    gpuchrono::toolkit::KernelRecord k{};
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.name = name;
    k.start = start;
    k.end = end;
    k.deviceId = static_cast<std::uint32_t>(device);
    k.correlationId = runtime;
    k.gridX = k.gridY = k.gridZ = 1;
    k.blockX = 32, k.blockY = k.blockZ = 1;
    append(k);
}

__attribute__((visibility("default"))) void fake_cupti_memcpy(std::uint64_t bytes, std::uint64_t start, std::uint64_t end) {
    const std::uint32_t runtime = next_correlation++;
    api(CUPTI_CB_DOMAIN_RUNTIME_API, runtime);
    gpuchrono::toolkit::MemcpyRecord m{};
    m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    m.bytes = bytes;
    m.start = start;
    m.end = end;
    m.correlationId = runtime;
    append(m);
}

__attribute__((visibility("default"))) void fake_cupti_drop(std::size_t count) {
    const std::lock_guard guard(lock);
    dropped += count;
}

// How often buffer callbacks were registered (a second registration takes CUPTI's buffers from the first).
__attribute__((visibility("default"))) int fake_cupti_registrations(void) {
    const std::lock_guard guard(lock);
    return registrations;
}

__attribute__((visibility("default"))) int fake_cupti_callback_enabled(int domain, std::uint32_t cbid) {
    const std::lock_guard guard(lock);
    return enabled_callbacks.count({domain, cbid}) ? 1 : 0;
}

// --- CUPTI ---

CUptiResult cuptiGetResultString(CUptiResult result, const char** str) {
    *str = result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" : "stand-in result";
    return CUPTI_SUCCESS;
}

CUptiResult cuptiGetTimestamp(std::uint64_t* timestamp) {
    *timestamp = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    return CUPTI_SUCCESS;
}

CUptiResult cuptiGetVersion(std::uint32_t* version) {
    *version = CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc r, CUpti_BuffersCallbackCompleteFunc c) {
    const std::lock_guard guard(lock);
    ++registrations;
    requested = r;
    completed = c;
    return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
    const std::lock_guard guard(lock);
    enabled_kinds.insert(static_cast<int>(kind));
    return CUPTI_SUCCESS;
}
CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) {
    const std::lock_guard guard(lock);
    enabled_kinds.erase(static_cast<int>(kind));
    return CUPTI_SUCCESS;
}
CUptiResult cuptiActivitySetAttribute(CUpti_ActivityAttribute attribute, std::size_t* size, void* value) {
    if (attribute == CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER) {
        if (!size || *size != sizeof(std::uint8_t) || !value) return CUPTI_ERROR_INVALID_PARAMETER;
        const std::lock_guard guard(lock);
        zeroed_promised = *static_cast<std::uint8_t*>(value) != 0;
    }
    return CUPTI_SUCCESS;
}

CUptiResult cuptiGetStreamIdEx(CUcontext, CUstream, std::uint8_t, std::uint32_t* id) {
    *id = 0;
    return CUPTI_SUCCESS;
}

CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle) {
    subscribed = false;
    subscriber = nullptr;
    return CUPTI_SUCCESS;
}

CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* handle, CUpti_CallbackFunc callback, void*) {
    if (refuse_subscription || subscribed) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    subscribed = true;
    subscriber = callback;
    *handle = reinterpret_cast<CUpti_SubscriberHandle>(&subscribed);
    return CUPTI_SUCCESS;
}

CUptiResult cuptiEnableDomain(std::uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain) {
    if (domain == CUPTI_CB_DOMAIN_NVTX) nvtx_enabled = enable != 0;
    return CUPTI_SUCCESS;
}

CUptiResult cuptiEnableCallback(std::uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    const std::lock_guard guard(lock);
    if (enable)
        enabled_callbacks.insert({domain, cbid});
    else
        enabled_callbacks.erase({domain, cbid});
    return CUPTI_SUCCESS;
}

CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain domain, std::uint32_t cbid, const char** name) {
    if (cbid != 1) return CUPTI_ERROR_INVALID_PARAMETER;
    *name = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "cudaLaunchKernel_v7000" : "cuLaunchKernel";
    return CUPTI_SUCCESS;
}

// Hands every pending record over in buffers the injection provides, as CUPTI's flush does.
CUptiResult cuptiActivityFlushAll(std::uint32_t) {
    std::vector<std::uint8_t> records;
    CUpti_BuffersCallbackRequestFunc requested = nullptr;
    CUpti_BuffersCallbackCompleteFunc completed = nullptr;
    {
        const std::lock_guard guard(lock);
        records.swap(pending);
        requested = ::requested;
        completed = ::completed;
    }
    if (!requested || !completed) return CUPTI_SUCCESS;
    std::size_t at = 0;
    do {
        std::uint8_t* buffer = nullptr;
        std::size_t size = 0, max_records = 0;
        requested(&buffer, &size, &max_records);
        if (buffer && zeroed_promised && std::any_of(buffer, buffer + size, [](std::uint8_t b) { return b != 0; })) {
            std::fprintf(stderr, "fake CUPTI: an activity buffer handed over with old bytes in it, though "
                                 "CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER promised zeroed ones\n");
            std::abort();
        }
        std::size_t used = 0;
        while (at < records.size()) {
            const auto kind = reinterpret_cast<const CUpti_Activity*>(records.data() + at)->kind;
            const std::size_t n = record_size(kind);
            if (used + n > size) break;
            std::memcpy(buffer + used, records.data() + at, n);
            used += n;
            at += n;
        }
        completed(nullptr, 0, buffer, size, used);
    } while (at < records.size());
    return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityGetNextRecord(std::uint8_t* buffer, std::size_t valid, CUpti_Activity** record) {
    std::size_t at = 0;
    if (*record != nullptr) {
        at = static_cast<std::size_t>(reinterpret_cast<std::uint8_t*>(*record) - buffer);
        at += record_size((*record)->kind);
    }
    if (at >= valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = reinterpret_cast<CUpti_Activity*>(buffer + at);
    return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, std::uint32_t, std::size_t* count) {
    const std::lock_guard guard(lock);
    *count = dropped;
    dropped = 0;
    return CUPTI_SUCCESS;
}

}  // extern "C"
