// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KernelPolicy's standing figures, the ones docs/pitfalls.md "Costs" quotes, side by side in one run:
//   2. launch-call host time without CUPTI, with raw CUPTI (kernel records; records + the launch callbacks) and
//      inside a KernelPolicy scope (median of 1000, in alternating child processes, since CUPTI cannot be
//      unloaded from a process), and beside it the mean of a loop the GPU paces;
//   3. spin(D), D = 1, 10, 100, 1000 us: median and p5..p95 of KernelPolicy (busy time), of the CUPTI record
//      itself (end - start: the floor), and of EventPolicy (checks on); `--accuracy-only` runs this alone, to
//      compare builds of different toolchains on one GPU;
//   5. what a KernelPolicy stop costs on the host (wait + flush), and one flush for 100 lazy scopes;
//   6. another CUPTI subscriber in the process (a child subscribes first): what KernelPolicy says;
//   7. CUPTI without gpuchrono (a child): the floor and what each part costs a launch call;
//   8. what a GPU-state (NVML) read at an EventPolicy scope's start costs that scope's interval.
// The open questions have programs of their own (bench/README.md).
// Not a test: it asserts nothing. Run on a GPU: bench_kernel_policy [--accuracy-only]
#include "bench_timing.hpp"
#include "device_banner.hpp"

#include <spin.hpp>

#include <cupti.h>  // the raw-CUPTI child only (loaded with dlopen, as the library does)
#include <cupti/toolkit.hpp>  // the soname and record layout of the toolkit built with (modules/src/cupti/toolkit.hpp)
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include <gpuchrono/core/device.hpp>
#include "gpu/context_id.hpp"
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include <gpuchrono/core/nvtx_range.hpp>
#include <gpuchrono/gpu/event_floor.hpp>
#include <gpuchrono/gpu/event_pool.hpp>

#include <gpuchrono/api.hpp>

namespace {

// Mean host time of a launch call over 2000 spins of 20 us launched back to back, never drained: the queue
// fills and the GPU paces the host, as in a benchmark loop that times launches without waiting. CUPTI's cost
// then hides behind the GPU's time; docs/pitfalls.md "Costs" says why [1] reports the median of single launch calls instead.
double paced_launch_ns(cudaStream_t stream) {
    const auto t0 = Clock::now();
    for (int i = 0; i < 2000; ++i) kernels::launch_spin(Duration::from_us(20), stream);
    const double ns = ns_since(t0) / 2000;
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining the paced launches");
    return ns;
}

// Child process: CUPTI used directly, without gpuchrono: the floor (a spin's own activity record, end - start), and
// what CUPTI's parts cost a launch call: activity records alone, then a subscriber with the runtime launch
// callbacks, then with the driver's too; and which of the two ids a kernel record carries.
namespace raw {
std::string cupti_path() {
    for (const char* dir : gpuchrono::toolkit::cupti_folders) {
        const std::string path = std::string(dir) + "/" + gpuchrono::toolkit::cupti_soname;
        if (dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD) || dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return path;
    }
    return gpuchrono::toolkit::cupti_soname;
}
void* lib = nullptr;
template <class F>
F fn(const char* name) {
    return reinterpret_cast<F>(dlsym(lib, name));
}
std::vector<std::pair<std::uint32_t, std::uint64_t>> kernels;  // (correlation id, end - start)
std::vector<std::uint32_t> runtime_ids, driver_ids;
decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
void CUPTIAPI requested(uint8_t** b, size_t* size, size_t* max) {
    *b = static_cast<uint8_t*>(std::aligned_alloc(8, 2u << 20));
    *size = 2u << 20;
    *max = 0;
}
void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* b, size_t, size_t valid) {
    CUpti_Activity* r = nullptr;
    while (next_record(b, valid, &r) == CUPTI_SUCCESS)
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            auto* k = reinterpret_cast<gpuchrono::toolkit::KernelRecord*>(r);
            kernels.emplace_back(std::uint32_t{k->correlationId}, k->end - k->start);  // copies: the record is packed
        }
    std::free(b);
}
void CUPTIAPI on_call(void*, CUpti_CallbackDomain domain, CUpti_CallbackId, const void* data) {
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (info->callbackSite != CUPTI_API_ENTER) return;
    (domain == CUPTI_CB_DOMAIN_RUNTIME_API ? runtime_ids : driver_ids).push_back(info->correlationId);
}
CUpti_SubscriberHandle subscriber = nullptr;

