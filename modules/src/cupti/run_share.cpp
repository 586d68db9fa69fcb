// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "run_share.hpp"

#include "activity_buffers.hpp"
#include "launch_subscriber.hpp"
#include "run_share_abi.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gpuchrono::cupti {

namespace {

std::atomic<const gpuchrono_run_share_v1*> attached{nullptr};

void forward_buffer(void*, const std::uint8_t* buffer, std::size_t valid, std::size_t dropped) {
    deliver_activity_buffer(buffer, valid, dropped);
}

void forward_api_call(void*, int domain, std::uint32_t cbid, const void* data) {
    launch_api_callback(nullptr, static_cast<CUpti_CallbackDomain>(domain), cbid, data);
}

// Static: the injection may call into it until detach() has returned, and the library is never unloaded before.
const gpuchrono_run_client_v1 client{sizeof(gpuchrono_run_client_v1), nullptr, forward_buffer, forward_api_call};

CUptiResult enable_through_run(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    const gpuchrono_run_share_v1* share = attached.load();
    if (!share) return CUPTI_ERROR_NOT_INITIALIZED;
    return static_cast<CUptiResult>(share->enable_callback(static_cast<int>(domain), cbid));
}

// The injection's entry point, if it is loaded. The driver loads it RTLD_LOCAL, so it is looked up by its soname
// too (a handle that is never closed: the injection stays loaded for the process's life anyway).
gpuchrono_run_share_fn find_entry_point() {
    if (void* f = dlsym(RTLD_DEFAULT, run_share::entry_point)) return reinterpret_cast<gpuchrono_run_share_fn>(f);
    for (const char* name : {run_share::injection_soname, static_cast<const char*>(std::getenv("CUDA_INJECTION64_PATH"))}) {
        if (!name || !*name) continue;
        if (void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD))
            if (void* f = dlsym(handle, run_share::entry_point)) return reinterpret_cast<gpuchrono_run_share_fn>(f);
    }
    return nullptr;
}

// The file a function was loaded from.
std::string file_of(const void* function) {
    Dl_info info{};
    if (function && dladdr(function, &info) != 0 && info.dli_fname) return info.dli_fname;
    return "another CUPTI";
}

// The injection is named to load when CUDA starts (`gpuchrono run` names it; it clears the variable once loaded,
// unless it follows children).
bool injection_pending() {
    const char* path = std::getenv("CUDA_INJECTION64_PATH");
    return path && std::strstr(path, "gpuchrono_inject") != nullptr;
}

}  // namespace

RunShare attach_to_run(const CuptiLibrary& lib, ActivityStore& store, std::string& why) noexcept {
    gpuchrono_run_share_fn entry = find_entry_point();
    if (!entry && injection_pending()) {
        int devices = 0;
        (void)cudaGetDeviceCount(&devices);  // starts CUDA, which loads the injection
        entry = find_entry_point();
    }
    const gpuchrono_run_share_v1* share = entry ? entry(run_share::version) : nullptr;
    if (!share || share->struct_size < sizeof(gpuchrono_run_share_v1)) return RunShare::no_run;
    if (share->cupti_get_next_record != reinterpret_cast<const void*>(lib.activity_get_next_record)) {
        why = "gpuchrono run's injection records with " + file_of(share->cupti_get_next_record) + ", but gpuchrono in "
              "the program loaded " + lib.path + ": it cannot read the injection's CUPTI records, nor take CUPTI "
              "while the injection holds it. Use a gpuchrono built for the same CUDA major as gpuchrono run, and "
              "leave GPUCHRONO_CUPTI unset under it";
        return RunShare::refused;
    }
    deliver_to(lib, store);  // before attaching: the first buffer may come at once
    switch (share->attach(&client)) {
        case gpuchrono_run_attached:
            attached.store(share);
            share_launches(lib, enable_through_run);
            return RunShare::attached;
        case gpuchrono_run_client_taken:
            why = "gpuchrono run's injection shares its CUPTI subscription with another copy of gpuchrono in this "
                  "process already (one at a time): this one cannot take CUPTI while that one holds it";
            return RunShare::refused;
        default:
            return RunShare::no_run;  // the injection records nothing: gpuchrono tries CUPTI as if it were absent
    }
}

void detach_from_run() noexcept {
    if (const gpuchrono_run_share_v1* share = attached.exchange(nullptr)) share->detach();
}

bool sharing_run() noexcept { return attached.load() != nullptr; }

CUptiResult flush_all_activity(const CuptiLibrary& lib, std::uint32_t flags) noexcept {
    if (const gpuchrono_run_share_v1* share = attached.load()) return static_cast<CUptiResult>(share->flush_all(flags));
    return lib.activity_flush_all(flags);
}

std::size_t run_collect_dropped() noexcept {
    const gpuchrono_run_share_v1* share = attached.load();
    return share ? share->collect_dropped() : 0;
}

}  // namespace gpuchrono::cupti
