// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "launch_subscriber.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

namespace gpuchrono::cupti {

namespace {

thread_local std::vector<LaunchLog*> open_logs;
thread_local int runtime_depth = 0;  // runtime launch calls in progress on this thread (a driver call inside one is nested)
thread_local int call_depth = 0;     // launch calls of either domain in progress on this thread

// Each subscription is a generation: a call whose entry came under an earlier subscriber never reports its exit to
// this one (unsubscribing drops it), so a thread's depths count from zero again in a new generation.
std::atomic<std::uint64_t> generation{0};
thread_local std::uint64_t thread_generation = 0;

// The gate between launch calls and flushes (flush_between_launches). seq_cst on both sides: a launch that
// counted itself in before the flush raised its flag is waited for; one that came later sees the flag.
std::atomic<int> launches_in_progress{0};
std::atomic<bool> flush_running{false};

std::atomic<KernelNameListener> kernel_name_listener{nullptr};

// A kernel's or graph's launch call, reported to the metrics listener once: a runtime call, or a driver call
// not made inside one (the runtime's launch calls the driver's).
void report_kernel_launch(CUpti_CallbackDomain domain, const CUpti_CallbackData* info) noexcept {
    const KernelNameListener listener = kernel_name_listener.load(std::memory_order_acquire);
    if (!listener || !info->functionName) return;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && runtime_depth > 0) return;
    if (std::strstr(info->functionName, "GraphLaunch")) {
        listener("(graph launch)");
    } else if (std::strstr(info->functionName, "LaunchKernel") || std::strstr(info->functionName, "LaunchCooperative")) {
        listener(info->symbolName ? info->symbolName : "(unnamed kernel)");
    }
}

// How long a launch call waits for a flush before it goes ahead anyway: a flush takes 0.05-2.4 ms on the
// H100; a wait this long means the flush itself is waiting for this thread, and a crash is better than a hang.
constexpr auto gate_patience = std::chrono::milliseconds(100);

void enter_launch() noexcept {
    for (auto deadline = std::chrono::steady_clock::time_point{};;) {
        launches_in_progress.fetch_add(1);
        if (!flush_running.load()) return;
        launches_in_progress.fetch_sub(1);
        const auto now = std::chrono::steady_clock::now();
        if (deadline == std::chrono::steady_clock::time_point{}) deadline = now + gate_patience;
        if (now >= deadline) {
            launches_in_progress.fetch_add(1);
            return;
        }
        std::this_thread::yield();
    }
}

void CUPTIAPI on_api_call(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId /*cbid*/,
                          const void* data) {
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    const bool enter = info->callbackSite == CUPTI_API_ENTER;
    if (const std::uint64_t now = generation.load(std::memory_order_relaxed); thread_generation != now) {
        thread_generation = now;
        call_depth = 0;
        runtime_depth = 0;
    }
    if (enter) {
        if (call_depth++ == 0) enter_launch();
    } else if (call_depth > 0 && --call_depth == 0) {  // an exit whose entry came before subscribing: not counted
        launches_in_progress.fetch_sub(1);
    }
    if (enter && (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API))
        report_kernel_launch(domain, info);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) runtime_depth = std::max(0, runtime_depth + (enter ? 1 : -1));
    if (!enter || open_logs.empty()) return;  // the common case: two thread-local reads
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const bool own_record = (domain == CUPTI_CB_DOMAIN_RUNTIME_API || runtime_depth == 0) &&
                            !(info->functionName && std::strstr(info->functionName, "HostFunc"));
    for (LaunchLog* log : open_logs) {
        try {
            log->correlations.push_back(info->correlationId);
            if (own_record) log->expected.push_back(info->correlationId);
        } catch (...) {
            // Out of memory inside a CUDA call: the launch goes unattributed, and the scope then reports
            // missing activity rather than a crash inside CUDA.
        }
    }
}

bool launches_work(const char* name) {
    if (!name) return false;
    // Building or editing a graph names copies and sets (cudaGraphAddMemcpyNode, cuGraphExecMemsetNodeSetParams)
    // but enqueues nothing, so no activity record ever comes for it: counted as a launch, it kept a thread-mode
    // scope waiting record_wait (200 ms) and reporting kernel-records-late. Only a graph launch runs work.
    const bool graph_call = std::strncmp(name, "cudaGraph", 9) == 0 || std::strncmp(name, "cuGraph", 7) == 0;
    if (graph_call) return std::strstr(name, "Launch") != nullptr;
    return std::strstr(name, "Launch") || std::strstr(name, "Memcpy") || std::strstr(name, "Memset");
}

