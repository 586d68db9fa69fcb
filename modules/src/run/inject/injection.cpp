// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// libgpuchrono_inject.so: what `gpuchrono run` puts into an unmodified program. The CUDA driver loads it when
// the program initializes CUDA (CUDA_INJECTION64_PATH) and calls InitializeInjection(); from then on every
// kernel, memcpy and memset is recorded by CUPTI's activity API (graph kernels each as itself), NVTX push/pop
// arrive through CUPTI's NVTX domain (NVTX_INJECTION64_PATH names libcupti), and the launch callbacks tie each
// activity to the innermost range open on its launching thread (NVIDIA libraries' own ranges left out). Records
// are folded into per-name tables with bounded samples as CUPTI hands over its buffers (aggregate.hpp); the report
// is written on exit, exit(), SIGINT and SIGTERM, and brought up to date on disk every flush period, marked
// incomplete, so a crash leaves at most that much out.
//
// It links CUPTI directly: the library it was built with (its soname) must be the one the program's driver can
// run; `gpuchrono run` checks that before starting the program.
//
// gpuchrono's own scopes inside the program (KernelPolicy, measure() by the kernel method, a CuptiHold) share this
// subscription (cupti/run_share_abi.hpp): the library attaches as a client, receives every activity buffer before it
// is freed and the launch callbacks it asks for. The stream marks of its scopes are left out of the tables.
#include "cupti/library_kernels.hpp"
#include "cupti/run_share_abi.hpp"
#include "cupti/stream_mark.hpp"
#include "cupti/toolkit.hpp"
#include "run/aggregate.hpp"
#include "run/range_attribution.hpp"
#include "run/run_options.hpp"
#include "run/run_report.hpp"

#include <gpuchrono/distributed/device_identity.hpp>
#include <gpuchrono/distributed/rank_identity.hpp>
#include <gpuchrono/report/render/report_files.hpp>
#include <gpuchrono/report/json/report_json.hpp>

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include <cxxabi.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

using namespace gpuchrono;
using namespace gpuchrono::run;

constexpr std::size_t buffer_bytes = 8u << 20;
constexpr std::size_t buffer_alignment = 8;
// The fixed part of a kernel's CUPTI record (docs/measure.md: 0.93..0.95 us on an H100); kernels under twice
// it are flagged.
constexpr double timer_floor_ns = 950;

// The name of a kernel as CUPTI gives it (mangled), demangled once and checked against --kernels once.
struct KernelName {
    std::string mangled;
    std::string demangled;
    bool recorded = true;
    bool library = false;  // one of gpuchrono's own kernels (library_kernels.hpp): counted in a note, not tabled
    std::size_t row = Aggregate::no_row;  // its table row (one per name unless split by shape)
};

struct State {
    RunOptions options;
    std::unique_ptr<std::regex> kernel_filter;
    std::string command;
    std::filesystem::path folder;
    std::string file_name = "report.json";

    std::mutex lock;  // aggregate, names, devices, trace, windows
    std::unique_ptr<Aggregate> aggregate;
    std::unordered_map<const char*, KernelName> names;
    std::vector<report::DeviceInfo> devices;
    std::vector<distributed::DeviceIdentity> identities;
    std::vector<KernelActivity> trace;
    std::uint64_t trace_left_out = 0;
    // Records a forced flush handed over while their work still ran (timestamps 0): left out, and said so.
    std::uint64_t incomplete = 0;
    // Recording windows in CUPTI time, [start, end); end 0: open.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> windows;

    RangeNames ranges;
    // What NVTX names by handle: domains (nvtxDomainCreate) and registered strings (nvtxDomainRegisterString), so
    // a range pushed with a registered string is tabled under its text, and the note on the launch callbacks can
    // say which domain's range turned them on.
    std::mutex nvtx_handles_lock;
    struct Domain {
        std::string name;
        std::string library;  // the NVIDIA library that created it (library_of), "" for the program's own
    };
    std::unordered_map<const void*, Domain> domains;
    std::unordered_map<const void*, std::string> registered_strings;
    // Ranges pushed in NVIDIA libraries' own domains: left out (not tabled, no launch callbacks), counted.
    std::atomic<std::uint64_t> library_ranges{0};
    std::atomic<std::uint64_t> ranges_pushed{0};
    std::string first_range;  // the range that turned the launch callbacks on, with its domain (written once)
    std::vector<std::size_t> range_rows;  // table row per range id, found once (under lock)
    CorrelationMap launches;
    std::uint32_t watched_range = 0;  // --nvtx's range id, 0: none
    // The launch callbacks serve NVTX attribution only: enabled at the first range, so a program without NVTX
    // pays for the activity records alone.
    // A thread's first range waits until they are on, whichever thread turns them on: a second thread that pushed
    // its range while the first was still enabling them launched unattributed (its kernels counted outside it).
    std::atomic<bool> launch_callbacks{false};
    std::atomic<bool> launch_callbacks_on{false};

    // The empty kernels gpuchrono's stream-mode scopes in the program launch as marks: not the program's work.
    std::uint64_t library_marks = 0;
    std::uint64_t library_kernels = 0;  // launches of gpuchrono's own kernels, left out of the tables

    // Other CUPTI users of the program refused the subscriber slot while the injection held it, named by their
    // library, with how often each asked (libgpuchrono_run_watch.so tells; under other_users_lock).
    std::mutex other_users_lock;
    std::vector<std::pair<std::string, std::uint64_t>> other_users;

    CUpti_SubscriberHandle subscriber = nullptr;
    int wake[2] = {-1, -1};  // signal handlers and exit to the flush thread
    std::thread flusher;
    int ending[2] = {-1, -1};  // signal handlers to the watchdog: the signal that should end the process
    std::thread watchdog;
    std::atomic<bool> finished{false};
    std::mutex write_lock;
};

State* state = nullptr;

thread_local RangeStack thread_ranges;

