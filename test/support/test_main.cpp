// The one main() of every test program. GPU test programs (built with GPUCHRONO_GPU_TEST=1) check for a
// device first: without one they print why and exit 77, which ctest reports as "Skipped", so a run on a
// machine without a GPU shows every skipped GPU suite instead of passing silently.
//
// The framework is compiled into this one TU (the "included" variant): Debian's static Boost.Test library
// carries its own main(), which would clash with this one, and the binaries must run on the GPU machine,
// which has no Boost installed.
#define BOOST_TEST_MODULE gpuchrono
#define BOOST_TEST_NO_MAIN
#include <boost/test/included/unit_test.hpp>

#include <gpuchrono/core/device.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

int main(int argc, char* argv[]) {
#if GPUCHRONO_GPU_TEST
    // Listing the suites needs no device (scripts/gpu-run lists them to run each in its own process).
    const bool only_lists = std::any_of(argv + 1, argv + argc, [](const char* a) {
        return std::strncmp(a, "--list_content", 14) == 0 || std::strncmp(a, "--help", 6) == 0;
    });
    if (auto why = only_lists ? std::nullopt : gpuchrono::no_device_reason()) {
        std::printf("skipped: no CUDA device (%s)\n", why->c_str());
        return 77;
    }
#endif
    return boost::unit_test::unit_test_main(&init_unit_test_suite, argc, argv);
}
