// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A MetricsScope that cannot profile throws a message saying why and what to do, and nothing crashes. Run with
// the expected words on the command line (each must be in the message); with --skip-with-device first, it exits
// 77 (skipped) on a machine that has a CUDA device (the case it checks is "no device"). The environment picks
// the case: GPUCHRONO_CUPTI naming fake_profiler_cupti and FAKE_CUPTI_PROFILER_RESULT its answer.
#include <gpuchrono/api.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

int main(int argc, char** argv) {
    int first = 1;
    if (argc > 1 && std::strcmp(argv[1], "--skip-with-device") == 0) {
        first = 2;
        if (!gpuchrono::no_device_reason()) {
            std::printf("skipped: this machine has a CUDA device, and the case is 'no device'\n");
            return 77;
        }
    }
    if (argc <= first) {
        std::printf("usage: metrics_refused [--skip-with-device] EXPECTED-TEXT...\n");
        return 2;
    }
    std::string why;
    try {
        gpuchrono::metrics::MetricsScope scope({"memory"});
        std::printf("FAILED: the scope opened\n");
        return 1;
    } catch (const std::exception& e) {
        why = e.what();
    }
    for (int i = first; i < argc; ++i) {
        if (why.find(argv[i]) == std::string::npos) {
            std::printf("FAILED: the reason does not say \"%s\": %s\n", argv[i], why.c_str());
            return 1;
        }
    }
    std::printf("refused as expected: %s\n", why.c_str());
    return 0;
}
