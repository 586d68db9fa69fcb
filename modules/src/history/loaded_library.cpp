// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "history/loaded_library.hpp"

#include "history/store.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace gpuchrono::history {
namespace {

std::string loader_reason() {
    const char* why = dlerror();
    return why ? why : "no reason given by the dynamic loader";
}

}  // namespace

LoadedLibrary::LoadedLibrary(const LibraryNeed& need) : need_(need), file_(need.file) {
    const char* override_file = need.override_env.empty() ? nullptr : std::getenv(need.override_env.c_str());
    if (override_file && *override_file) file_ = override_file;
    // RTLD_LOCAL: its symbols stay out of the global namespace, where they could stand in for another copy a
    // program linked itself.
    handle_ = dlopen(file_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const bool overridden = file_ != need.file;
        throw HistoryError("cannot load " + file_ + (overridden ? " (named by " + need.override_env + ")" : "") +
                           ", which " + need.needed_for + " needs: install " + need.debian_package +
                           " (Debian) or your system's package of it" +
                           (need.override_env.empty() || overridden
                                ? std::string()
                                : ", or set " + need.override_env + " to the library's file") +
                           " (" + loader_reason() + ")");
    }
}

LoadedLibrary::~LoadedLibrary() {
    if (handle_) dlclose(handle_);
}

void* LoadedLibrary::address(const char* name) const {
    dlerror();  // clears an earlier error, so that the one read below is this lookup's
    void* found = dlsym(handle_, name);
    if (!found)
        throw HistoryError(file_ + " has no function " + name + ", which " + need_.needed_for +
                           " needs: it is older than the history supports; install a current " + need_.debian_package +
                           " (" + loader_reason() + ")");
    return found;
}

}  // namespace gpuchrono::history
