// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The body every consumer runs, whichever way it took gpuchrono (headers, module, pkg-config, through an
// intermediate library): the host side and an nvcc/clang-compiled .cu file agree on the entities, the statistics
// pipeline runs, and with a GPU a kernel launched from the .cu file is timed. Exits 0 when all it could check
// passed. Included after the API (import or include), so it names only what a user can.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

gpuchrono::Duration doubled_in_cu(gpuchrono::Duration d);
gpuchrono::Measurement time_spin_in_cu(cudaStream_t stream, gpuchrono::Duration d);

inline int consumer_main(const char* how) try {
    const gpuchrono::Duration d = doubled_in_cu(gpuchrono::Duration::from_us(21));
    if (gpuchrono::to_string(d) != "42.0 us") {
        std::printf("consumer (%s): FAILED: Duration through the .cu file printed %s, expected 42.0 us\n", how,
                    gpuchrono::to_string(d).c_str());
        return 1;
    }
    const std::vector<gpuchrono::Duration> samples{gpuchrono::Duration::from_us(1), gpuchrono::Duration::from_us(3),
                                                   gpuchrono::Duration::from_us(2)};
    const gpuchrono::Stats s = samples | gpuchrono::summarize;
    if (s.median != gpuchrono::Duration::from_us(2)) {
        std::printf("consumer (%s): FAILED: the median of 1, 3, 2 us read %s\n", how, gpuchrono::to_string(s.median).c_str());
        return 1;
    }
    std::printf("consumer (%s): host and .cu agree on Duration (%s); median of 1, 3, 2 us = %s\n", how,
                gpuchrono::to_string(d).c_str(), gpuchrono::to_string(s.median).c_str());
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("consumer (%s): no CUDA device (%s): GPU part not run\n", how, why->c_str());
        return 0;
    }
    const gpuchrono::Measurement m = time_spin_in_cu(nullptr, gpuchrono::Duration::from_us(100));
    std::printf("consumer (%s): a 100 us spin timed from the .cu file: %s\n", how, gpuchrono::to_string(m.duration()).c_str());
    return m.duration().us() >= 99.5 ? 0 : 1;
} catch (const std::exception& e) {
    std::printf("consumer (%s): FAILED: %s\n", how, e.what());
    return 1;
}
