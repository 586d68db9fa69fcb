#include "launch_subscriber.hpp"

#include "launch_layout_probe.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/gpu/stream_state.hpp>

#include <algorithm>
#include <array>
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
// The outermost runtime launch call in progress on a thread with open logs: what its parameters say of its stream
// (read at entry), and how many streams the driver calls inside it named (for via_driver).
thread_local CallStream runtime_call;
thread_local int streams_from_nested_driver_calls = 0;
thread_local const LayoutProbeLaunch* layout_probe = nullptr;  // while this thread launches the layout probe
thread_local int destroy_depth = 0;  // stream-destroying calls in progress on this thread (cudaStreamDestroy nests cuStreamDestroy)

// Stream handles and their destruction (StreamHandlesHold): the most recent stream-destroying calls of the
// process, numbered, and the holds in force. A destroying call notes itself under the mutex, then waits for the
// holds; a hold counts itself in (seq_cst), then reads the notes under the mutex. So either the hold sees the note,
// or the note was taken after the hold counted itself in, and the destroying call sees the hold and waits.
struct Destruction {
    std::uint64_t number = 0;
    DestroyedStreams what;
};
constexpr std::size_t remembered_destructions = 64;  // more since a log opened: its handles are all suspect
std::mutex destructions_mutex;
std::array<Destruction, remembered_destructions> destructions;  // by number % size
std::atomic<std::uint64_t> destructions_made{0};                // written under the mutex
std::atomic<int> stream_holds{0};
std::atomic<bool> destructions_tracked{false};

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

// At the entry of a stream-destroying call (the outermost one: a driver call inside the runtime's may hold the
// runtime's locks, which a hold's cudaEventRecord may need): counted, then it waits for the holds to end.
void on_destroying_call(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData* info) noexcept {
    if (info->callbackSite != CUPTI_API_ENTER) {
        if (destroy_depth > 0) --destroy_depth;
        return;
    }
    if (destroy_depth++ > 0) return;
    {
        std::lock_guard lock(destructions_mutex);
        const std::uint64_t number = destructions_made.load() + 1;
        destructions[number % remembered_destructions] = {number, destroyed_streams(domain, cbid, info->functionParams)};
        destructions_made.store(number);
    }
    const auto deadline = std::chrono::steady_clock::now() + gate_patience;
    while (stream_holds.load() != 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
}

bool call_failed(CUpti_CallbackDomain domain, const CUpti_CallbackData* info) noexcept {
    if (!info->functionReturnValue) return false;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) return *static_cast<const cudaError_t*>(info->functionReturnValue) != cudaSuccess;
    return *static_cast<const CUresult*>(info->functionReturnValue) != CUDA_SUCCESS;
}

void note_in_logs(const CallStream& call, bool failed, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                  CUcontext context) noexcept {
    if (call.kind == CallStream::Kind::stream) {
        if (failed) return;  // a call that failed sent no work
        for (LaunchLog* log : open_logs) log->streams.add({call.stream, context});
    } else if (call.kind == CallStream::Kind::unknown) {
        for (LaunchLog* log : open_logs) log->streams.mark_unknown(domain, cbid);
    }
}

// At a call's exit, with logs open: where its work went.
void note_stream(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData* info) noexcept {
    const bool failed = call_failed(domain, info);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        if (runtime_depth != 0) return;  // inside another runtime call, which speaks for it
        CallStream call = runtime_call;
        if (call.kind == CallStream::Kind::via_driver && streams_from_nested_driver_calls == 0 && !failed)
            call.kind = CallStream::Kind::unknown;  // it launched through no driver call this code could read
        note_in_logs(call, failed, domain, cbid, info->context);
        return;
    }
    if (runtime_depth > 0 && runtime_call.kind != CallStream::Kind::via_driver) return;  // the runtime call said
    const CallStream call = call_stream(domain, cbid, info->functionParams);
    if (runtime_depth > 0 && call.kind == CallStream::Kind::stream && !failed) ++streams_from_nested_driver_calls;
    note_in_logs(call, failed, domain, cbid, info->context);
}

