// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A shared library the history opens only when it is used: SQLite when a database file is opened, libpq when a
// "postgresql://" location is. The `gpuchrono` command then starts on a machine that has neither (a GPU node
// running `gpuchrono run` needs no database client), and only the history's commands ask for them.
#pragma once

#include <string>

namespace gpuchrono::history {

// What to load and what to tell the user when it is missing.
struct LibraryNeed {
    std::string file;             // the soname looked up as the dynamic loader does, e.g. "libpq.so.5"
    std::string override_env;     // an environment variable naming another file to load instead ("" for none)
    std::string needed_for;       // e.g. "a history database on PostgreSQL"
    std::string debian_package;   // e.g. "libpq5"
};

class LoadedLibrary {
public:
    // Loads the library (the override's file when that variable is set and not empty). Throws HistoryError in one
    // sentence: which library, what it is needed for, the package that holds it and the loader's own reason.
    explicit LoadedLibrary(const LibraryNeed& need);
    ~LoadedLibrary();
    LoadedLibrary(const LoadedLibrary&) = delete;
    LoadedLibrary& operator=(const LoadedLibrary&) = delete;

    // The function `name`, as the type of its declaration in the library's header (decltype(&::name)); throws
    // HistoryError naming the library and the function when it lacks it (an older version than the history needs).
    template <class Function>
    Function function(const char* name) const {
        return reinterpret_cast<Function>(address(name));
    }

    const std::string& file() const noexcept { return file_; }

private:
    void* address(const char* name) const;

    LibraryNeed need_;
    std::string file_;
    void* handle_ = nullptr;
};

}  // namespace gpuchrono::history