// Loads libcupti; false (and says so) if it cannot.
bool load() {
    const std::string path = cupti_path();
    lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) std::printf("  raw CUPTI: cannot load %s\n", path.c_str());
    else next_record = fn<decltype(&cuptiActivityGetNextRecord)>("cuptiActivityGetNextRecord");
    return lib != nullptr;
}
// Kernel activity records on, with buffers of our own.
void enable_records() {
    fn<decltype(&cuptiActivityRegisterCallbacks)>("cuptiActivityRegisterCallbacks")(requested, completed);
    fn<decltype(&cuptiActivityEnable)>("cuptiActivityEnable")(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}
// A subscriber with the launch callbacks of one domain, as KernelPolicy enables them (false: cannot subscribe).
bool enable_launch_callbacks(CUpti_CallbackDomain domain, std::uint32_t count) {
    if (!subscriber && fn<decltype(&cuptiSubscribe)>("cuptiSubscribe")(&subscriber, on_call, nullptr) != CUPTI_SUCCESS) {
        std::printf("  raw CUPTI: cuptiSubscribe failed\n");
        return false;
    }
    auto enable_callback = fn<decltype(&cuptiEnableCallback)>("cuptiEnableCallback");
    auto callback_name = fn<decltype(&cuptiGetCallbackName)>("cuptiGetCallbackName");
    for (std::uint32_t cbid = 1; cbid < count; ++cbid) {
        const char* name = nullptr;
        if (callback_name(domain, cbid, &name) == CUPTI_SUCCESS && name &&
            (std::strstr(name, "Launch") || std::strstr(name, "Memcpy") || std::strstr(name, "Memset")))
            enable_callback(1, subscriber, domain, cbid);
    }
    return true;
}
}  // namespace raw