void CUPTIAPI on_api_call(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                          const void* data) {
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    const bool enter = info->callbackSite == CUPTI_API_ENTER;
    if (destroys_streams(domain, cbid)) {  // enabled beside the launch calls; not a launch
        on_destroying_call(domain, cbid, info);
        return;
    }
    if (enter) {
        if (call_depth++ == 0) enter_launch();
    } else if (call_depth > 0 && --call_depth == 0) {  // an exit whose entry came before subscribing: not counted
        launches_in_progress.fetch_sub(1);
    }
    if (enter && (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API))
        report_kernel_launch(domain, info);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) runtime_depth += enter ? 1 : -1;
    if (layout_probe && enter && domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        check_layout_probe(cbid, info->functionParams, *layout_probe);
    if (open_logs.empty()) return;  // the common case: three thread-local reads
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    if (!enter) {
        note_stream(domain, cbid, info);
        return;
    }
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && runtime_depth == 1) {
        runtime_call = call_stream(domain, cbid, info->functionParams);
        streams_from_nested_driver_calls = 0;
    }
    // Graph edits (cudaGraphAddMemsetNode...) run nothing, so no record will come: a scope must not wait for one.
    const auto edits_a_graph = [&] {
        const CallStream call = domain == CUPTI_CB_DOMAIN_RUNTIME_API && runtime_depth == 1
                                    ? runtime_call
                                    : call_stream(domain, cbid, info->functionParams);
        return call.kind == CallStream::Kind::no_work;
    };
    const bool own_record = (domain == CUPTI_CB_DOMAIN_RUNTIME_API || runtime_depth == 0) &&
                            !(info->functionName && std::strstr(info->functionName, "HostFunc")) && !edits_a_graph();
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

namespace {
const CuptiLibrary* subscribed_library = nullptr;
CUpti_SubscriberHandle subscribed = nullptr;
std::optional<std::string> subscribe_once(const CuptiLibrary& lib) {
    CUpti_SubscriberHandle subscriber = nullptr;
    if (const CUptiResult r = lib.subscribe(&subscriber, on_api_call, nullptr); r != CUPTI_SUCCESS) {
        if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
            return "CUPTI is taken by another tool in this process (cuptiSubscribe: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_"
                   "NOT_SUPPORTED; Nsight Systems, Nsight Compute or another profiler holds the one subscriber "
                   "slot): KernelPolicy cannot attribute kernels while it runs; use EventPolicy under such tools";
        return "cuptiSubscribe failed: " + lib.describe(r) + " (" + lib.path +
               "; without an NVIDIA driver and GPU CUPTI cannot subscribe)";
    }
    subscribed_library = &lib;
    subscribed = subscriber;
    return std::nullopt;
}
}  // namespace

std::optional<std::string> subscribe_to_launches(const CuptiLibrary& lib) {
    // KernelPolicy's session and the metrics collector both need the one subscription: whoever comes first makes it.
    static const std::optional<std::string> result = [&lib] { return subscribe_once(lib); }();
    return result;
}

void set_kernel_name_listener(KernelNameListener listener) noexcept {
    kernel_name_listener.store(listener, std::memory_order_release);
}


namespace {
// The calls that can end a stream (StreamHandlesHold). If CUPTI refuses one, holds are never usable and thread-mode
// scopes wait for the device, as they did before they could wait for their streams.
bool enable_destroying_calls(const CuptiLibrary& lib, CUpti_SubscriberHandle subscriber) {
    for (const CUpti_CallbackDomain domain : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API}) {
        std::size_t count = 0;
        const CUpti_CallbackId* ids = stream_destroying_calls(domain, &count);
        for (std::size_t i = 0; i < count; ++i)
            if (lib.enable_callback(1, subscriber, domain, ids[i]) != CUPTI_SUCCESS) return false;
    }
    return true;
}
}  // namespace

std::optional<std::string> enable_launch_callbacks() {
    static const std::optional<std::string> result = []() -> std::optional<std::string> {
        if (!subscribed_library || !subscribed) return "CUPTI's subscriber is not set up";
        // Destruction is tracked before any launch can be recorded, so that no recorded handle escapes the count.
        destructions_tracked.store(enable_destroying_calls(*subscribed_library, subscribed));
        if (auto e = enable_launch_callbacks(*subscribed_library, subscribed, CUPTI_CB_DOMAIN_RUNTIME_API,
                                             CUPTI_RUNTIME_TRACE_CBID_SIZE))
            return e;
        return enable_launch_callbacks(*subscribed_library, subscribed, CUPTI_CB_DOMAIN_DRIVER_API,
                                       CUPTI_DRIVER_TRACE_CBID_SIZE);
    }();
    return result;
}

