// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cupti_library.hpp"

#include "cupti/toolkit.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>
#include <sys/stat.h>

namespace gpuchrono::cupti {

namespace {

constexpr const char* soname = toolkit::cupti_soname;

bool is_directory(const std::string& path) {
    struct stat s {};
    return ::stat(path.c_str(), &s) == 0 && S_ISDIR(s.st_mode);
}

// toolkit::cupti_wheel_folder under each ancestor of the folder of the binary holding this code, where it exists:
// a wheel's extension module lives in site-packages/gpuchrono/, NVIDIA's CUPTI wheel in site-packages/nvidia/.
std::vector<std::string> wheel_folders() {
    std::vector<std::string> out;
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&wheel_folders), &info) == 0 || !info.dli_fname) return out;
    std::string dir(info.dli_fname);
    for (int up = 0; up < 3; ++up) {
        const auto slash = dir.find_last_of('/');
        if (slash == std::string::npos || slash == 0) break;
        dir.resize(slash);
        const std::string folder = dir + "/" + toolkit::cupti_wheel_folder;
        if (is_directory(folder)) out.push_back(folder);
    }
    return out;
}

template <class F>
bool resolve(void* library, F& fn, const char* name, std::string& missing) {
    fn = reinterpret_cast<F>(dlsym(library, name));
    if (!fn) missing += std::string(missing.empty() ? "" : ", ") + name;
    return fn != nullptr;
}

CuptiLibrary* load() {
    auto* lib = new CuptiLibrary();  // never destroyed: CUPTI stays loaded (its threads call back into it)
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("GPUCHRONO_CUPTI"); env && *env) {
        const std::string given(env);
        candidates.push_back(is_directory(given) ? given + "/" + soname : given);
    }
    if (void* loaded = dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
        dlclose(loaded);  // only a probe: the loop below opens it again, counted once
        candidates.push_back(soname);
    }
    for (const std::string& dir : wheel_folders()) candidates.push_back(dir + "/" + soname);
    for (const char* dir : toolkit::cupti_folders) candidates.push_back(std::string(dir) + "/" + soname);
    candidates.push_back(soname);  // the dynamic loader's search path

    void* handle = nullptr;
    for (const std::string& c : candidates) {
        handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
        const std::string shown = c == soname ? std::string(soname) + " (dynamic loader path)" : c;
        if (handle) {
            lib->path = c;
            lib->handle = handle;
            lib->searched.push_back(shown + ": loaded");
            break;
        }
        const char* why = dlerror();
        lib->searched.push_back(shown + ": " + (why ? why : "not found"));
    }
    if (!handle) {
        lib->error = std::string(soname) + " (the CUPTI of CUDA " + std::to_string(toolkit::cuda_major) +
                     ", which this gpuchrono was built with) could not be loaded; searched: ";
        for (std::size_t i = 0; i < lib->searched.size(); ++i) lib->error += (i ? "; " : "") + lib->searched[i];
        lib->error += ". Set GPUCHRONO_CUPTI to the library file or its folder";
        return lib;
    }
    std::string missing;
    resolve(handle, lib->get_result_string, "cuptiGetResultString", missing);
    resolve(handle, lib->get_version, "cuptiGetVersion", missing);
    resolve(handle, lib->subscribe, "cuptiSubscribe", missing);
    resolve(handle, lib->unsubscribe, "cuptiUnsubscribe", missing);
    resolve(handle, lib->enable_callback, "cuptiEnableCallback", missing);
    resolve(handle, lib->get_callback_name, "cuptiGetCallbackName", missing);
    resolve(handle, lib->activity_enable, "cuptiActivityEnable", missing);
    resolve(handle, lib->activity_disable, "cuptiActivityDisable", missing);
    resolve(handle, lib->activity_register_callbacks, "cuptiActivityRegisterCallbacks", missing);
    resolve(handle, lib->activity_get_next_record, "cuptiActivityGetNextRecord", missing);
    resolve(handle, lib->activity_get_num_dropped_records, "cuptiActivityGetNumDroppedRecords", missing);
    resolve(handle, lib->activity_flush_all, "cuptiActivityFlushAll", missing);
    resolve(handle, lib->activity_set_attribute, "cuptiActivitySetAttribute", missing);
    resolve(handle, lib->get_timestamp, "cuptiGetTimestamp", missing);
    resolve(handle, lib->get_stream_id_ex, "cuptiGetStreamIdEx", missing);
    if (!missing.empty()) {
        lib->error = lib->path + " lacks " + missing + " (not a CUDA " + std::to_string(toolkit::cuda_major) + " CUPTI?)";
        return lib;
    }
    // Records come in the loaded CUPTI's own layout: one older than the headers built against would be misread.
    std::uint32_t version = 0;
    if (lib->get_version(&version) != CUPTI_SUCCESS) {
        lib->error = lib->path + ": cuptiGetVersion failed, so its record layout is unknown";
    } else if (version < toolkit::cupti_api_version) {
        lib->error = lib->path + " is CUPTI API version " + std::to_string(version) + ", older than the version " +
                     std::to_string(toolkit::cupti_api_version) +
                     " gpuchrono was built with: its activity records would be misread. Use the CUPTI of the toolkit "
                     "gpuchrono was built with (GPUCHRONO_CUPTI names the file or its folder), or rebuild gpuchrono "
                     "against this one";
    }
    lib->api_version = version;
    return lib;
}

}  // namespace

std::string CuptiLibrary::describe(CUptiResult r) const {
    const char* text = nullptr;
    if (get_result_string && get_result_string(r, &text) == CUPTI_SUCCESS && text) return text;
    return "CUPTI error " + std::to_string(static_cast<int>(r));
}

const CuptiLibrary& cupti_library() {
    static const CuptiLibrary* loaded = load();
    return *loaded;
}

}  // namespace gpuchrono::cupti
