// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A CUPTI that does not match the build is refused with a message, never used: run with GPUCHRONO_CUPTI naming
// fake_cupti (an older API version, or a library without a function the build needs), KernelPolicy must say it is
// unavailable, and why, the words given on the command line among its reason. No GPU needed: CUPTI is loaded and
// checked before any device is touched.
#include <cstdio>
#include <string>

#include <gpuchrono/api.hpp>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::printf("usage: cupti_refused EXPECTED-TEXT...\n");
        return 2;
    }
    if (gpuchrono::KernelPolicy::available()) {
        std::printf("FAILED: KernelPolicy is available with a mismatched CUPTI\n");
        return 1;
    }
    const std::string why = gpuchrono::KernelPolicy::unavailable_reason();
    for (int i = 1; i < argc; ++i) {
        if (why.find(argv[i]) == std::string::npos) {
            std::printf("FAILED: the reason does not say \"%s\": %s\n", argv[i], why.c_str());
            return 1;
        }
    }
    std::printf("refused as expected: %s\n", why.c_str());
    return 0;
}