CUpti_CallbackFunc launch_callback() noexcept { return on_api_call; }

void set_stream_destruction_watched(bool watched) noexcept { destructions_tracked.store(watched); }

const char* probe_kernel_launch_layout() {
#if CUDA_VERSION < 13000
    return "built with CUDA 12, whose <<<>>> launches call cudaLaunchKernel, a call CUPTI lays out";
#else
    // Once per process, but not decided by an error of the user's that was pending on the thread: tried again then.
    static std::mutex mutex;
    static bool decided = false;
    static const char* result = nullptr;
    std::lock_guard lock(mutex);
    if (decided) return result;
    if (enable_launch_callbacks()) return "CUPTI's launch callbacks are not on";  // their error, once
    RelaxedCaptureMode relaxed;  // another stream of this thread may be capturing; the probe's is not
    if (cudaPeekAtLastError() != cudaSuccess) return "a CUDA error of the user's was pending: the probe waits";
    cudaStream_t own = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking),
                         "creating the stream of KernelPolicy's launch-layout probe");
    LayoutProbeLaunch launch;
    launch.stream = own;
    layout_probe = &launch;
    const cudaError_t launched = launch_layout_probe_kernel(launch);
    layout_probe = nullptr;
    const cudaError_t waited = launched == cudaSuccess ? cudaStreamSynchronize(own) : cudaSuccess;
    const cudaError_t destroyed = cudaStreamDestroy(own);
    GPUCHRONO_CUDA_CHECK(launched, "launching KernelPolicy's launch-layout probe");
    GPUCHRONO_CUDA_CHECK(waited, "waiting for KernelPolicy's launch-layout probe");
    GPUCHRONO_CUDA_CHECK(destroyed, "destroying the stream of KernelPolicy's launch-layout probe");
    decided = true;
    if (!kernel_launch_layout_confirmed())
        result = "the probe's __cudaLaunchKernel call was not seen, or its parameters were not laid out as its signature";
    return result;
#endif
}

std::string callback_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    const char* name = nullptr;
    if (subscribed_library && subscribed_library->get_callback_name(domain, cbid, &name) == CUPTI_SUCCESS && name)
        return name;
    return std::string("(") + (domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : domain == CUPTI_CB_DOMAIN_DRIVER_API ? "driver" : "unknown-domain") +
           " cbid " + std::to_string(cbid) + ")";
}

namespace {
// Whether a call noted since the log opened may have ended one of its streams (under destructions_mutex).
bool streams_destroyed_since(const LaunchLog& log) {
    const std::uint64_t made = destructions_made.load();
    if (made - log.destructions_at_open > remembered_destructions) return true;  // some were forgotten
    for (std::uint64_t n = log.destructions_at_open + 1; n <= made; ++n) {
        const Destruction& d = destructions[n % remembered_destructions];
        if (d.what.everything) return true;
        for (std::size_t i = 0; i < log.streams.size(); ++i)
            if (log.streams[i].stream == d.what.stream) return true;
    }
    return false;
}
}  // namespace

StreamHandlesHold::StreamHandlesHold(const LaunchLog& log) noexcept {
    if (!destructions_tracked.load()) return;
    stream_holds.fetch_add(1);
    bool destroyed = true;
    {
        std::lock_guard lock(destructions_mutex);
        destroyed = streams_destroyed_since(log);
    }
    if (!destroyed) {
        holding_ = true;
        return;
    }
    stream_holds.fetch_sub(1);
}

StreamHandlesHold::~StreamHandlesHold() {
    if (holding_) stream_holds.fetch_sub(1);
}

void flush_between_launches(const std::function<void()>& flush) {
    struct Lower {
        ~Lower() { flush_running.store(false); }
    } lower;
    flush_running.store(true);
    while (launches_in_progress.load() != 0) std::this_thread::yield();
    flush();
}

void open_launch_log(LaunchLog* log) {
    log->destructions_at_open = destructions_made.load();
    open_logs.push_back(log);
}

void close_launch_log(LaunchLog* log) noexcept {
    if (auto it = std::find(open_logs.begin(), open_logs.end(), log); it != open_logs.end()) open_logs.erase(it);
}

}  // namespace gpuchrono::cupti