// `enable` turns one callback on: on gpuchrono's own subscriber, or on the injection's it shares.
template <class Enable>
std::optional<std::string> enable_launch_callbacks(const CuptiLibrary& lib, const Enable& enable,
                                                   CUpti_CallbackDomain domain, std::uint32_t count) {
    std::size_t enabled = 0;
    for (std::uint32_t cbid = 1; cbid < count; ++cbid) {
        const char* name = nullptr;
        if (lib.get_callback_name(domain, cbid, &name) != CUPTI_SUCCESS || !launches_work(name)) continue;
        if (const CUptiResult r = enable(domain, cbid); r != CUPTI_SUCCESS)
            return std::string("cuptiEnableCallback(") + name + ") failed: " + lib.describe(r);
        ++enabled;
    }
    if (enabled == 0) return "CUPTI named no launch API of the " +
                             std::string(domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver") +
                             " domain (cuptiGetCallbackName): cannot tell which scope launched what";
    return std::nullopt;
}

}  // namespace

namespace {
// Under subscription_mutex. The hold (cupti_session.cpp) subscribes and unsubscribes under its own lock; this one
// keeps enable_launch_callbacks, called by holders on any thread, from racing an unsubscribe.
std::mutex subscription_mutex;
const CuptiLibrary* subscribed_library = nullptr;
CUpti_SubscriberHandle subscribed = nullptr;
SharedEnable shared = nullptr;  // set while the subscription is gpuchrono run's
std::optional<std::optional<std::string>> callbacks_result;  // enable_launch_callbacks' result, this subscription
}  // namespace

void CUPTIAPI launch_api_callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    on_api_call(userdata, domain, cbid, data);
}

void share_launches(const CuptiLibrary& lib, SharedEnable enable) {
    std::lock_guard lock(subscription_mutex);
    generation.fetch_add(1, std::memory_order_relaxed);
    launches_in_progress.store(0);
    subscribed_library = &lib;
    subscribed = nullptr;
    shared = enable;
    callbacks_result.reset();
}

std::optional<std::string> subscribe_to_launches(const CuptiLibrary& lib) {
    std::lock_guard lock(subscription_mutex);
    if (subscribed || shared) return std::nullopt;
    CUpti_SubscriberHandle subscriber = nullptr;
    if (const CUptiResult r = lib.subscribe(&subscriber, on_api_call, nullptr); r != CUPTI_SUCCESS) {
        if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
            return "CUPTI is taken by another tool in this process (cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_"
                   "NOT_SUPPORTED; Nsight Systems, Nsight Compute, torch.profiler or another profiler holds the one "
                   "subscriber slot): KernelPolicy cannot attribute kernels while it does; use EventPolicy under such "
                   "tools (docs/pitfalls.md, cupti-unavailable)";
        return "cuptiSubscribe failed: " + lib.describe(r) + " (" + lib.path +
               "; without an NVIDIA driver and GPU CUPTI cannot subscribe)";
    }
    // No launch call is in progress under the new subscriber yet: counts left by calls whose exit the previous
    // subscriber never saw start over.
    generation.fetch_add(1, std::memory_order_relaxed);
    launches_in_progress.store(0);
    subscribed_library = &lib;
    subscribed = subscriber;
    callbacks_result.reset();
    return std::nullopt;
}

void unsubscribe_from_launches() noexcept {
    std::lock_guard lock(subscription_mutex);
    if (shared) {
        shared = nullptr;
        callbacks_result.reset();
        return;
    }
    if (!subscribed) return;
    (void)subscribed_library->unsubscribe(subscribed);
    subscribed = nullptr;
    callbacks_result.reset();
}

void set_kernel_name_listener(KernelNameListener listener) noexcept {
    kernel_name_listener.store(listener, std::memory_order_release);
}

std::optional<std::string> enable_launch_callbacks() {
    std::lock_guard lock(subscription_mutex);
    if (!subscribed_library || (!subscribed && !shared))
        return "CUPTI's subscriber is not set up (gpuchrono holds no CUPTI)";
    if (!callbacks_result) {
        const CuptiLibrary& lib = *subscribed_library;
        const auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
            return shared ? shared(domain, cbid) : lib.enable_callback(1, subscribed, domain, cbid);
        };
        auto e = enable_launch_callbacks(lib, enable, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE);
        if (!e) e = enable_launch_callbacks(lib, enable, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE);
        callbacks_result = std::move(e);
    }
    return *callbacks_result;
}

void flush_between_launches(const std::function<void()>& flush) {
    struct Lower {
        ~Lower() { flush_running.store(false); }
    } lower;
    flush_running.store(true);
    // Bounded, far above any launch call's own time (a synchronous copy included): a count that a callback in flight
    // during an unsubscribe left behind must not hang every later flush.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (launches_in_progress.load() != 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    flush();
}

void open_launch_log(LaunchLog* log) { open_logs.push_back(log); }

void close_launch_log(LaunchLog* log) noexcept {
    if (auto it = std::find(open_logs.begin(), open_logs.end(), log); it != open_logs.end()) open_logs.erase(it);
}

}  // namespace gpuchrono::cupti
