// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Compiled with --default-stream per-thread (test/CMakeLists.txt), as a user's TU may be.
#include "per_thread_stream.hpp"

#include <gpuchrono/gpuchrono.hpp>
#include <globaltimer_spin.cuh>

#include <cstdint>
#include <stdexcept>

namespace gpuchrono::test {

namespace {
__global__ void spin_here(std::uint64_t ns, DeviceProbe probe) {
    ProbeRegion region(probe, 0);
    kernels::spin_globaltimer(ns);
}

void launch_on_stream_zero(Duration d, DeviceProbe probe = {}) {
    spin_here<<<1, 32, 0, 0>>>(static_cast<std::uint64_t>(d.ns()), probe);  // stream 0: per-thread in this TU
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching spin_here on stream 0");
}
}  // namespace

bool per_thread_tu_is_per_thread() {
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
    return true;
#else
    return false;
#endif
}

cudaStream_t per_thread_tu_default_stream() { return GPUCHRONO_DEFAULT_STREAM; }

bool per_thread_tu_launches_on_the_per_thread_stream() {
#if defined(__clang__)
    // clang (19) lowers <<<...>>> to cudaLaunchKernel whatever the default-stream mode, so a kernel launched on
    // stream 0 runs on the legacy stream even here (seen on the H100, CUDA 12.9 build); runtime calls do follow
    // CUDA_API_PER_THREAD_DEFAULT_STREAM.
    return false;
#else
    return true;
#endif
}

Measurement time_spin_on_default_stream(TimerKind kind, Duration d) {
    switch (kind) {
        case TimerKind::host_sync: {
            ScopedTimer<HostSyncPolicy> t(GPUCHRONO_DEFAULT_STREAM);
            launch_on_stream_zero(d);
            return t.stop();
        }
        case TimerKind::event: {
            ScopedTimer<EventPolicy> t(GPUCHRONO_DEFAULT_STREAM);
            launch_on_stream_zero(d);
            return t.stop();
        }
        case TimerKind::device_clock: {
            ScopedTimer<DeviceClockPolicy> t(GPUCHRONO_DEFAULT_STREAM);
            launch_on_stream_zero(d, t.policy().probe());
            return t.stop();
        }
    }
    throw std::logic_error("time_spin_on_default_stream: unknown timer kind");
}

Measurement time_spin_passing_stream_zero(Duration d) {
    ScopedTimer<EventPolicy> t(cudaStream_t{0});
    launch_on_stream_zero(d);
    return t.stop();
}

}  // namespace gpuchrono::test
