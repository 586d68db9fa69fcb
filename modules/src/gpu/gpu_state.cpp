// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "core/switch_setting.hpp"
#include <gpuchrono/gpu/gpu_state.hpp>

#include "tracked_devices.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

// The few NVML declarations used, spelled as in nvml.h (not available on the build machines).
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_INSUFFICIENT_SIZE = 7;
constexpr int NVML_CLOCK_SM = 1;
struct nvmlProcessInfo_v2_t {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};

struct Nvml {
    nvmlReturn_t (*init)() = nullptr;
    const char* (*error_string)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*handle_by_pci_bus_id)(const char*, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*clock_info)(nvmlDevice_t, int, unsigned*) = nullptr;
    nvmlReturn_t (*max_clock_info)(nvmlDevice_t, int, unsigned*) = nullptr;
    nvmlReturn_t (*clock_event_reasons)(nvmlDevice_t, unsigned long long*) = nullptr;
    nvmlReturn_t (*compute_processes)(nvmlDevice_t, unsigned*, nvmlProcessInfo_v2_t*) = nullptr;
    std::string error;  // empty: loaded and initialised

    std::string describe(nvmlReturn_t r) const {
        return error_string ? std::string(error_string(r)) : "NVML error " + std::to_string(r);
    }
};

template <class F>
void find(void* library, F& fn, const char* name) {
    fn = reinterpret_cast<F>(dlsym(library, name));
}

