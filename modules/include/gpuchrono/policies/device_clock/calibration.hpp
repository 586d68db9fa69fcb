// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// DeviceClockCalibration: what DeviceClockPolicy must know about a device before its samples can be read,
// measured on that device by small kernels, never taken from nominal figures:
// - the %globaltimer step (32 ns on an H100, 1 us on some boards: docs/pitfalls-catalog.md row 17), once per device;
// - the probe's own cost, an empty region and an empty loop iteration in cycles, once per (device, block
//   size), since the barriers' cost depends on the number of warps;
// - on demand, a reference SM clock: clock64 against %globaltimer over a short spin, for runs whose own reads
//   span too little time to measure the clock they ran at.
// Each measurement runs on the stream it is given, after whatever is queued there, and waits for it.
// Cached results are process-wide and thread-safe; two threads may both measure the first time, the
// first result stored wins.
#pragma once

#include <gpuchrono/core/block_samples.hpp>
#include <gpuchrono/core/duration.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuchrono {

class DeviceClockCalibration {
public:
    static DeviceClockCalibration& instance();

    // The smallest %globaltimer increment seen over up to 1000 increments (or 0.1 s) by one thread.
    // Throws CudaError, or std::runtime_error if %globaltimer did not advance.
    Duration timer_step(int device, cudaStream_t stream);

    // An empty ProbeRegion's and an empty ProbeLoop iteration's cost in cycles: one block per SM with
    // threads_per_block threads, 32 empty regions and 256 empty iterations each, medians.
    ProbeOverhead overhead(int device, std::uint32_t threads_per_block, cudaStream_t stream);

    // A fresh SM clock measurement: one thread spins `span` on %globaltimer between two clock64 reads on one
    // SM. Not cached: the clock moves with load and temperature. Retries a span that changed SM (twice),
    // then throws std::runtime_error.
    SmClock reference_clock(int device, cudaStream_t stream, Duration span);

    // Multiprocessors of the device (cached).
    int sm_count(int device);

private:
    DeviceClockCalibration() = default;
    struct Impl;
    Impl& impl() const;
};

}  // namespace gpuchrono