int raw_cupti_child() {
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the stream");
    warm(stream);
    if (!raw::load()) return 1;
    auto flush = raw::fn<decltype(&cuptiActivityFlushAll)>("cuptiActivityFlushAll");

    std::printf("  launch call, no CUPTI:                              %6.0f ns\n", launch_call_ns(stream));
    raw::enable_records();
    std::printf("  launch call, CONCURRENT_KERNEL records only:        %6.0f ns\n", launch_call_ns(stream));
    flush(0);  // the empty kernels' records: not the floor's
    raw::kernels.clear();
    for (double us : {1.0, 10.0, 100.0, 1000.0}) {
        raw::kernels.clear();
        for (int i = 0; i < 100; ++i) kernels::launch_spin(Duration::from_us(us), stream);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for the spins");
        flush(0);
        std::vector<double> v;
        for (const auto& k : raw::kernels) v.push_back(static_cast<double>(k.second));
        if (v.empty()) continue;
        const Spread sp = spread(v);
        std::printf("  raw record, spin %6.0f ns: n %zu, median %8.0f, p5 %8.0f, p95 %8.0f (bias %+.0f)\n", us * 1e3, v.size(),
                    sp.median, sp.p5, sp.p95, sp.median - us * 1e3);
    }
    for (std::uint32_t flag : {0u, static_cast<std::uint32_t>(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED)}) {
        std::vector<double> after;
        for (int i = 0; i < 50; ++i) {
            kernels::launch_empty(stream);
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting");
            flush(flag);
            const auto t0 = Clock::now();
            kernels::launch_empty(stream);
            after.push_back(ns_since(t0));
            GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting");
        }
        std::printf("  launch call right after a sync and cuptiActivityFlushAll(%s): median %6.0f ns\n",
                    flag ? "FORCED" : "0", spread(after).median);
    }
    raw::kernels.clear();
    auto which_id = [&](const char* what) {
        raw::kernels.clear();
        raw::runtime_ids.clear();
        raw::driver_ids.clear();
        kernels::launch_spin(Duration::from_us(1), stream);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting");
        flush(0);
        auto has = [](const std::vector<std::uint32_t>& ids, std::uint32_t id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
        const std::uint32_t id = raw::kernels.empty() ? 0 : raw::kernels.back().first;
        std::printf("    %s: a runtime launch made %zu runtime and %zu driver callbacks; the record's id %u is %s\n", what,
                    raw::runtime_ids.size(), raw::driver_ids.size(), id,
                    has(raw::runtime_ids, id) ? "the runtime call's" : has(raw::driver_ids, id) ? "the driver call's" : "neither");
    };
    if (!raw::enable_launch_callbacks(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE)) return 1;
    std::printf("  launch call, + runtime launch callbacks:            %6.0f ns\n", launch_call_ns(stream));
    which_id("runtime callbacks");
    if (!raw::enable_launch_callbacks(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE)) return 1;
    std::printf("  launch call, + driver launch callbacks:             %6.0f ns\n", launch_call_ns(stream));
    which_id("runtime + driver callbacks");
    return 0;
}

// Child process: another CUPTI subscriber takes the one slot first (as Nsight would); KernelPolicy must say so.
int taken_child() {
    gpuchrono::device_count();  // a context, as a profiled program has
    void* lib = dlopen(raw::cupti_path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::printf("  could not load %s for the other subscriber\n", gpuchrono::toolkit::cupti_soname);
        return 1;
    }
    using Callback = void (*)(void*, int, unsigned, const void*);
    auto subscribe = reinterpret_cast<int (*)(void**, Callback, void*)>(dlsym(lib, "cuptiSubscribe"));
    void* handle = nullptr;
    const int r = subscribe(&handle, [](void*, int, unsigned, const void*) {}, nullptr);
    std::printf("  the other tool's cuptiSubscribe returned %d\n", r);
    std::printf("  KernelPolicy::available() = %d: %s\n", KernelPolicy::available(), KernelPolicy::unavailable_reason().c_str());
    try {
        cudaStream_t s = nullptr;
        ScopedTimer<KernelPolicy> t(s);
        std::printf("  constructing a KernelPolicy did not throw\n");
    } catch (const std::exception& e) {
        std::printf("  constructing a KernelPolicy threw: %s\n", e.what());
    }
    ScopedTimer<KernelPolicy> t(cudaStream_t{}, KernelPolicy::Options{.if_unavailable = KernelPolicy::IfUnavailable::fail_measurement});
    const gpuchrono::Measurement m = [&] { try { return t.stop(); } catch (...) { return t.result(); } }();
    std::printf("  with fail_measurement: failed %d, findings %zu%s%s\n", m.failed(), m.findings().size(),
                m.findings().empty() ? "" : ", first: ", m.findings().empty() ? "" : m.findings()[0].code.c_str());
    return 0;
}


// A scope whose start reads the GPU state (NVML, due every 250 ms per device) against the scopes around it:
// what that read costs the interval in the steady state. The read is forced with reset_gpu_state_sampling
// (internal) before every 50th scope.
void gpu_state_read_cost(cudaStream_t stream) {
    std::printf("\n[6] EventPolicy scopes whose start read the GPU state (NVML) vs the others (spin 10 us, 20 reads "
                "among 1000 scopes)\n");
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    std::vector<double> after_read, others;
    for (int i = 0; i < 1000; ++i) {
        const bool read = i % 50 == 25;
        if (read) gpuchrono::reset_gpu_state_sampling();
        ScopedTimer<EventPolicy> t(stream);
        kernels::launch_spin(Duration::from_us(10), stream);
        (read ? after_read : others).push_back(t.stop().duration().ns());
    }
    const Spread r = spread(after_read), o = spread(others);
    std::printf("  after a read: median %6.0f ns (p5 %6.0f, p95 %6.0f); others: median %6.0f ns (p5 %6.0f, p95 %6.0f); "
                "the read costs the interval %+.0f ns\n", r.median, r.p5, r.p95, o.median, o.p5, o.p95, r.median - o.median);
}

void accuracy(cudaStream_t stream) {
    std::printf("\n[2] spin(D): GPU time read by each method, ns (100 samples each, interleaved)\n");
    std::printf("  %-8s %-22s %10s %10s %10s %10s %9s\n", "D", "method", "median", "p5", "p95", "p95-p5", "bias");
    for (double us : {1.0, 10.0, 100.0, 1000.0}) {
        const Duration d = Duration::from_us(us);
        std::vector<double> kernel, record, span, event, thread;
        for (int i = 0; i < 100; ++i) {
            {
                ScopedTimer<KernelPolicy> t(stream, KernelPolicy::Options{.count = KernelPolicy::Count::thread});
                kernels::launch_spin(d, stream);
                thread.push_back(t.stop().duration().ns());
            }
            {
                ScopedTimer<KernelPolicy> t(stream);
                kernels::launch_spin(d, stream);
                const gpuchrono::Measurement& m = t.stop();
                kernel.push_back(m.duration().ns());
                span.push_back(m.span()->ns());
                if (m.activities().size() == 1) record.push_back(static_cast<double>(m.activities()[0].duration_ns()));
            }
            {
                ScopedTimer<EventPolicy> t(stream);
                kernels::launch_spin(d, stream);
                event.push_back(t.stop().duration().ns());
            }
        }
        auto row = [&](const char* method, const std::vector<double>& v) {
            const Spread s = spread(v);
            std::printf("  %-8.0f %-22s %10.0f %10.0f %10.0f %10.0f %+9.0f\n", us * 1000, method, s.median, s.p5, s.p95,
                        s.p95 - s.p5, s.median - d.ns());
        };
        row("KernelPolicy (busy)", kernel);
        row("KernelPolicy thread mode", thread);
        row("CUPTI record end-start", record);
        row("KernelPolicy span", span);
        row("EventPolicy", event);
    }
}

// Child process: the median host time of a launch call, in a process without CUPTI ("none") or inside a
// KernelPolicy scope ("kernel"). Prints "launch <ns>".
int launch_cost_child(const char* which) {
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the stream");
    warm(stream);
    double ns = 0, paced = 0;
    if (std::strcmp(which, "kernel") == 0 || std::strcmp(which, "kernel-thread") == 0) {
        gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
        const KernelPolicy::Options options{.count = std::strcmp(which, "kernel") == 0 ? KernelPolicy::Count::stream
                                                                                         : KernelPolicy::Count::thread};
        gpuchrono::CuptiHold hold;  // CUPTI set up once, for the warm-up and the scope (bench_cupti_hold)
        (void)launch_call_ns(stream);  // warm the path with CUPTI on
        ScopedTimer<KernelPolicy> t(stream, options);
        ns = launch_call_ns(stream);
        paced = paced_launch_ns(stream);
        (void)t.stop();
    } else if (std::strcmp(which, "records") == 0 || std::strcmp(which, "callbacks") == 0) {
        if (!raw::load()) return 1;
        raw::enable_records();
        if (std::strcmp(which, "callbacks") == 0 &&
            (!raw::enable_launch_callbacks(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE) ||
             !raw::enable_launch_callbacks(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE)))
            return 1;
        (void)launch_call_ns(stream);
        ns = launch_call_ns(stream);
        paced = paced_launch_ns(stream);
    } else {
        (void)launch_call_ns(stream);
        ns = launch_call_ns(stream);
        paced = paced_launch_ns(stream);
    }
    std::printf("launch %.0f paced %.0f\n", ns, paced);
    return 0;
}

// Each kind in its own processes, alternating: CUPTI cannot be unloaded from a process. "records" and
// "callbacks" are CUPTI used directly, without gpuchrono: its kernel records alone, then with the launch callbacks
// of both domains that KernelPolicy enables. They are the floor any CUPTI-based policy stands on.
void launch_costs(const char* self) {
    std::printf("\n[1] host ns per launch call (empty kernel, median of 1000 per process; processes alternate, "
                "6 of each kind)\n");
    const std::array<const char*, 5> kinds = {"none", "records", "callbacks", "kernel", "kernel-thread"};
    const std::array<const char*, 5> labels = {"without CUPTI in the process", "raw CUPTI, kernel records only",
                                               "raw CUPTI, records + launch callbacks", "inside a KernelPolicy scope (stream)",
                                               "inside a KernelPolicy scope (thread)"};
    std::array<std::vector<double>, 5> ns, paced;
    for (int run = 0; run < 6; ++run) {
        for (std::size_t k = 0; k < kinds.size(); ++k) {
            FILE* child = popen((std::string(self) + " --launch-cost " + kinds[k]).c_str(), "r");
            double one = 0, one_paced = 0;
            const int got = child ? std::fscanf(child, "launch %lf paced %lf", &one, &one_paced) : 0;
            const int status = child ? pclose(child) : -1;
            if (got != 2 || status != 0) {
                std::printf("  %s: child failed (status %d)\n", kinds[k], status);
                continue;
            }
            ns[k].push_back(one);
            paced[k].push_back(one_paced);
        }
    }
    if (ns[0].empty()) return;
    const double none = spread(ns[0]).median, none_paced = spread(paced[0]).median;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        if (ns[k].empty()) continue;
        const double m = spread(ns[k]).median, p = spread(paced[k]).median;
        std::printf("  %-38s median %6.0f ns (processes: %.0f..%.0f): %.2fx | paced by the GPU (mean of 2000 back-to-back "
                    "20 us spins) %6.0f ns: %.2fx\n", labels[k], m, *std::min_element(ns[k].begin(), ns[k].end()),
                    *std::max_element(ns[k].begin(), ns[k].end()), m / none, p, p / none_paced);
    }
}

