// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "kernels.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/policies/device_clock/calibration.hpp>
#include <gpuchrono/policies/device_clock/decode.hpp>
#include <gpuchrono/gpu/buffer_pool.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpuchrono {

namespace {

namespace ck = calibration_kernels;

constexpr std::uint32_t calibration_plain_regions = 32;
constexpr std::uint32_t calibration_loop_iterations = 256;
constexpr std::uint32_t timer_step_changes = 1000;
// Bounds on spins that wait for %globaltimer, in cycles: a timer that never advances ends them instead of
// hanging the device. 2e8 cycles is 0.1 s at 2 GHz.
constexpr std::uint64_t timer_step_max_cycles = 200'000'000;

std::string on_device(const std::string& what, int device) { return what + " on device " + std::to_string(device); }

// Runs `launch` (which writes into the lease's device memory), copies `bytes` back and waits.
template <class Launch>
void run_and_copy_back(ProbeBufferLease& lease, std::size_t bytes, cudaStream_t stream, const std::string& what,
                       Launch launch) {
    lease.mark_in_flight();
    launch();
    GPUCHRONO_CUDA_CHECK(cudaMemcpyAsync(lease.host_memory(), lease.device_memory(), bytes, cudaMemcpyDeviceToHost, stream),
                         "copying back the results of " + what);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for " + what);
    lease.mark_idle();
}

template <class T>
T read_host(const ProbeBufferLease& lease) {
    static_assert(sizeof(T) <= probe_bytes(1));
    T value;
    std::memcpy(&value, lease.host_memory(), sizeof value);
    return value;
}

}  // namespace

struct DeviceClockCalibration::Impl {
    std::mutex mutex;
    std::map<int, Duration> steps;
    std::map<std::pair<int, std::uint32_t>, ProbeOverhead> overheads;
    std::map<int, int> sm_counts;
};

DeviceClockCalibration& DeviceClockCalibration::instance() {
    static DeviceClockCalibration* calibration = new DeviceClockCalibration();  // never destroyed, like the pools
    return *calibration;
}

DeviceClockCalibration::Impl& DeviceClockCalibration::impl() const {
    static Impl* impl = new Impl();
    return *impl;
}

int DeviceClockCalibration::sm_count(int device) {
    {
        std::lock_guard lock(impl().mutex);
        if (auto it = impl().sm_counts.find(device); it != impl().sm_counts.end()) return it->second;
    }
    int n = 0;
    GPUCHRONO_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device),
                         on_device("reading the multiprocessor count", device));
    std::lock_guard lock(impl().mutex);
    return impl().sm_counts.emplace(device, n).first->second;
}

Duration DeviceClockCalibration::timer_step(int device, cudaStream_t stream) {
    {
        std::lock_guard lock(impl().mutex);
        if (auto it = impl().steps.find(device); it != impl().steps.end()) return it->second;
    }
    DeviceGuard on(device);
    ProbeBufferLease lease = ProbeBufferPool::instance().acquire(device, 1);
    const std::string what = on_device("the %globaltimer step measurement", device);
    run_and_copy_back(lease, sizeof(ck::TimerStepResult), stream, what, [&] {
        ck::launch_timer_step(static_cast<ck::TimerStepResult*>(lease.device_memory()), timer_step_changes,
                              timer_step_max_cycles, stream);
    });
    const auto r = read_host<ck::TimerStepResult>(lease);
    if (r.changes == 0 || r.min_step_ns == 0)
        throw std::runtime_error("gpuchrono: %globaltimer did not advance on device " + std::to_string(device) + " within " +
                                 std::to_string(timer_step_max_cycles) + " clock64 cycles: in-kernel times cannot be taken");
    const Duration step = Duration::from_ns(static_cast<double>(r.min_step_ns));
    std::lock_guard lock(impl().mutex);
    return impl().steps.emplace(device, step).first->second;
}

