// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How gpuchrono's library, inside a program that `gpuchrono run` records, shares the injection's CUPTI subscription
// instead of taking its own: CUPTI allows one subscriber and one pair of activity-buffer callbacks per process,
// and inside a run process the injection (run/inject/injection.cpp) holds both from CUDA's start. The injection
// exports gpuchrono_run_share(); the library (run_share.cpp) finds it and attaches a client, which then receives
// every activity buffer the injection is handed and the launch-API callbacks it asks for. Internal.
//
// Plain C types only, versioned, and only ever extended: the library in the program and the injection may come from
// different builds of gpuchrono (a Python wheel's library under a toolkit build's `gpuchrono run`).
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {

// What the library hands the injection; it must stay valid (and its code loaded) until detach() has returned.
struct gpuchrono_run_client_v1 {
    std::size_t struct_size;  // sizeof(gpuchrono_run_client_v1)
    void* context;
    // Every buffer CUPTI completes, before the injection frees it: on CUPTI's thread, or inside the
    // cuptiActivityFlushAll of whichever thread flushes. `dropped`: the records CUPTI counted as dropped with it.
    // No lock of the injection's is held meanwhile.
    void (*buffer_completed)(void* context, const std::uint8_t* buffer, std::size_t valid, std::size_t dropped);
    // The callbacks of the runtime- and driver-API ids the client enabled (enable_callback), at entry and at exit, on
    // the calling thread: CUPTI's (domain, cbid, CUpti_CallbackData*).
    void (*api_callback)(void* context, int domain, std::uint32_t cbid, const void* callback_data);
};

enum gpuchrono_run_attach_result {
    gpuchrono_run_attached = 0,
    gpuchrono_run_not_recording = 1,  // the injection holds no subscription (another CUPTI user held it; a forked child)
    gpuchrono_run_client_taken = 2,   // another client is attached (a second copy of gpuchrono in the process)
};

struct gpuchrono_run_share_v1 {
    std::size_t struct_size;  // sizeof(gpuchrono_run_share_v1) of the injection's build
    // One client at a time. Returns a gpuchrono_run_attach_result.
    int (*attach)(const gpuchrono_run_client_v1* client);
    // Ends the client's attachment: returns once no call into the client is in progress on another thread, with the
    // callbacks it enabled disabled again unless the injection uses them itself. From then on the client may go.
    void (*detach)(void);
    // Enables a runtime- or driver-API callback on the injection's subscriber and forwards it to the client; returns
    // cuptiEnableCallback's result.
    int (*enable_callback)(int domain, std::uint32_t cbid);
    // Reads (and so resets) CUPTI's count of records dropped outside any buffer, counts it in the run's report, and
    // returns it: the count CUPTI keeps is one, and both sides must see it.
    std::size_t (*collect_dropped)(void);
    // cuptiActivityGetNextRecord of the CUPTI the injection records with: a client that loaded another CUPTI (of
    // another CUDA major, or another copy) would misread the buffers, and must not attach.
    const void* cupti_get_next_record;
    // cuptiActivityFlushAll(flags), taking turns with the injection's own flushes: a flush that ran beside another
    // thread's could return before the buffers that one took were delivered.
    int (*flush_all)(std::uint32_t flags);
};

// The injection's entry point: the interface of that version, or nullptr if it has none.
using gpuchrono_run_share_fn = const gpuchrono_run_share_v1* (*)(int version);

}  // extern "C"

namespace gpuchrono::run_share {

inline constexpr const char* entry_point = "gpuchrono_run_share";
inline constexpr int version = 1;
// The injection's soname, as the CUDA driver loads it (RTLD_LOCAL: not visible to dlsym(RTLD_DEFAULT, ...)).
inline constexpr const char* injection_soname = "libgpuchrono_inject.so";

}  // namespace gpuchrono::run_share
