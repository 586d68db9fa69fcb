// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The one main() of every test program; the framework itself is boost_test_framework.cpp, compiled once. GPU test
// programs (built with GPUCHRONO_GPU_TEST=1, target gpuchrono_test_main_gpu) check for a device first: without
// one they print why and exit 77, which ctest reports as "Skipped", so a run on a machine without a GPU shows
// every skipped GPU suite instead of passing silently.
#include <boost/test/unit_test.hpp>

#include <gpuchrono/core/device.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

// Defined by BOOST_TEST_MODULE in boost_test_framework.cpp.
boost::unit_test::test_suite* init_unit_test_suite(int argc, char* argv[]);

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