void stop_costs(cudaStream_t stream) {
    std::printf("\n[3] KernelPolicy host costs\n");
    std::vector<double> stops;
    for (int i = 0; i < 200; ++i) {
        ScopedTimer<KernelPolicy> t(stream);
        kernels::launch_spin(Duration::from_us(1), stream);
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "letting the kernel finish first");
        const auto t0 = Clock::now();
        (void)t.stop();
        stops.push_back(ns_since(t0));
    }
    const Spread s = spread(stops);
    std::printf("  stop() after the work finished (wait + flush + attribution): median %.1f us, p5 %.1f, p95 %.1f\n",
                s.median / 1e3, s.p5 / 1e3, s.p95 / 1e3);
    std::vector<double> after_flush;
    for (int i = 0; i < 100; ++i) {
        {
            ScopedTimer<KernelPolicy> t(stream);
            kernels::launch_empty(stream);
        }
        const auto t0 = Clock::now();
        kernels::launch_empty(stream);
        after_flush.push_back(ns_since(t0));
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "draining");
    }
    const Spread af = spread(after_flush);
    std::printf("  launch call right after a KernelPolicy stop (its flush): median %.1f us, p5 %.1f, p95 %.1f\n",
                af.median / 1e3, af.p5 / 1e3, af.p95 / 1e3);
    gpuchrono::Series lazy("lazy");
    for (int i = 0; i < 100; ++i) {
        ScopedTimer<KernelPolicy> t(lazy, stream, KernelPolicy::Options{.wait_at_stop = false});
        kernels::launch_spin(Duration::from_us(10), stream);
    }
    const auto t0 = Clock::now();
    const auto durations = lazy.durations();
    std::printf("  100 lazy scopes of spin(10 us) resolved in %.2f ms in all (one flush), median %.0f ns\n", ns_since(t0) / 1e6,
                spread(durations.empty() ? std::vector<double>{0} : [&] {
                    std::vector<double> v;
                    for (Duration x : durations) v.push_back(x.ns());
                    return v;
                }()).median);
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc == 3 && std::strcmp(argv[1], "--launch-cost") == 0) return launch_cost_child(argv[2]);
    if (argc == 2 && std::strcmp(argv[1], "--raw-cupti") == 0) return raw_cupti_child();
    if (argc == 2 && std::strcmp(argv[1], "--taken") == 0) return taken_child();
    const bool accuracy_only = argc == 2 && std::strcmp(argv[1], "--accuracy-only") == 0;
    if (argc > 2 || (argc == 2 && !accuracy_only)) {
        std::fprintf(stderr, "usage: bench_kernel_policy [--accuracy-only]\n");
        return 2;
    }
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("bench_kernel_policy: no CUDA device (%s); run it on a GPU machine\n", why->c_str());
        return 2;
    }
    print_device_banner("bench_kernel_policy");
    cudaStream_t stream = nullptr;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "creating the benchmark stream");
    warm(stream);
    if (!accuracy_only) launch_costs(argv[0]);  // in child processes: this one has not loaded CUPTI yet
    if (!KernelPolicy::available()) {
        std::printf("KernelPolicy unavailable: %s\n", KernelPolicy::unavailable_reason().c_str());
        return 1;
    }
    // CUPTI held for the whole run: the figures are those of scopes under a CuptiHold (bench_cupti_hold gives the
    // cost of a scope that sets CUPTI up itself).
    gpuchrono::CuptiHold hold;
    accuracy(stream);
    if (accuracy_only) return 0;
    stop_costs(stream);
    gpu_state_read_cost(stream);
    print_sm_clock("after the tables");
    std::printf("\n[5] CUPTI without gpuchrono (a child process): the floor and what each part costs a launch call\n");
    std::fflush(stdout);
    if (std::system((std::string(argv[0]) + " --raw-cupti").c_str()) != 0) std::printf("  the child failed\n");
    std::printf("\n[4] another CUPTI subscriber in the process (a child process subscribes first)\n");
    std::fflush(stdout);
    if (std::system((std::string(argv[0]) + " --taken").c_str()) != 0) std::printf("  the child failed\n");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_kernel_policy: %s\n", e.what());
    return 1;
}