// The client sharing the subscription (run_share_abi.hpp). A call into it counts itself in `in_flight` before it
// reads `client` and out after the call returns (both sequentially consistent), so detach(), which clears `client`
// and then waits for `in_flight` to drain, returns only once no call can reach the client any more.
struct Share {
    std::atomic<const gpuchrono_run_client_v1*> client{nullptr};
    std::atomic<bool> attached_once{false};  // the fast path: no client ever, no counting
    std::atomic<int> in_flight{0};
    std::atomic<std::uint64_t> attaches{0};
    std::mutex attach_lock;     // attach and detach
    std::mutex callback_lock;   // enabling and disabling callbacks
    // Every cuptiActivityFlushAll of the process goes through flush_all(): a flush returns before the buffers that
    // another thread's flush took have been delivered, so a client's flush that ran beside the flush thread's
    // returned with some of its scope's records still on their way (5 of 22 in the stand-in under ASan).
    std::mutex flush_turn;
    // Per API callback id: who wants it (the injection's NVTX attribution, the client).
    static constexpr std::uint8_t own = 1, client_wants = 2;
    std::atomic<std::uint8_t> runtime[CUPTI_RUNTIME_TRACE_CBID_SIZE] = {};
    std::atomic<std::uint8_t> driver[CUPTI_DRIVER_TRACE_CBID_SIZE] = {};

    std::atomic<std::uint8_t>* wants(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
        if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE) return &runtime[cbid];
        if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE) return &driver[cbid];
        return nullptr;
    }
};
Share share;
thread_local int forwarding = 0;  // calls into the client in progress on this thread (detach from inside one)

int flush_all(std::uint32_t flags) {
    const std::lock_guard turn(share.flush_turn);
    return cuptiActivityFlushAll(flags);
}

template <class Call>
void to_client(Call&& call) {
    if (!share.attached_once.load(std::memory_order_relaxed)) return;
    share.in_flight.fetch_add(1);
    ++forwarding;
    if (const gpuchrono_run_client_v1* c = share.client.load()) call(*c);
    --forwarding;
    share.in_flight.fetch_sub(1);
}

void say(const std::string& text) { std::fprintf(stderr, "gpuchrono run: %s\n", text.c_str()); }

std::string cupti_error(CUptiResult r) {
    const char* text = nullptr;
    cuptiGetResultString(r, &text);
    return text ? text : "CUPTI error " + std::to_string(static_cast<int>(r));
}

std::string demangle(const char* name) {
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free);
    return status == 0 && d ? std::string(d.get()) : std::string(name);
}

const char* copy_kind(std::uint8_t kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return "HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return "AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return "AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD: return "AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return "DtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
    default: return "other";
    }
}

const char* overhead_kind(CUpti_ActivityOverheadKind kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "JIT compilation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "CUPTI buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "CUPTI instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "CUPTI resources";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "activity buffer request";
    default: return "other";
    }
}

std::uint64_t now() {
    std::uint64_t t = 0;
    cuptiGetTimestamp(&t);
    return t;
}

// Under state->lock.
bool in_window(std::uint64_t start) {
    for (const auto& [from, to] : state->windows)
        if (start >= from && (to == 0 || start < to)) return true;
    return false;
}

// CUPTI asks for a buffer on the launching thread, inside the first launch after the thread's buffer filled or a
// flush took it (every periodic flush, on each launching thread: PyTorch's autograd thread too), and by default
// zeroes it there: about 1 ms for 8 MiB on the H100 (240 us for 2 MiB, bench_kernel_policy [3]), plus the page
// faults of fresh memory, on the program's time. So buffers go to CUPTI already zeroed
// (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER) and are recycled: a used one is cleaned where it comes back
// (only the bytes CUPTI wrote), on CUPTI's thread or the flush thread. At most spare_buffers wait; more are freed,
// so the memory held stays that of the most buffers in use at once.
// Never destroyed: CUPTI's thread may hand a buffer back while the program exits, after static destructors ran,
// and the spares stay reachable to the end (no leak for a checker that looks at exit).
constexpr std::size_t spare_buffers = 4;
std::mutex& spare_lock = *new std::mutex;
std::vector<std::uint8_t*>& spare = *new std::vector<std::uint8_t*>;
bool recycling = false;  // set once at initialize, before CUPTI asks for a buffer

std::uint8_t* zeroed_buffer() {
    auto* b = static_cast<std::uint8_t*>(std::aligned_alloc(buffer_alignment, buffer_bytes));
    if (b) std::memset(b, 0, buffer_bytes);  // faults its pages in, off the launch that will use it
    return b;
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    std::uint8_t* b = nullptr;
    if (recycling) {
        const std::lock_guard guard(spare_lock);
        if (!spare.empty()) {
            b = spare.back();
            spare.pop_back();
        }
    }
    // Without a spare one (the first of each thread, or more in use at once than ever before): CUPTI zeroes it
    // unless it is recycled, and then it is zeroed here.
    if (!b) b = recycling ? zeroed_buffer() : static_cast<std::uint8_t*>(std::aligned_alloc(buffer_alignment, buffer_bytes));
    *buffer = b;
    *size = b ? buffer_bytes : 0;  // no buffer: CUPTI counts what it drops
    *max_records = 0;
}

void give_back(std::uint8_t* buffer, std::size_t valid) noexcept {
    if (!buffer) return;
    if (recycling) {
        std::memset(buffer, 0, valid);
        try {
            const std::lock_guard guard(spare_lock);
            if (spare.size() < spare_buffers) {
                spare.push_back(buffer);
                return;
            }
        } catch (...) {
            // Out of memory on CUPTI's thread: the buffer is freed instead.
        }
    }
    std::free(buffer);
}

// Buffers CUPTI takes already zeroed, recycled; false where this CUPTI cannot (it zeroes each buffer itself).
bool recycle_buffers() {
    std::uint8_t zeroed = 1;
    std::size_t bytes = sizeof zeroed;
    if (const CUptiResult r = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &bytes, &zeroed);
        r != CUPTI_SUCCESS) {
        say("CUPTI does not take zeroed activity buffers (" + cupti_error(r) +
            "): it zeroes each new buffer inside a launch of the program, as without gpuchrono's buffers");
        return false;
    }
    // The first buffer the program's first launch asks for.
    if (std::uint8_t* b = zeroed_buffer()) spare.push_back(b);
    return true;
}

KernelName& kernel_name(const char* name) {
    auto it = state->names.find(name);
    if (it != state->names.end() && it->second.mangled == name) return it->second;
    KernelName k;
    k.mangled = name ? name : "";
    k.demangled = demangle(k.mangled.c_str());
    k.library = cupti::is_library_kernel(k.demangled);
    if (state->kernel_filter) k.recorded = std::regex_search(k.demangled, *state->kernel_filter);
    return state->names[name] = std::move(k);
}

