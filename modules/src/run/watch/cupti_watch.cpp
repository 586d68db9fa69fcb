// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// libgpuchrono_run_watch.so: what `gpuchrono run` preloads into the program (LD_PRELOAD) beside its injection
// library, so that another CUPTI user inside the program is named rather than left to fail on its own. CUPTI has
// one subscriber slot per process and the injection holds it; a profiler the program starts itself (torch.profiler
// through Kineto, a tool's own cuptiSubscribe) is refused, and on an H100 torch.profiler then traced none of the
// kernels it profiled while the run's report stayed complete. This library puts itself in front of cuptiSubscribe:
// it calls the caller's CUPTI, and when that refuses with CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED it tells
// the injection who asked, which says so at once and in the report.
//
// It depends on nothing but the C library and the dynamic loader, and does nothing else: a process without CUPTI,
// or without the injection (a child not followed), never reaches it or finds no one to tell.
#include <cupti.h>

#include <dlfcn.h>
#include <link.h>

#include <cstring>

namespace {

using Subscribe = CUptiResult (*)(CUpti_SubscriberHandle*, CUpti_CallbackFunc, void*);
using Tell = void (*)(const char*);

// The cuptiSubscribe the caller would have called: from the caller's own dependencies (a library loaded with
// RTLD_LOCAL, such as torch's extension, keeps its CUPTI out of the global scope, where RTLD_NEXT looks), else the
// next one in the global scope.
Subscribe real_subscribe(const void* caller) {
    Subscribe found = nullptr;
    Dl_info info{};
    if (caller && dladdr(caller, &info) != 0 && info.dli_fname) {
        if (void* handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) {
            found = reinterpret_cast<Subscribe>(dlsym(handle, "cuptiSubscribe"));
            dlclose(handle);
        }
    }
    if (!found || found == &cuptiSubscribe) found = reinterpret_cast<Subscribe>(dlsym(RTLD_NEXT, "cuptiSubscribe"));
    return found == &cuptiSubscribe ? nullptr : found;
}

// The injection's entry point for it, if the injection records this process (it is loaded by CUDA, privately).
Tell injection_ear() {
    if (void* handle = dlopen("libgpuchrono_inject.so", RTLD_LAZY | RTLD_NOLOAD)) {
        auto tell = reinterpret_cast<Tell>(dlsym(handle, "gpuchrono_run_other_cupti_user"));
        dlclose(handle);
        if (tell) return tell;
    }
    return reinterpret_cast<Tell>(dlsym(RTLD_DEFAULT, "gpuchrono_run_other_cupti_user"));
}

}  // namespace

extern "C" __attribute__((visibility("default"))) CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* subscriber,
                                                                           CUpti_CallbackFunc callback, void* userdata) {
    const void* caller = __builtin_return_address(0);
    const Subscribe real = real_subscribe(caller);
    if (!real) return CUPTI_ERROR_NOT_INITIALIZED;  // no CUPTI in the caller's reach: as CUPTI's own stub answers
    const CUptiResult result = real(subscriber, callback, userdata);
    if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        Dl_info info{};
        const char* who = "(unknown caller)";
        if (dladdr(caller, &info) != 0 && info.dli_fname && *info.dli_fname) {
            who = info.dli_fname;
            if (const char* slash = std::strrchr(who, '/')) who = slash + 1;
        }
        if (const Tell tell = injection_ear()) tell(who);
    }
    return result;
}
