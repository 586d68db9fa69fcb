// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/gpu/prepare.hpp>

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>
#include <gpuchrono/gpu/stream.hpp>
#include <gpuchrono/gpu/event_floor.hpp>
#include <gpuchrono/gpu/event_pool.hpp>

#include "launch_warmup.hpp"

namespace gpuchrono {

namespace {
void prepare_device(cudaStream_t stream);
}  // namespace

void prepare(cudaStream_t stream) {
    in_entry_point("prepare()", nullptr, [&] { prepare_device(stream); });
}

namespace {
void prepare_device(cudaStream_t stream) {
    RelaxedCaptureMode relaxed;  // another stream of this thread may be capturing: leave its capture alone
    if (stream_is_capturing(stream))
        throw TimerError("gpuchrono::prepare: the stream is being captured into a graph; prepare the device before "
                         "the capture begins (nothing can be measured or waited for inside one)");
    const int device = stream_device(stream);
    DeviceGuard on(device);
    // Counts as the device's periodic read, so timers in the next 250 ms read none: after a plain read the first
    // timer's own read still cost its interval 2-5 us on the H100 (bench_first_scope [1]).
    (void)sample_gpu_state(device);
    (void)event_pair_floor(device);
    { auto pair = EventPool::instance().acquire_pair(device); }  // made now, back in the pool at once
    (void)detail::settle_launches(stream, device, false);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for gpuchrono::prepare's warm-up kernel on device " +
                                                            std::to_string(device));
}
}  // namespace

}  // namespace gpuchrono