// The launch of a record (its range), and the lowest correlation id of the buffer being read.
std::uint32_t lowest_correlation = 0;

LaunchContext launch_of(std::uint32_t correlation) {
    if (correlation < lowest_correlation || lowest_correlation == 0) lowest_correlation = correlation;
    return state->launches.empty() ? LaunchContext{} : state->launches.find(correlation);
}

// A forced flush (the periodic one) hands over records of work still running with unknown timestamps.
bool incomplete(std::uint64_t start, std::uint64_t end) {
    if (start != 0 && end != 0 && end >= start) return false;
    ++state->incomplete;
    return true;
}

void record(const CUpti_Activity* a) {
    switch (a->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const toolkit::KernelRecord*>(a);
        const LaunchContext context = launch_of(k->correlationId);
        if (incomplete(k->start, k->end)) return;
        if (k->name && std::strcmp(k->name, gpuchrono::detail::stream_marker_name) == 0) {
            ++state->library_marks;
            return;
        }
        KernelName& name = kernel_name(k->name);
        if (name.library) {
            ++state->library_kernels;
            return;
        }
        if (!name.recorded || !in_window(k->start) || (state->watched_range != 0 && !context.in_watched)) {
            state->aggregate->add_filtered();
            return;
        }
        KernelLaunch l;
        l.name = name.demangled;
        l.grid[0] = static_cast<std::uint32_t>(k->gridX), l.grid[1] = static_cast<std::uint32_t>(k->gridY), l.grid[2] = static_cast<std::uint32_t>(k->gridZ);
        l.block[0] = static_cast<std::uint32_t>(k->blockX), l.block[1] = static_cast<std::uint32_t>(k->blockY), l.block[2] = static_cast<std::uint32_t>(k->blockZ);
        l.device = static_cast<int>(k->deviceId);
        l.start_ns = k->start;
        l.end_ns = k->end;
        std::size_t range_row = Aggregate::no_row;
        if (context.range != 0) {
            if (state->range_rows.size() <= context.range) state->range_rows.resize(context.range + 1, Aggregate::no_row);
            std::size_t& cached = state->range_rows[context.range];
            if (cached == Aggregate::no_row) cached = state->aggregate->range_row(state->ranges.name(context.range));
            range_row = cached;
        }
        std::size_t kernel_row = name.row;
        if (kernel_row == Aggregate::no_row || state->options.split_by_shape) {
            kernel_row = state->aggregate->kernel_row(l);
            if (!state->options.split_by_shape) name.row = kernel_row;
        }
        state->aggregate->add_kernel_at(kernel_row, range_row, l);
        if (state->options.trace > 0) {
            if (state->trace.size() < state->options.trace) {
                KernelActivity t;
                t.name = name.demangled;
                t.device = l.device;
                t.stream = k->streamId;
                for (int i = 0; i < 3; ++i) t.grid[i] = l.grid[i], t.block[i] = l.block[i];
                t.start_ns = k->start;
                t.end_ns = k->end;
                t.correlation_id = k->correlationId;
                t.graph_id = k->graphId;
                t.graph_node_id = k->graphNodeId;
                state->trace.push_back(std::move(t));
            } else {
                ++state->trace_left_out;
            }
        }
        return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const toolkit::MemcpyRecord*>(a);
        const LaunchContext context = launch_of(m->correlationId);
        if (incomplete(m->start, m->end)) return;
        if (!in_window(m->start) || (state->watched_range != 0 && !context.in_watched)) {
            state->aggregate->add_filtered();
            return;
        }
        state->aggregate->add_transfer(copy_kind(m->copyKind), static_cast<int>(m->deviceId), m->bytes, m->start, m->end);
        return;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const toolkit::MemsetRecord*>(a);
        const LaunchContext context = launch_of(m->correlationId);
        if (incomplete(m->start, m->end)) return;
        if (!in_window(m->start) || (state->watched_range != 0 && !context.in_watched)) {
            state->aggregate->add_filtered();
            return;
        }
        state->aggregate->add_transfer("memset", static_cast<int>(m->deviceId), m->bytes, m->start, m->end);
        return;
    }
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
        const auto* o = reinterpret_cast<const CUpti_ActivityOverhead3*>(a);
        state->aggregate->add_overhead(overhead_kind(o->overheadKind), o->start, o->end);
        return;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto* d = reinterpret_cast<const CUpti_ActivityDevice5*>(a);
        report::DeviceInfo info;
        info.index = static_cast<int>(d->id);
        info.name = d->name ? d->name : "";
        info.compute_major = static_cast<int>(d->computeCapabilityMajor);
        info.compute_minor = static_cast<int>(d->computeCapabilityMinor);
        info.sm_count = static_cast<int>(d->numMultiprocessors);
        info.global_memory_bytes = d->globalMemorySize;
        info.sm_clock_nominal_mhz = d->coreClockRate / 1000.0;
        info.l2_bytes = d->l2CacheSize;
        for (const auto& known : state->devices)
            if (known.index == info.index) return;
        unsigned char uuid[16];
        std::memcpy(uuid, &d->uuid, sizeof uuid);
        state->identities.push_back({info.index, info.name, distributed::format_uuid(uuid), ""});
        state->devices.push_back(info);
        return;
    }
    default:
        return;
    }
}

void CUPTIAPI buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer, std::size_t, std::size_t valid) {
    std::size_t dropped = 0;
    if (!state->options.left_out.tables) {
        const std::lock_guard guard(state->lock);
        CUpti_Activity* a = nullptr;
        lowest_correlation = 0;
        while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS) record(a);
        // Launches well behind this buffer's records have had theirs: forgotten.
        constexpr std::uint32_t margin = 1u << 16;
        if (!state->launches.empty() && lowest_correlation > margin) state->launches.forget_before(lowest_correlation - margin);
        if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS) dropped = 0;
        if (dropped > 0) state->aggregate->add_dropped("activity records (CUPTI buffers full)", dropped);
    }
    to_client([&](const gpuchrono_run_client_v1& c) { c.buffer_completed(c.context, buffer, valid, dropped); });
    give_back(buffer, valid);
}