Nvml* load_nvml() {
    return [] {
        auto* n = new Nvml();  // never destroyed: NVML stays loaded for the process
        void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            const char* why = dlerror();
            n->error = std::string("dlopen(\"libnvidia-ml.so.1\") failed: ") + (why ? why : "no reason given");
            return n;
        }
        find(library, n->init, "nvmlInit_v2");
        find(library, n->error_string, "nvmlErrorString");
        find(library, n->handle_by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
        find(library, n->clock_info, "nvmlDeviceGetClockInfo");
        find(library, n->max_clock_info, "nvmlDeviceGetMaxClockInfo");
        find(library, n->clock_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
        if (!n->clock_event_reasons) find(library, n->clock_event_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
        find(library, n->compute_processes, "nvmlDeviceGetComputeRunningProcesses_v3");
        if (!n->compute_processes) find(library, n->compute_processes, "nvmlDeviceGetComputeRunningProcesses_v2");
        if (!n->init || !n->handle_by_pci_bus_id) {
            n->error = "libnvidia-ml.so.1 lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
            return n;
        }
        if (const nvmlReturn_t r = n->init(); r != NVML_SUCCESS) n->error = "nvmlInit_v2 failed: " + n->describe(r);
        return n;
    }();
}

// NVML is loaded and initialised once per process, on a thread of the library's started when the process loads
// it, so that nvmlInit is over before the program's own warm-up: made by the first timer, just before its
// interval, it slowed the user's next launch of each kernel by 4-7 us on the H100 whatever the library launched
// between (docs/pitfalls.md "The first scope of a process"). GPUCHRONO_GPU_STATE=0 keeps it from
// starting. A fork waits for it (pthread_atfork), so a child never inherits a half-made NVML or a held lock.
std::mutex nvml_mutex;
Nvml* nvml_loaded = nullptr;

const Nvml& nvml() {
    std::lock_guard lock(nvml_mutex);
    if (!nvml_loaded) nvml_loaded = load_nvml();
    return *nvml_loaded;
}

struct EarlyNvml {
    std::thread loader;
    EarlyNvml() {
        try {
            if (!gpu_state_enabled()) return;
            pthread_atfork([] { nvml_mutex.lock(); }, [] { nvml_mutex.unlock(); }, [] { nvml_mutex.unlock(); });
            loader = std::thread([] { (void)nvml(); });
        } catch (...) {
            // No thread to be had: the first read loads NVML instead, as before.
        }
    }
    ~EarlyNvml() {
        if (loader.joinable()) loader.join();
    }
    EarlyNvml(const EarlyNvml&) = delete;
    EarlyNvml& operator=(const EarlyNvml&) = delete;
};

// NVML's handle of a CUDA device, found through its PCI bus id (CUDA_VISIBLE_DEVICES renumbers CUDA devices,
// not PCI addresses). Cached per device.
std::optional<nvmlDevice_t> handle_of(const Nvml& n, int device, std::string& why) {
    static std::mutex mutex;
    static std::map<int, nvmlDevice_t>* handles = new std::map<int, nvmlDevice_t>();
    std::lock_guard lock(mutex);
    if (auto it = handles->find(device); it != handles->end()) return it->second;
    char bus_id[32] = {};
    if (const cudaError_t e = cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device); e != cudaSuccess) {
        (void)cudaGetLastError();
        why = std::string("cudaDeviceGetPCIBusId failed: ") + cudaGetErrorName(e);
        return std::nullopt;
    }
    nvmlDevice_t handle = nullptr;
    if (const nvmlReturn_t r = n.handle_by_pci_bus_id(bus_id, &handle); r != NVML_SUCCESS) {
        why = "nvmlDeviceGetHandleByPciBusId_v2(\"" + std::string(bus_id) + "\") failed: " + n.describe(r);
        return std::nullopt;
    }
    handles->emplace(device, handle);
    return handle;
}

// Compute processes besides this one. This process has a context on the device (it is timing work there), so
// it is one of those listed; in a container NVML lists host PIDs, which is why it is not looked up by getpid().
std::optional<unsigned> other_processes(const Nvml& n, nvmlDevice_t handle, std::vector<unsigned>& pids) {
    if (!n.compute_processes) return std::nullopt;
    std::array<nvmlProcessInfo_v2_t, 64> infos{};
    unsigned count = static_cast<unsigned>(infos.size());
    const nvmlReturn_t r = n.compute_processes(handle, &count, infos.data());
    if (r != NVML_SUCCESS && r != NVML_ERROR_INSUFFICIENT_SIZE) return std::nullopt;
    // On INSUFFICIENT_SIZE NVML says how many there are and fills none; the count is still right.
    if (r == NVML_SUCCESS)
        for (unsigned i = 0; i < count && i < infos.size(); ++i) pids.push_back(infos[i].pid);
    return count == 0 ? 0u : count - 1;
}

std::array<std::atomic<long long>, detail::tracked_devices> last_read_ns{};  // due_clock_ns() of the last read; 0: never
std::atomic<bool> unavailable_said{false};

// The clock of the due check, which every checked scope makes: the kernel's tick-granular monotonic clock
// (1-4 ms steps against a 250 ms interval) is a plain memory read, where steady_clock::now() cost 46 ns on the
// H100 VM (bench_event_policy_cost [1]), about 0.015x of a raw event pair.
long long due_clock_ns() noexcept {
    timespec t{};
    if (clock_gettime(CLOCK_MONOTONIC_COARSE, &t) != 0)
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    return static_cast<long long>(t.tv_sec) * 1'000'000'000LL + t.tv_nsec;
}

long long now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The latest read's other processes, per device, for the readings between reads. `others_known` is the fast
// path of every reading: 0 when the latest read listed none.
std::array<std::atomic<int>, detail::tracked_devices> others_known{};
std::mutex remembered_mutex;
std::map<int, std::pair<long long, OtherProcesses>>* remembered = new std::map<int, std::pair<long long, OtherProcesses>>();

void remember_processes(int device, const GpuState& s) {
    if (!detail::is_tracked_device(device)) return;
    OtherProcesses o;
    o.device = device;
    const unsigned self = static_cast<unsigned>(getpid());
    o.own_pid_listed = std::find(s.process_pids.begin(), s.process_pids.end(), self) != s.process_pids.end();
    for (const unsigned pid : s.process_pids)
        if (pid != self) o.pids.push_back(pid);
    const bool any = s.other_processes.value_or(0) > 0 && !o.pids.empty();
    std::lock_guard lock(remembered_mutex);
    (*remembered)[device] = {now_ns(), std::move(o)};
    others_known[static_cast<std::size_t>(device)].store(any ? 1 : 0, std::memory_order_relaxed);
}

}  // namespace

