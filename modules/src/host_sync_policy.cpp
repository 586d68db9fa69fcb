#include <gpuchrono/cuda_error.hpp>
#include <gpuchrono/device.hpp>
#include <gpuchrono/host_sync_policy.hpp>

#include <string>

namespace gpuchrono {

HostSyncPolicy::HostSyncPolicy(cudaStream_t stream, SyncScope scope)
    : stream_(stream), scope_(scope), device_(stream_device(stream)) {}

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
    synchronize("before the HostSyncPolicy start");
    started_ = std::chrono::steady_clock::now();
}

Measurement HostSyncPolicy::stop() {
    synchronize("at the HostSyncPolicy stop");
    const auto stopped = std::chrono::steady_clock::now();
    return Measurement::completed(name, Duration(stopped - started_), device_);
}

}  // namespace gpuchrono