// The attributes of a push, nullptr for the pushes that take a bare string.
const nvtxEventAttributes_t* push_attributes(CUpti_CallbackId cbid, const CUpti_NvtxData* data) {
    if (cbid == CUPTI_CBID_NVTX_nvtxRangePushEx) return static_cast<const nvtxRangePushEx_params*>(data->functionParams)->eventAttrib;
    if (cbid == CUPTI_CBID_NVTX_nvtxDomainRangePushEx)
        return static_cast<const nvtxDomainRangePushEx_params*>(data->functionParams)->core.eventAttrib;
    return nullptr;
}

// The pushed range's name, valid while the callback runs: no copy on the way to RangeNames::intern, which stores
// a name only the first time it sees it.
std::string_view range_name_of(CUpti_CallbackId cbid, const CUpti_NvtxData* data, std::string& registered) {
    if (cbid == CUPTI_CBID_NVTX_nvtxRangePushA) {
        const auto* p = static_cast<const nvtxRangePushA_params*>(data->functionParams);
        return p && p->message ? std::string_view(p->message) : std::string_view();
    }
    const nvtxEventAttributes_t* attributes = push_attributes(cbid, data);
    if (attributes && attributes->messageType == NVTX_MESSAGE_TYPE_ASCII && attributes->message.ascii)
        return attributes->message.ascii;
    if (attributes && attributes->messageType == NVTX_MESSAGE_TYPE_REGISTERED) {
        const std::lock_guard guard(state->nvtx_handles_lock);
        const auto it = state->registered_strings.find(attributes->message.registered);
        registered = it != state->registered_strings.end() ? it->second : "(registered string)";
        return registered;
    }
    if (cbid == CUPTI_CBID_NVTX_nvtxRangePushW) return "(wide string)";
    return "(unnamed)";
}

// The domain a push names, for the note: "" for the default domain.
std::string domain_of(CUpti_CallbackId cbid, const CUpti_NvtxData* data) {
    if (cbid != CUPTI_CBID_NVTX_nvtxDomainRangePushEx) return {};
    const void* domain = static_cast<const nvtxDomainRangePushEx_params*>(data->functionParams)->domain;
    const std::lock_guard guard(state->nvtx_handles_lock);
    const auto it = state->domains.find(domain);
    return it != state->domains.end() ? it->second.name : "(unnamed domain)";
}

// The NVIDIA library whose image holds `address` (the file name, libcublasLt.so.13), "" when it is none of them.
// A domain's name is a literal of the code that creates it: a domain named from inside cuBLAS, cuDNN, NCCL and
// the like is that library's own, whose ranges wrap its internal launches. Tabled, they would take the
// program's kernels out of the program's own ranges (a kernel counts in the innermost range), and the first of
// them would put a launch callback on every launch of a program that never asked for ranges.
std::string library_of(const void* address) {
    Dl_info info{};
    if (!address || dladdr(address, &info) == 0 || !info.dli_fname) return {};
    const std::string_view path = info.dli_fname;
    const std::string_view file = path.substr(path.find_last_of('/') + 1);
    for (const std::string_view prefix : {"libcublas", "libcudnn", "libcusparse", "libcufft", "libcurand", "libcusolver",
                                          "libnccl", "libcutensor", "libnvinfer"})
        if (file.starts_with(prefix)) return std::string(file);
    return {};
}

// Whether a domain push or pop is in an NVIDIA library's own domain (under no lock of the caller's).
bool library_domain(const void* domain) {
    if (!domain) return false;
    const std::lock_guard guard(state->nvtx_handles_lock);
    const auto it = state->domains.find(domain);
    return it != state->domains.end() && !it->second.library.empty();
}

// nvtxDomainCreateA and nvtxDomainRegisterStringA hand back a handle: its text, kept for the pushes that name it.
void remember_handle(CUpti_CallbackId cbid, const CUpti_NvtxData* data) {
    if (!data->functionReturnValue || !data->functionParams) return;
    const void* handle = *static_cast<void* const*>(data->functionReturnValue);
    const char* text = nullptr;
    bool domain = false;
    if (cbid == CUPTI_CBID_NVTX_nvtxDomainCreateA) {
        text = static_cast<const nvtxDomainCreateA_params*>(data->functionParams)->name;
        domain = true;
    } else if (cbid == CUPTI_CBID_NVTX_nvtxDomainRegisterStringA) {
        text = static_cast<const nvtxDomainRegisterStringA_params*>(data->functionParams)->string;
    }
    if (!handle || !text) return;
    if (domain) {
        // CUB and Thrust are compiled into the program, so their domain is known by its name (cub/detail/nvtx.cuh).
        State::Domain d{text, std::strcmp(text, "CCCL") == 0 ? "CUB/Thrust" : library_of(text)};
        const std::lock_guard guard(state->nvtx_handles_lock);
        state->domains[handle] = std::move(d);
        return;
    }
    const std::lock_guard guard(state->nvtx_handles_lock);
    state->registered_strings[handle] = text;
}