ProbeOverhead DeviceClockCalibration::overhead(int device, std::uint32_t threads_per_block, cudaStream_t stream) {
    if (threads_per_block == 0 || threads_per_block > 1024)
        throw std::invalid_argument("gpuchrono::DeviceClockCalibration::overhead: threads_per_block must be 1..1024, got " +
                                    std::to_string(threads_per_block));
    const auto key = std::make_pair(device, threads_per_block);
    {
        std::lock_guard lock(impl().mutex);
        if (auto it = impl().overheads.find(key); it != impl().overheads.end()) return it->second;
    }
    const int sms = sm_count(device);
    const std::uint32_t regions = calibration_plain_regions + 1;
    const std::size_t records = static_cast<std::size_t>(sms) * regions;
    DeviceGuard on(device);
    ProbeBufferLease lease = ProbeBufferPool::instance().acquire(device, records);
    const DeviceProbe probe = lease.probe(static_cast<std::uint32_t>(sms), regions);
    const std::string what = on_device("the probe calibration (" + std::to_string(threads_per_block) + " threads per block)", device);
    GPUCHRONO_CUDA_CHECK(cudaMemsetAsync(lease.device_memory(), 0, probe_bytes(records), stream), "clearing " + what);
    run_and_copy_back(lease, probe_bytes(records), stream, what, [&] {
        ck::launch_empty_regions(probe, calibration_plain_regions, calibration_loop_iterations,
                                 static_cast<unsigned>(sms), threads_per_block, stream);
    });
    std::vector<std::string> names;
    for (std::uint32_t r = 0; r < calibration_plain_regions; ++r) names.push_back("empty-" + std::to_string(r));
    names.push_back("empty-loop");
    const device_clock::Decoded d = device_clock::decode(lease.host_header(), lease.host_records(records), names,
                                                         static_cast<std::uint32_t>(sms));
    if (!d.ok()) throw std::runtime_error("gpuchrono: the probe calibration's records were refused: " + d.error);
    const ProbeOverhead o =
        device_clock::overhead_from_calibration(d.samples.samples, calibration_plain_regions, threads_per_block);
    std::lock_guard lock(impl().mutex);
    return impl().overheads.emplace(key, o).first->second;
}

SmClock DeviceClockCalibration::reference_clock(int device, cudaStream_t stream, Duration span) {
    if (!(span.ns() >= 1000) || !span.is_finite())
        throw std::invalid_argument("gpuchrono::DeviceClockCalibration::reference_clock: span must be >= 1 us, got " +
                                    to_string(span));
    const Duration step = timer_step(device, stream);
    const auto span_ns = static_cast<std::uint64_t>(std::llround(span.ns()));
    // A 10 GHz clock would count 10 cycles per ns: beyond that the timer is taken as stuck.
    const std::uint64_t max_cycles = span_ns * 10 + timer_step_max_cycles;
    DeviceGuard on(device);
    ProbeBufferLease lease = ProbeBufferPool::instance().acquire(device, 1);
    const std::string what = on_device("the reference SM clock span (" + to_string(span) + ")", device);
    ck::ReferenceSpan last{};
    for (int attempt = 0; attempt < 3; ++attempt) {
        run_and_copy_back(lease, sizeof(ck::ReferenceSpan), stream, what, [&] {
            ck::launch_reference_span(static_cast<ck::ReferenceSpan*>(lease.device_memory()), span_ns, max_cycles, stream);
        });
        last = read_host<ck::ReferenceSpan>(lease);
        const device_clock::ClockSpan s{last.start_ns, last.start_cycles, last.stop_ns,
                                        last.stop_cycles, last.sm_start, last.sm_stop};
        if (auto c = device_clock::clock_from_span(s, step, ClockSource::reference_kernel)) return *c;
    }
    throw std::runtime_error("gpuchrono: the reference SM clock span failed 3 times " + on_device("", device) +
                             " (last: SM " + std::to_string(last.sm_start) + " -> " + std::to_string(last.sm_stop) +
                             ", " + std::to_string(last.stop_ns - last.start_ns) + " ns, " +
                             std::to_string(last.stop_cycles - last.start_cycles) + " cycles)");
}

}  // namespace gpuchrono
