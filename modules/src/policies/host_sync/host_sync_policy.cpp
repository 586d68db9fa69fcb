// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_cold_start.hpp>
#include <gpuchrono/checks/check_event_interval.hpp>
#include <gpuchrono/checks/check_gpu_state.hpp>
#include <gpuchrono/checks/check_stream_state.hpp>
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/policies/host_sync/host_sync_policy.hpp>
#include <gpuchrono/gpu/driver_probe.hpp>
#include <gpuchrono/gpu/stream.hpp>

#include "core/first_scope_at.hpp"
#include "gpu/launch_warmup.hpp"

#include <optional>
#include <string>

namespace gpuchrono {

HostSyncPolicy::HostSyncPolicy(cudaStream_t stream, SyncScope scope)
    : stream_(stream), scope_(scope), device_(stream_device(stream)) {}

void HostSyncPolicy::refuse_capture(const char* when) const {
    if (stream_is_capturing(stream_))
        throw TimerError(std::string("gpuchrono: HostSyncPolicy cannot synchronise ") + when + " on device " +
                         std::to_string(device_) +
                         ": the timed stream is being captured into a graph, and a synchronisation would invalidate "
                         "the capture; time the graph launch instead, or use EventPolicy, which records into the "
                         "capture");
}

void HostSyncPolicy::synchronize(const char* when) {
    // Relaxed capture mode: another stream of this thread may be capturing (this one is not: refuse_capture
    // ran first), and waiting for this stream does not touch that capture. A device-wide synchronisation does
    // touch it; the driver refuses that, and the CudaError says so.
    RelaxedCaptureMode relaxed;
    cudaError_t e = cudaSuccess;
    const char* call = "cudaStreamSynchronize(stream)";
    if (scope_ == SyncScope::stream) {
        e = cudaStreamSynchronize(stream_);
    } else {
        DeviceGuard on(device_);
        e = cudaDeviceSynchronize();
        call = "cudaDeviceSynchronize()";
    }
    // The message is built only on failure: at stop this runs inside the interval.
    if (e != cudaSuccess) check(e, call, std::string("synchronising ") + when + " on device " + std::to_string(device_));
}

void HostSyncPolicy::start() {
    refuse_capture("at its start");
    {
        RelaxedCaptureMode relaxed;
        gpu_state_ = sample_gpu_state(device_);
        // The launch after the NVML reads is slow: this one pays for it before the clock starts (launch_warmup.hpp).
        if (gpu_state_) detail::launch_warmup_kernel(stream_, device_);
        device_at_start_ = current_device();
    }
    synchronize("before the HostSyncPolicy start");
    started_ = std::chrono::steady_clock::now();
}

// Not inlined: its return address is its caller's, which findings name when no source location is given.
[[gnu::noinline]] Measurement HostSyncPolicy::stop() { return stop_at(CallSite::returning_to(__builtin_return_address(0))); }

Measurement HostSyncPolicy::stop(std::source_location where) { return stop_at(CallSite::located(where)); }

Measurement HostSyncPolicy::stop_at(const CallSite& site) {
    refuse_capture("at its stop");
    // One clock read inside the interval: host time before the wait is what a lazy module load shows as.
    const auto waiting = std::chrono::steady_clock::now();
    synchronize("at the HostSyncPolicy stop");
    const auto stopped = std::chrono::steady_clock::now();
    Measurement m = Measurement::completed(name, Duration(stopped - started_), device_);
    SyncedScopeObservation observed;
    observed.before_stop = Duration(waiting - started_);
    observed.reading = Duration(stopped - started_);
    observed.first_at_call_site = detail::first_scope_at(site);
    // The driver is asked only where the answer could matter.
    if (observed.first_at_call_site && observed.before_stop >= host_time_floor) observed.loading = module_loading_mode();

    int device_at_stop = -1;
    std::optional<unsigned> flags;
    {
        RelaxedCaptureMode relaxed;
        device_at_stop = current_device();
        // cudaGetDeviceFlags answers for the current device; on another one the question would cost a device
        // switch.
        if (device_at_stop == device_) {
            unsigned f = 0;
            GPUCHRONO_CUDA_CHECK(cudaGetDeviceFlags(&f), "reading the scheduling flags of the timed device");
            flags = f;
        }
    }
    Findings found;
    if (auto f = check_cold_first_synced_scope(observed)) found.push_back(std::move(*f));
    if (auto f = check_device_changed(device_at_start_, device_at_stop, device_, name)) found.push_back(std::move(*f));
    if (scope_ == SyncScope::stream)
        if (auto f = check_legacy_stream(is_legacy_default_stream(stream_), name)) found.push_back(std::move(*f));
    if (flags)
        if (auto f = check_blocking_sync(*flags, device_)) found.push_back(std::move(*f));
    if (gpu_state_) {
        Findings state = check_gpu_state(*gpu_state_);
        found.insert(found.end(), state.begin(), state.end());
    }
    handle_findings(m, std::move(found), site);
    return m;
}

}  // namespace gpuchrono