void enable_all_launch_callbacks();

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        switch (cbid) {
        case CUPTI_CBID_NVTX_nvtxRangePushA:
        case CUPTI_CBID_NVTX_nvtxRangePushW:
        case CUPTI_CBID_NVTX_nvtxRangePushEx:
        case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
            const auto* nvtx = static_cast<const CUpti_NvtxData*>(data);
            if (cbid == CUPTI_CBID_NVTX_nvtxDomainRangePushEx &&
                library_domain(static_cast<const nvtxDomainRangePushEx_params*>(nvtx->functionParams)->domain)) {
                state->library_ranges.fetch_add(1, std::memory_order_relaxed);
                return;
            }
            std::string registered;
            const std::string_view name = range_name_of(cbid, nvtx, registered);
            state->ranges_pushed.fetch_add(1, std::memory_order_relaxed);
            if (!state->launch_callbacks_on.load(std::memory_order_acquire)) {
                if (!state->launch_callbacks.exchange(true)) {
                    const std::string domain = domain_of(cbid, nvtx);
                    state->first_range = "'" + std::string(name) + "'" + (domain.empty() ? "" : " of NVTX domain '" + domain + "'");
                    enable_all_launch_callbacks();
                    state->launch_callbacks_on.store(true, std::memory_order_release);
                }
                while (!state->launch_callbacks_on.load(std::memory_order_acquire)) std::this_thread::yield();
            }
            const std::uint32_t id = state->ranges.intern(name);
            thread_ranges.push(id, id == state->watched_range);
            return;
        }
        case CUPTI_CBID_NVTX_nvtxDomainCreateA:
        case CUPTI_CBID_NVTX_nvtxDomainRegisterStringA:
            remember_handle(cbid, static_cast<const CUpti_NvtxData*>(data));
            return;
        case CUPTI_CBID_NVTX_nvtxDomainRangePop: {
            const auto* pop = static_cast<const nvtxDomainRangePop_params*>(static_cast<const CUpti_NvtxData*>(data)->functionParams);
            if (pop && library_domain(pop->domain)) return;  // its push was left out
            thread_ranges.pop();
            return;
        }
        case CUPTI_CBID_NVTX_nvtxRangePop:
            thread_ranges.pop();
            return;
        default:
            return;
        }
    }
    const std::atomic<std::uint8_t>* wanted = share.wants(domain, cbid);
    const std::uint8_t by = wanted ? wanted->load(std::memory_order_relaxed) : 0;
    if (by & Share::client_wants)
        to_client([&](const gpuchrono_run_client_v1& c) { c.api_callback(c.context, domain, cbid, data); });
    // A launch, copy or set through the runtime or the driver: remember the thread's innermost range for its
    // record. Both layers' correlation ids are kept, whichever the record carries; outside every range nothing is.
    if (!(by & Share::own) || thread_ranges.open.empty()) return;
    const auto* api = static_cast<const CUpti_CallbackData*>(data);
    if (api->callbackSite != CUPTI_API_ENTER) return;
    state->launches.remember(api->correlationId, {thread_ranges.innermost(), thread_ranges.watched > 0});
}

void enable_launch_callbacks(CUpti_CallbackDomain domain, std::uint32_t count) {
    for (std::uint32_t cbid = 1; cbid < count; ++cbid) {
        const char* name = nullptr;
        if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || name == nullptr) continue;
        const std::string n = name;
        const auto has = [&](const char* part) { return n.find(part) != std::string::npos; };
        const bool launches = has("Launch") && !has("HostFunc") && !has("Attribute") && !has("Occupancy");
        // Copies and sets are tied to ranges for --nvtx's filter only (the range tables hold kernels): without it
        // their callbacks would cost every copy and set for nothing.
        const bool copies = state->watched_range != 0 && (has("Memcpy") || has("Memset"));
        if (!launches && !copies) continue;
        if (std::atomic<std::uint8_t>* w = share.wants(domain, cbid)) w->fetch_or(Share::own);
        cuptiEnableCallback(1, state->subscriber, domain, cbid);
    }
}

void enable_all_launch_callbacks() {
    const std::lock_guard guard(share.callback_lock);
    enable_launch_callbacks(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE);
    enable_launch_callbacks(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE);
}

// Writes the report as it stands; `final` also writes the other formats and the table on stderr.
void write_now(bool final, const std::string& status_note, const std::string& ending = {}) {
    const std::lock_guard writing(state->write_lock);
    RunInfo info;
    std::unique_ptr<Aggregate> copy;
    {
        const std::lock_guard guard(state->lock);
        copy = std::make_unique<Aggregate>(*state->aggregate);
        info.devices = state->devices;
        info.identities = state->identities;
        if (final) info.trace = state->trace;
        info.trace_left_out = state->trace_left_out;
        {
            const std::lock_guard users(state->other_users_lock);
            for (const auto& [who, times] : state->other_users)
                info.notes.push_back("another CUPTI user in the program, " + who + ", asked for the subscription gpuchrono "
                                     "run held (" + std::to_string(times) + (times == 1 ? " time" : " times") +
                                     ") and was refused: its own profile has no GPU activity, this report misses nothing");
        }
        if (state->library_marks > 0)
            info.notes.push_back(std::to_string(state->library_marks) + " " + gpuchrono::detail::stream_marker_name +
                                 " kernels (the marks of gpuchrono KernelPolicy scopes in the program) left out of the tables");
        if (state->library_kernels > 0)
            info.notes.push_back(std::to_string(state->library_kernels) +
                                 " launches of gpuchrono's own kernels (the warm-ups, lead spins, L2 flushes and clock "
                                 "calibrations of gpuchrono timers and measure() in the program) left out of the tables");
        if (const std::uint64_t n = share.attaches.load(); n > 0)
            info.notes.push_back("gpuchrono scopes in the program shared this recording's CUPTI subscription (attached " +
                                 std::to_string(n) + (n == 1 ? " time)" : " times)"));
        if (state->launch_callbacks_on.load(std::memory_order_acquire)) {
            const std::uint64_t n = state->ranges_pushed.load(std::memory_order_relaxed);
            info.notes.push_back("NVTX ranges (" + std::to_string(n) + " pushed) turned the launch callbacks on at the first, " +
                                 state->first_range + ": from then on every launch (with --nvtx every copy and set too) "
                                 "passed through a CUPTI callback, the cost of tying work to its range; --no-nvtx records "
                                 "without ranges and without that cost");
        }
        if (const std::uint64_t n = state->library_ranges.load(std::memory_order_relaxed); n > 0) {
            std::string which;
            {
                const std::lock_guard handles(state->nvtx_handles_lock);
                std::vector<std::string> seen;
                for (const auto& [handle, d] : state->domains) {
                    const std::string one = "'" + d.name + "' (" + d.library + ")";
                    if (!d.library.empty() && std::find(seen.begin(), seen.end(), one) == seen.end()) seen.push_back(one);
                }
                std::sort(seen.begin(), seen.end());
                for (const std::string& one : seen) which += (which.empty() ? "" : ", ") + one;
            }
            info.notes.push_back(std::to_string(n) + " NVTX ranges of NVIDIA libraries' own domains (" + which +
                                 ") left out: their kernels count in the program's own ranges, and those ranges turn "
                                 "no launch callbacks on");
        }
        if (state->incomplete > 0)
            info.notes.push_back(std::to_string(state->incomplete) +
                                 " records were handed over by a periodic flush while their work still ran (no end time): "
                                 "left out of the tables; a longer --flush-ms loses fewer");
    }
    info.complete = final && status_note.empty();
    info.status_note = status_note;
    info.command = state->command;
    info.timer_floor_ns = timer_floor_ns;
    if (!state->options.kernels.empty()) info.notes.push_back("recorded only kernels matching --kernels " + state->options.kernels);
    if (!state->options.nvtx.empty()) info.notes.push_back("recorded only work launched inside NVTX range " + state->options.nvtx);
    if (!ending.empty()) info.notes.push_back(ending);
    if (const LeftOut& l = state->options.left_out; l.any()) {
        LeftOut missing = l;
        missing.recycle = false;  // a saving left out: the report misses nothing for it
        info.notes.push_back("recorded without " + left_out_text(l) +
                             " (GPUCHRONO_RUN_BENCH_LEAVE_OUT, a bench's setting to see what each part costs)" +
                             (missing.any() ? ": the report misses what they give" : ""));
    }
    try {
        const report::Report r = build_report(*copy, info);
        std::filesystem::create_directories(state->folder);
        const std::filesystem::path file = state->folder / state->file_name;
        const std::filesystem::path partial = state->folder / (state->file_name + ".partial");
        report::save_report(r, partial);
        std::filesystem::rename(partial, file);
        if (!final) return;
        const std::string stem = file.stem().string();
        if (state->options.csv) {
            std::ofstream(state->folder / (stem + "-kernels.csv")) << rows_csv(table_rows(r, kernels_experiment));
            std::ofstream(state->folder / (stem + "-nvtx.csv")) << rows_csv(table_rows(r, ranges_experiment));
        }
        if (state->options.html || state->options.perfetto) report::write_report_files(r, state->folder / (stem + "-files"));
        if (state->options.top > 0) {
            std::fprintf(stderr, "\ngpuchrono run: %s (%s)\n", file.string().c_str(),
                         info.complete ? "complete" : ("incomplete: " + status_note).c_str());
            std::fputs(render_top(r, state->options.top).c_str(), stderr);
        }
    } catch (const std::exception& e) {
        say(std::string("cannot write the report: ") + e.what());
    }
}

