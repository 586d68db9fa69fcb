#include <gpuchrono/check_gpu_state.hpp>
#include <gpuchrono/check_stream_state.hpp>
#include <gpuchrono/cuda_error.hpp>
#include <gpuchrono/device.hpp>
#include <gpuchrono/finding_reaction.hpp>
#include <gpuchrono/host_sync_policy.hpp>
#include <gpuchrono/stream_state.hpp>

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
    const std::string context = std::string("synchronising ") + when + " on device " + std::to_string(device_);
    if (scope_ == SyncScope::stream) {
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream_), context);
    } else {
        DeviceGuard on(device_);
        GPUCHRONO_CUDA_CHECK(cudaDeviceSynchronize(), context);
    }
}

void HostSyncPolicy::start() {
    refuse_capture("at its start");
    gpu_state_ = sample_gpu_state(device_);
    device_at_start_ = current_device();
    synchronize("before the HostSyncPolicy start");
    started_ = std::chrono::steady_clock::now();
}

// Not inlined into ScopedTimer: its return address is the user's call site, which reports are keyed on.
[[gnu::noinline]] Measurement HostSyncPolicy::stop() {
    const CallSite site = CallSite::returning_to(__builtin_return_address(0));
    refuse_capture("at its stop");
    synchronize("at the HostSyncPolicy stop");
    const auto stopped = std::chrono::steady_clock::now();
    Measurement m = Measurement::completed(name, Duration(stopped - started_), device_);

    Findings found;
    const int device_at_stop = current_device();
    if (auto f = check_device_changed(device_at_start_, device_at_stop, device_, name)) found.push_back(std::move(*f));
    if (scope_ == SyncScope::stream)
        if (auto f = check_legacy_stream(is_legacy_default_stream(stream_), name)) found.push_back(std::move(*f));
    // cudaGetDeviceFlags answers for the current device; on another one the question would cost a device switch.
    if (device_at_stop == device_) {
        unsigned flags = 0;
        GPUCHRONO_CUDA_CHECK(cudaGetDeviceFlags(&flags), "reading the scheduling flags of the timed device");
        if (auto f = check_blocking_sync(flags, device_)) found.push_back(std::move(*f));
    }
    if (gpu_state_) {
        Findings state = check_gpu_state(*gpu_state_);
        found.insert(found.end(), state.begin(), state.end());
    }
    handle_findings(m, std::move(found), site);
    return m;
}

}  // namespace gpuchrono