std::optional<OtherProcesses> recent_other_processes(int device) noexcept {
    try {
        if (!detail::is_tracked_device(device) || others_known[static_cast<std::size_t>(device)].load(std::memory_order_relaxed) == 0)
            return std::nullopt;
        std::lock_guard lock(remembered_mutex);
        const auto it = remembered->find(device);
        if (it == remembered->end()) return std::nullopt;
        const double ago_ns = static_cast<double>(now_ns() - it->second.first);
        if (ago_ns > other_processes_memory.ns()) return std::nullopt;
        OtherProcesses o = it->second.second;
        o.read_ms_ago = ago_ns / 1e6;
        return o;
    } catch (...) {
        return std::nullopt;  // out of memory: the finding is skipped, timing goes on
    }
}

GpuState read_gpu_state(int device) {
    GpuState s;
    s.device = device;
    const Nvml& n = nvml();
    if (!n.error.empty()) {
        s.nvml_loaded = false;
        s.nvml_error = n.error;
        return s;
    }
    std::string why;
    const std::optional<nvmlDevice_t> handle = handle_of(n, device, why);
    if (!handle) {
        s.nvml_loaded = false;
        s.nvml_error = why;
        return s;
    }
    unsigned mhz = 0;
    if (n.clock_info && n.clock_info(*handle, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS) s.sm_clock_mhz = mhz;
    if (n.max_clock_info && n.max_clock_info(*handle, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS) s.max_sm_clock_mhz = mhz;
    unsigned long long reasons = 0;
    if (n.clock_event_reasons && n.clock_event_reasons(*handle, &reasons) == NVML_SUCCESS) s.clock_event_reasons = reasons;
    s.other_processes = other_processes(n, *handle, s.process_pids);
    remember_processes(device, s);
    return s;
}

namespace {
constexpr int unset = -1;
std::atomic<int> chosen{unset};  // set_gpu_state_enabled's last value
}  // namespace

bool gpu_state_enabled() noexcept {
    static const bool from_environment = detail::switch_from_environment("GPUCHRONO_GPU_STATE", "GPU-state reads (NVML)");
    const int c = chosen.load(std::memory_order_relaxed);
    return c != unset ? c != 0 : from_environment;
}

void set_gpu_state_enabled(bool enabled) noexcept { chosen.store(enabled ? 1 : 0, std::memory_order_relaxed); }

namespace {
EarlyNvml early_nvml;  // after `chosen`, which gpu_state_enabled reads, in this file's order of initialisation
}  // namespace

std::optional<GpuState> sample_gpu_state(int device) noexcept {
    try {
        if (!detail::is_tracked_device(device) || !gpu_state_enabled()) return std::nullopt;
        const long long now = due_clock_ns();
        long long last = last_read_ns[static_cast<std::size_t>(device)].load(std::memory_order_relaxed);
        if (last != 0 && now - last < static_cast<long long>(gpu_state_interval.ns())) return std::nullopt;
        // One thread wins the read; the others skip it.
        if (!last_read_ns[static_cast<std::size_t>(device)].compare_exchange_strong(last, now, std::memory_order_relaxed))
            return std::nullopt;
        GpuState s = read_gpu_state(device);
        if (!s.nvml_loaded && unavailable_said.exchange(true)) return std::nullopt;
        return s;
    } catch (...) {
        return std::nullopt;  // out of memory building a message: the check is skipped, timing goes on
    }
}

void reset_gpu_state_sampling() noexcept {
    for (auto& last : last_read_ns) last.store(0, std::memory_order_relaxed);
}

}  // namespace gpuchrono