void final_flush_and_write(const std::string& status_note) {
    if (state->finished.exchange(true)) return;
    flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    write_now(true, status_note);
}

// Signal handlers only write a byte; the flush thread does the work (CUPTI and the file system are not
// async-signal-safe). A handler never waits for it: the signal may have interrupted a thread inside a CUDA call,
// holding the locks the flush needs (on the H100 a SIGTERM during a launch loop then kept the flush waiting
// until the handler gave up, and the program died without its final report). Where the signal's action was the
// default one, the flush thread ends the process with it once the report is written; a program's own handler
// runs at once, and the report written meanwhile says the signal came (its exit writes the final one).
struct Chained {
    int signal;
    struct sigaction previous;
};
Chained chained[4] = {{SIGINT, {}}, {SIGTERM, {}}, {SIGUSR1, {}}, {SIGUSR2, {}}};

bool default_action(int sig) {
    for (const Chained& ch : chained)
        if (ch.signal == sig) return !(ch.previous.sa_flags & SA_SIGINFO) && ch.previous.sa_handler == SIG_DFL;
    return false;
}

void on_signal(int sig, siginfo_t* info, void* context) {
    const int saved = errno;
    const char c = sig == SIGUSR1 ? 's' : sig == SIGUSR2 ? 'p' : sig == SIGINT ? 'i' : 't';
    const bool ending = c == 'i' || c == 't';
    const bool told = state && !state->finished.load() && ::write(state->wake[1], &c, 1) == 1;
    if (told && ending && default_action(sig)) {
        const char s = static_cast<char>(sig);
        (void)!::write(state->ending[1], &s, 1);
    }
    errno = saved;
    if (!ending) return;
    if (told && default_action(sig)) return;  // the flush thread ends the process after the report
    for (Chained& ch : chained) {
        if (ch.signal != sig) continue;
        if (ch.previous.sa_flags & SA_SIGINFO) {
            if (ch.previous.sa_sigaction) ch.previous.sa_sigaction(sig, info, context);
        } else if (ch.previous.sa_handler == SIG_IGN) {
            return;
        } else if (ch.previous.sa_handler == SIG_DFL) {
            signal(sig, SIG_DFL);
            raise(sig);
        } else if (ch.previous.sa_handler) {
            ch.previous.sa_handler(sig);
        }
    }
}

void install_signals() {
    struct sigaction a {};
    a.sa_sigaction = on_signal;
    a.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&a.sa_mask);
    for (Chained& ch : chained) {
        if ((ch.signal == SIGUSR1 || ch.signal == SIGUSR2) && !state->options.signals) continue;
        sigaction(ch.signal, &a, &ch.previous);
    }
}

// A forked child (without exec) shares the parent's pipes and report file but not its flush thread: it records
// nothing and leaves the parent's handlers alone. An exec'd child loads the injection afresh.
void on_fork_child() {
    for (Chained& ch : chained) {
        if ((ch.signal == SIGUSR1 || ch.signal == SIGUSR2) && !(state && state->options.signals)) continue;
        sigaction(ch.signal, &ch.previous, nullptr);
    }
    state = nullptr;
}

// A signal whose default action ends the process ends it at the latest this long after it came, report written or
// not: the flush thread may be held up inside CUPTI, and a program must not outlive a SIGTERM or a Ctrl-C.
constexpr int ending_patience_ms = 5000;

void watch_ending() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    char s = 0;
    while (read(state->ending[0], &s, 1) != 1)
        if (errno != EINTR) return;
    poll(nullptr, 0, ending_patience_ms);
    signal(s, SIG_DFL);
    kill(getpid(), s);
}

