// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/gpu/driver_probe.hpp>

#include <cuda.h>  // types and constants only: the functions are found at run time, libcuda is never linked
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace gpuchrono {

const char* to_string(ModuleLoading m) noexcept {
    switch (m) {
        case ModuleLoading::unknown: return "unknown";
        case ModuleLoading::eager: return "eager";
        case ModuleLoading::lazy: return "lazy";
    }
    return "unknown";
}

ModuleLoading module_loading_mode() noexcept {
    static const ModuleLoading mode = [] {
        void* fn = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        // 11070: the version that introduced cuModuleGetLoadingMode.
        if (cudaGetDriverEntryPointByVersion("cuModuleGetLoadingMode", &fn, 11070, cudaEnableDefault, &found) !=
                cudaSuccess ||
            found != cudaDriverEntryPointSuccess || fn == nullptr) {
            (void)cudaGetLastError();
            return ModuleLoading::unknown;
        }
        CUmoduleLoadingMode m{};
        if (reinterpret_cast<CUresult (*)(CUmoduleLoadingMode*)>(fn)(&m) != CUDA_SUCCESS) return ModuleLoading::unknown;
        return m == CU_MODULE_LAZY_LOADING ? ModuleLoading::lazy
               : m == CU_MODULE_EAGER_LOADING ? ModuleLoading::eager
                                              : ModuleLoading::unknown;
    }();
    return mode;
}

namespace {

struct Driver {
    CUresult (*device_count)(int*);
    CUresult (*device_get)(CUdevice*, int);
    CUresult (*primary_state)(CUdevice, unsigned*, int*);
};

std::atomic<const Driver*> loaded_driver{nullptr};
std::atomic<bool> driver_unusable{false};
// dlpi_adds (objects ever loaded) when the last scan found no driver: while it is unchanged, none was loaded.
std::atomic<unsigned long long> adds_without_driver{0};

unsigned long long objects_ever_loaded() noexcept {
    unsigned long long adds = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
            *static_cast<unsigned long long*>(out) = info->dlpi_adds;
            return 1;
        },
        &adds);
    return adds;
}

bool driver_library_loaded() noexcept {
    bool found = false;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
            if (info->dlpi_name && std::strstr(info->dlpi_name, "libcuda.so")) {
                *static_cast<bool*>(out) = true;
                return 1;
            }
            return 0;
        },
        &found);
    return found;
}

const Driver* find_driver() noexcept {
    if (const Driver* d = loaded_driver.load(std::memory_order_acquire)) return d;
    if (driver_unusable.load(std::memory_order_relaxed)) return nullptr;
    const unsigned long long adds = objects_ever_loaded();
    if (adds == adds_without_driver.load(std::memory_order_relaxed) || !driver_library_loaded()) {
        adds_without_driver.store(adds, std::memory_order_relaxed);
        return nullptr;
    }
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    if (const Driver* d = loaded_driver.load(std::memory_order_acquire)) return d;
    // RTLD_NOLOAD: a handle to the copy the CUDA runtime loaded, never a load of our own.
    void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!handle) handle = dlopen("libcuda.so", RTLD_NOW | RTLD_NOLOAD);
    Driver d{};
    if (handle) {
        d.device_count = reinterpret_cast<decltype(d.device_count)>(dlsym(handle, "cuDeviceGetCount"));
        d.device_get = reinterpret_cast<decltype(d.device_get)>(dlsym(handle, "cuDeviceGet"));
        d.primary_state = reinterpret_cast<decltype(d.primary_state)>(dlsym(handle, "cuDevicePrimaryCtxGetState"));
    }
    if (!d.device_count || !d.device_get || !d.primary_state) {
        driver_unusable.store(true, std::memory_order_relaxed);
        return nullptr;
    }
    const Driver* kept = new Driver(d);  // lives as long as the process, like the library it points into
    loaded_driver.store(kept, std::memory_order_release);
    return kept;
}

}  // namespace

int active_primary_contexts() noexcept {
    const Driver* d = find_driver();
    if (!d) return driver_unusable.load(std::memory_order_relaxed) ? -1 : 0;
    int devices = 0;
    // CUDA_ERROR_NOT_INITIALIZED: nobody called cuInit, so no context exists.
    if (d->device_count(&devices) != CUDA_SUCCESS) return 0;
    int active_count = 0;
    for (int i = 0; i < devices; ++i) {
        CUdevice device{};
        unsigned flags = 0;
        int active = 0;
        if (d->device_get(&device, i) == CUDA_SUCCESS && d->primary_state(device, &flags, &active) == CUDA_SUCCESS &&
            active)
            ++active_count;
    }
    return active_count;
}

}  // namespace gpuchrono
