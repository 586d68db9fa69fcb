// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The loader behind the history's database clients: a library that is not there, or that lacks a function, is
// refused in one sentence naming it, what needs it and its package; a library that is there gives typed functions.
#include <boost/test/unit_test.hpp>

#include "history/loaded_library.hpp"
#include "history/store.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace gpuchrono::history;

namespace {

std::string refusal(const LibraryNeed& need) {
    try {
        LoadedLibrary library(need);
    } catch (const HistoryError& e) {
        return e.what();
    }
    return "";
}

bool holds(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Sets an environment variable for one test case.
class ScopedVariable {
public:
    ScopedVariable(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
    ~ScopedVariable() { unsetenv(name_); }
    ScopedVariable(const ScopedVariable&) = delete;
    ScopedVariable& operator=(const ScopedVariable&) = delete;

private:
    const char* name_;
};

const LibraryNeed absent{"libgpuchrono-absent-client.so.0", "GPUCHRONO_TEST_ABSENT_CLIENT", "the loader's test",
                         "gpuchrono-absent-client0"};

}  // namespace

BOOST_AUTO_TEST_SUITE(history_loaded_library)

BOOST_AUTO_TEST_CASE(a_missing_library_is_named_with_its_use_and_package) {
    const auto said = refusal(absent);
    BOOST_TEST_MESSAGE(said);
    BOOST_TEST(holds(said, "cannot load libgpuchrono-absent-client.so.0, which the loader's test needs"));
    BOOST_TEST(holds(said, "install gpuchrono-absent-client0 (Debian)"));
    BOOST_TEST(holds(said, "or set GPUCHRONO_TEST_ABSENT_CLIENT to the library's file"));
    BOOST_TEST(holds(said, "libgpuchrono-absent-client.so.0: cannot open shared object file"));  // dlerror's text
}

BOOST_AUTO_TEST_CASE(the_override_variable_names_the_file_loaded) {
    const ScopedVariable override_file("GPUCHRONO_TEST_ABSENT_CLIENT", "/nonexistent/libother.so.1");
    const auto said = refusal(absent);
    BOOST_TEST(holds(said, "cannot load /nonexistent/libother.so.1 (named by GPUCHRONO_TEST_ABSENT_CLIENT)"));
}

BOOST_AUTO_TEST_CASE(a_library_that_is_there_gives_typed_functions) {
    // The C library is always there; through the override, as a user pointing at their own build would.
    const ScopedVariable override_file("GPUCHRONO_TEST_ABSENT_CLIENT", "libc.so.6");
    const LoadedLibrary library(absent);
    BOOST_TEST(library.file() == "libc.so.6");
    const auto length = library.function<decltype(&::strlen)>("strlen");
    BOOST_TEST(length("seven c") == 7u);
}

BOOST_AUTO_TEST_CASE(a_missing_function_is_named) {
    const ScopedVariable override_file("GPUCHRONO_TEST_ABSENT_CLIENT", "libc.so.6");
    const LoadedLibrary library(absent);
    try {
        (void)library.function<void (*)()>("gpuchrono_no_such_function");
        BOOST_FAIL("a function the library lacks was found");
    } catch (const HistoryError& e) {
        const std::string said = e.what();
        BOOST_TEST_MESSAGE(said);
        BOOST_TEST(holds(said, "libc.so.6 has no function gpuchrono_no_such_function, which the loader's test needs"));
        BOOST_TEST(holds(said, "install a current gpuchrono-absent-client0"));
    }
}

BOOST_AUTO_TEST_SUITE_END()
