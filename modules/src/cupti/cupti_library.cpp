#include "cupti_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <sys/stat.h>

namespace gpuchrono::cupti {

namespace {

constexpr const char* soname = "libcupti.so.13";

bool is_directory(const std::string& path) {
    struct stat s {};
    return ::stat(path.c_str(), &s) == 0 && S_ISDIR(s.st_mode);
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
    for (const char* dir : {"/usr/local/cuda/lib64", "/usr/local/cuda-13.0/targets/x86_64-linux/lib",
                            "/usr/local/cuda/extras/CUPTI/lib64"})
        candidates.push_back(std::string(dir) + "/" + soname);
    candidates.push_back(soname);  // the dynamic loader's search path

    void* handle = nullptr;
    for (const std::string& c : candidates) {
        handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
        const std::string shown = c == soname ? std::string(soname) + " (dynamic loader path)" : c;
        if (handle) {
            lib->path = c;
            lib->searched.push_back(shown + ": loaded");
            break;
        }
        const char* why = dlerror();
        lib->searched.push_back(shown + ": " + (why ? why : "not found"));
    }
    if (!handle) {
        lib->error = "libcupti.so.13 (CUDA 13 CUPTI) could not be loaded; searched: ";
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
    resolve(handle, lib->activity_register_callbacks, "cuptiActivityRegisterCallbacks", missing);
    resolve(handle, lib->activity_get_next_record, "cuptiActivityGetNextRecord", missing);
    resolve(handle, lib->activity_get_num_dropped_records, "cuptiActivityGetNumDroppedRecords", missing);
    resolve(handle, lib->activity_flush_all, "cuptiActivityFlushAll", missing);
    resolve(handle, lib->activity_set_attribute, "cuptiActivitySetAttribute", missing);
    resolve(handle, lib->get_timestamp, "cuptiGetTimestamp", missing);
    resolve(handle, lib->get_stream_id_ex, "cuptiGetStreamIdEx", missing);
    if (!missing.empty()) lib->error = lib->path + " lacks " + missing + " (not a CUDA 13 CUPTI?)";
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
