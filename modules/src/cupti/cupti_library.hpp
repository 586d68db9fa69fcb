// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUPTI (libcupti.so.13 or .12, after the toolkit built with: toolkit.hpp), loaded at run time with dlopen
// (as NVML is), so that building and linking gpuchrono needs no CUPTI and a program that never constructs a KernelPolicy never loads it. Internal: CUPTI types stay in src/.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gpuchrono::cupti {

// The CUPTI functions KernelPolicy calls, resolved from the loaded library.
struct CuptiLibrary {
    decltype(&::cuptiGetResultString) get_result_string = nullptr;
    decltype(&::cuptiGetVersion) get_version = nullptr;
    decltype(&::cuptiSubscribe) subscribe = nullptr;
    decltype(&::cuptiUnsubscribe) unsubscribe = nullptr;
    decltype(&::cuptiEnableCallback) enable_callback = nullptr;
    decltype(&::cuptiGetCallbackName) get_callback_name = nullptr;
    decltype(&::cuptiActivityEnable) activity_enable = nullptr;
    decltype(&::cuptiActivityDisable) activity_disable = nullptr;
    decltype(&::cuptiActivityRegisterCallbacks) activity_register_callbacks = nullptr;
    decltype(&::cuptiActivityGetNextRecord) activity_get_next_record = nullptr;
    decltype(&::cuptiActivityGetNumDroppedRecords) activity_get_num_dropped_records = nullptr;
    decltype(&::cuptiActivityFlushAll) activity_flush_all = nullptr;
    decltype(&::cuptiActivitySetAttribute) activity_set_attribute = nullptr;
    decltype(&::cuptiGetTimestamp) get_timestamp = nullptr;
    decltype(&::cuptiGetStreamIdEx) get_stream_id_ex = nullptr;

    void* handle = nullptr;             // dlopen's handle: the metrics collector resolves its own functions from it
    std::string path;                   // the file that was loaded
    std::uint32_t api_version = 0;      // cuptiGetVersion() of the loaded library
    std::vector<std::string> searched;  // every place tried, in order, with why each failed
    std::string error;                  // empty: loaded with every function found

    bool loaded() const noexcept { return error.empty(); }
    // "CUPTI_ERROR_...: description" for a result code.
    std::string describe(CUptiResult r) const;
};

// The process's one load attempt, made on first call (thread-safe, never retried). Searched in order:
// $GPUCHRONO_CUPTI (a file, or a folder holding the soname), a CUPTI of that soname the process already loaded
// (torch's, say: two copies of CUPTI in one process would compete), NVIDIA's CUPTI wheel beside the binary holding
// gpuchrono (toolkit::cupti_wheel_folder in an ancestor folder), toolkit::cupti_folders, then the dynamic loader's
// own path (LD_LIBRARY_PATH, ld.so.cache). A CUPTI older than the headers built against is refused (error).
const CuptiLibrary& cupti_library();

}  // namespace gpuchrono::cupti