void flush_loop() {
    // The periodic report costs its writing time; it is skipped while the last one took more than 5% of the
    // time since (a report of many kernels on a slow disk), so the program never waits on it.
    auto last_write = std::chrono::steady_clock::now();
    std::chrono::steady_clock::duration last_cost{};
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);  // handlers run on the program's threads, never this one
    // Without the periodic flush (a bench's setting) the thread still serves signals; records come at exit.
    const int period_ms = state->options.left_out.periodic ? -1 : static_cast<int>(state->options.flush_ms);
    while (!state->finished.load()) {
        pollfd p{state->wake[0], POLLIN, 0};
        const int ready = poll(&p, 1, period_ms);
        if (state->finished.load()) break;
        if (ready == 1) {
            char c = 0;
            if (read(state->wake[0], &c, 1) != 1) continue;
            if (c == 'q') break;
            if (c == 's' || c == 'p') {
                const std::lock_guard guard(state->lock);
                const std::uint64_t t = now();
                const bool open = !state->windows.empty() && state->windows.back().second == 0;
                if (c == 's' && !open) state->windows.push_back({t, 0});
                if (c == 'p' && open) state->windows.back().second = t;
                continue;
            }
            // SIGINT or SIGTERM: the report as it stands, complete unless the program's own handler goes on.
            const int sig = c == 'i' ? SIGINT : SIGTERM;
            flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
            write_now(true, "", c == 'i' ? "the program received SIGINT" : "the program received SIGTERM");
            if (default_action(sig)) {
                // What the signal would have done: this thread blocks every signal, so the process gets it anew
                // (a thread that does not block it takes the default action, with the exit status it implies).
                state->finished.store(true);
                signal(sig, SIG_DFL);
                kill(getpid(), sig);
                break;
            }
            continue;
        }
        // Forced: a buffer CUPTI is still filling is handed over too, so a crash loses at most this period. Not while
        // gpuchrono's scopes share the subscription: a forced flush hands over the records of work still running
        // without their times, and a scope whose kernel ran then would lose its reading (the records come once).
        // The default flush still hands over every buffer whose records are complete.
        flush_all(share.client.load() ? 0 : CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        const auto start = std::chrono::steady_clock::now();
        if (start - last_write < 20 * last_cost) continue;
        write_now(false, "the program had not ended at the last periodic flush");
        last_write = std::chrono::steady_clock::now();
        last_cost = last_write - start;
    }
}

void at_exit() {
    if (!state || state->finished.load()) return;
    const char q = 'q';
    (void)!::write(state->wake[1], &q, 1);
    if (state->flusher.joinable()) state->flusher.join();
    final_flush_and_write("");
}

std::string program_command() {
    std::ifstream f("/proc/self/cmdline", std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (char& c : all)
        if (c == '\0') c = ' ';
    while (!all.empty() && all.back() == ' ') all.pop_back();
    return all;
}

int initialize() {
    RunOptions options;
    try {
        options = options_from_environment();
    } catch (const std::exception& e) {
        say(std::string(e.what()) + "; the program runs without recording");
        return 1;
    }
    if (options.root_pid > 0 && getpid() != options.root_pid && !options.follow_children) return 1;
    if (!options.follow_children) unsetenv("CUDA_INJECTION64_PATH");  // children started from here on run untouched

    auto s = std::make_unique<State>();
    s->options = options;
    if (!options.kernels.empty()) s->kernel_filter = std::make_unique<std::regex>(options.kernels);
    s->command = program_command();
    s->folder = options.output;
    bool root = options.root_pid == 0 || getpid() == options.root_pid;
    try {
        s->file_name = report_file_name(distributed::identity_from_environment(), root);
    } catch (const std::exception&) {
        s->file_name = root ? "report.json" : "report-pid" + std::to_string(getpid()) + ".json";
    }
    AggregateOptions aggregate;
    aggregate.reservoir = options.reservoir;
    aggregate.split_by_shape = options.split_by_shape;
    s->aggregate = std::make_unique<Aggregate>(aggregate);
    if (options.perfetto && s->options.trace == 0) s->options.trace = 200000;
    state = s.release();

    if (const CUptiResult r = cuptiSubscribe(&state->subscriber, on_callback, nullptr); r != CUPTI_SUCCESS) {
        say("another CUPTI user holds this process's CUPTI subscription (" + cupti_error(r) +
            "; a profiler such as Nsight Systems or torch.profiler): the program runs untouched and nothing is recorded");
        RunInfo info;
        info.complete = false;
        info.status_note = "not recorded: another CUPTI user held the subscription";
        info.command = state->command;
        try {
            std::filesystem::create_directories(state->folder);
            report::save_report(build_report(*state->aggregate, info), state->folder / state->file_name);
        } catch (const std::exception&) {
        }
        return 1;
    }
    if (!options.nvtx.empty()) state->watched_range = state->ranges.intern(options.nvtx);
    const std::uint64_t t0 = now();
    if (!options.signals) {
        const std::uint64_t from = t0 + static_cast<std::uint64_t>(options.delay_s * 1e9);
        const std::uint64_t to = options.duration_s > 0 ? from + static_cast<std::uint64_t>(options.duration_s * 1e9) : 0;
        state->windows.push_back({from, to});
    }
    // Beyond the floor's kernel records, each costs per event, never per launch: DEVICE one record per device (the
    // devices table and the ranks' identities), MEMCPY and MEMSET one per copy or set (the transfers table),
    // OVERHEAD one per buffer, flush or module load (run-cupti-overhead). NVTX calls reach on_callback only where
    // the program (or a library in it) calls NVTX; launches reach it only once a range of the program's own opened.
    // A bench (run_overhead.py) may leave each of them out to see what it costs (RunOptions::left_out).
    const LeftOut& left_out = options.left_out;
    if (!left_out.nvtx) cuptiEnableDomain(1, state->subscriber, CUPTI_CB_DOMAIN_NVTX);
    recycling = !left_out.recycle && recycle_buffers();
    cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    const std::pair<CUpti_ActivityKind, bool> kinds[] = {
        {CUPTI_ACTIVITY_KIND_DEVICE, !left_out.device},     {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, true},
        {CUPTI_ACTIVITY_KIND_MEMCPY, !left_out.memcpy},     {CUPTI_ACTIVITY_KIND_MEMSET, !left_out.memset},
        {CUPTI_ACTIVITY_KIND_OVERHEAD, !left_out.overhead}};
    for (const auto& [kind, wanted] : kinds) {
        if (!wanted) continue;
        if (const CUptiResult r = cuptiActivityEnable(kind); r != CUPTI_SUCCESS && kind != CUPTI_ACTIVITY_KIND_OVERHEAD)
            say("cannot enable CUPTI activity kind " + std::to_string(static_cast<int>(kind)) + ": " + cupti_error(r));
    }
    if (left_out.any())
        say("recording without " + left_out_text(left_out) + " (GPUCHRONO_RUN_BENCH_LEAVE_OUT, a bench's setting)");
    if (pipe2(state->wake, O_CLOEXEC) != 0 || pipe2(state->ending, O_CLOEXEC) != 0) {
        say("cannot create the flush thread's pipes; the report is written at exit only");
    } else {
        install_signals();
        pthread_atfork(nullptr, nullptr, on_fork_child);
        state->flusher = std::thread(flush_loop);
        state->watchdog = std::thread(watch_ending);
        state->watchdog.detach();
    }
    std::atexit(at_exit);
    return 1;
}

// --- the shared subscription (cupti/run_share_abi.hpp) ---

int share_attach(const gpuchrono_run_client_v1* client) {
    if (!state || !state->subscriber || state->finished.load()) return gpuchrono_run_not_recording;
    if (!client || client->struct_size < sizeof(gpuchrono_run_client_v1) || !client->buffer_completed || !client->api_callback)
        return gpuchrono_run_not_recording;
    const std::lock_guard guard(share.attach_lock);
    if (share.client.load()) return gpuchrono_run_client_taken;
    share.attached_once.store(true);
    share.client.store(client);
    share.attaches.fetch_add(1);
    return gpuchrono_run_attached;
}

void share_detach() {
    const std::lock_guard guard(share.attach_lock);
    if (!share.client.load()) return;
    share.client.store(nullptr);
    // Calls that read the client before it was cleared end before this returns; this thread's own (a detach from
    // inside a forwarded call) are not waited for.
    while (share.in_flight.load() > forwarding) std::this_thread::yield();
    const std::lock_guard callbacks(share.callback_lock);
    const auto turn_off = [](CUpti_CallbackDomain domain, std::atomic<std::uint8_t>* wants, std::uint32_t count) {
        for (std::uint32_t cbid = 0; cbid < count; ++cbid) {
            const std::uint8_t before = wants[cbid].fetch_and(static_cast<std::uint8_t>(~Share::client_wants));
            if ((before & Share::client_wants) && !(before & Share::own) && state && state->subscriber)
                cuptiEnableCallback(0, state->subscriber, domain, cbid);
        }
    };
    turn_off(CUPTI_CB_DOMAIN_RUNTIME_API, share.runtime, CUPTI_RUNTIME_TRACE_CBID_SIZE);
    turn_off(CUPTI_CB_DOMAIN_DRIVER_API, share.driver, CUPTI_DRIVER_TRACE_CBID_SIZE);
}

int share_enable_callback(int domain, std::uint32_t cbid) {
    if (!state || !state->subscriber) return CUPTI_ERROR_NOT_INITIALIZED;
    const auto d = static_cast<CUpti_CallbackDomain>(domain);
    std::atomic<std::uint8_t>* wants = share.wants(d, cbid);
    if (!wants) return CUPTI_ERROR_INVALID_PARAMETER;
    const std::lock_guard guard(share.callback_lock);
    wants->fetch_or(Share::client_wants);
    return cuptiEnableCallback(1, state->subscriber, d, cbid);
}

std::size_t share_collect_dropped() {
    std::size_t dropped = 0;
    if (!state || cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) != CUPTI_SUCCESS || dropped == 0) return 0;
    const std::lock_guard guard(state->lock);
    state->aggregate->add_dropped("activity records (CUPTI buffers full)", dropped);
    return dropped;
}

