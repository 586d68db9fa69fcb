// Exits 0 when everything it could check passed: without a GPU that is the host path (the module and the
// nvcc-compiled TU agree on Duration); with one, it also times a kernel launched from the .cu file.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <string>

import gpuchrono;

gpuchrono::Duration doubled_in_cu(gpuchrono::Duration d);
gpuchrono::Measurement time_spin_in_cu(cudaStream_t stream, gpuchrono::Duration d);

int main() try {
    const gpuchrono::Duration d = doubled_in_cu(gpuchrono::Duration::from_us(21));
    if (gpuchrono::to_string(d) != "42.0 us") {
        std::printf("consumer: FAILED: Duration through the .cu file printed %s, expected 42.0 us\n",
                    gpuchrono::to_string(d).c_str());
        return 1;
    }
    std::printf("consumer: module and .cu agree on Duration (%s)\n", gpuchrono::to_string(d).c_str());
    if (auto why = gpuchrono::no_device_reason()) {
        std::printf("consumer: no CUDA device (%s): GPU part not run\n", why->c_str());
        return 0;
    }
    const gpuchrono::Measurement m = time_spin_in_cu(nullptr, gpuchrono::Duration::from_us(100));
    std::printf("consumer: a 100 us spin timed from the .cu file: %s\n", gpuchrono::to_string(m.duration()).c_str());
    return m.duration().us() >= 99.5 ? 0 : 1;
} catch (const std::exception& e) {
    std::printf("consumer: FAILED: %s\n", e.what());
    return 1;
}