const gpuchrono_run_share_v1 share_v1{sizeof(gpuchrono_run_share_v1), share_attach, share_detach, share_enable_callback,
                                      share_collect_dropped, reinterpret_cast<const void*>(&cuptiActivityGetNextRecord),
                                      flush_all};

}  // namespace

extern "C" {

// The CUDA driver calls this once, from the thread that initializes CUDA.
__attribute__((visibility("default"))) int InitializeInjection(void) {
    try {
        return initialize();
    } catch (const std::exception& e) {
        say(std::string("the injection failed (") + e.what() + "): the program runs without recording");
        return 1;
    }
}

// What `gpuchrono run` checks before starting a program: the CUDA major this library was built for, and where
// the CUPTI it links lives (for NVTX_INJECTION64_PATH).
__attribute__((visibility("default"))) int gpuchrono_inject_cuda_major(void) { return gpuchrono::toolkit::cuda_major; }

// libgpuchrono_run_watch.so calls this when a cuptiSubscribe of the program's was refused (run/watch/cupti_watch.cpp).
__attribute__((visibility("default"))) void gpuchrono_run_other_cupti_user(const char* who) {
    if (!state || !state->subscriber || state->finished.load() || !who) return;  // not recording, or its own refusal
    try {
        bool first = false;
        {
            const std::lock_guard users(state->other_users_lock);
            auto it = std::find_if(state->other_users.begin(), state->other_users.end(),
                                   [&](const auto& u) { return u.first == who; });
            first = it == state->other_users.end();
            if (first)
                state->other_users.emplace_back(who, 1);
            else
                ++it->second;
        }
        if (first)
            say(std::string(who) + " asked for CUPTI's subscriber slot, which gpuchrono run holds in this process, and "
                "was refused: that profiler (torch.profiler, Nsight Systems, a tool's own cuptiSubscribe) records no GPU "
                "activity here, while the program runs on and gpuchrono run's report stays complete; record the "
                "program with one tool or the other");
    } catch (...) {
        // Out of memory while naming it: the refusal stands, unnamed.
    }
}

// gpuchrono's library in the program looks for this (cupti/run_share_abi.hpp) before it subscribes to CUPTI itself.
__attribute__((visibility("default"))) const gpuchrono_run_share_v1* gpuchrono_run_share(int version) {
    return version == gpuchrono::run_share::version ? &share_v1 : nullptr;
}

__attribute__((visibility("default"))) const char* gpuchrono_inject_cupti_path(void) {
    static std::string path;
    Dl_info info{};
    if (path.empty() && dladdr(reinterpret_cast<void*>(&cuptiSubscribe), &info) != 0 && info.dli_fname) path = info.dli_fname;
    return path.c_str();
}

}  // extern "C"
