// HostSyncPolicy: the host's steady_clock, with the GPU drained at both ends, so the interval holds all of
// the GPU work enqueued between start and stop, plus launch and synchronisation latency (PITFALLS.md #22:
// D + 12..16 us for a D-us kernel on an H100). It is what a user's wall clock sees.
//
// SyncScope::stream (default) synchronises the given stream; SyncScope::device synchronises the stream's
// whole device, for work spread over several streams.
#pragma once

#include <gpuchrono/measurement.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <string_view>

namespace gpuchrono {

enum class SyncScope { stream, device };

class HostSyncPolicy {
public:
    static constexpr std::string_view name = "host-sync";

    explicit HostSyncPolicy(cudaStream_t stream, SyncScope scope = SyncScope::stream);

    void start();
    Measurement stop();

    cudaStream_t stream() const noexcept { return stream_; }
    int device() const noexcept { return device_; }
    SyncScope scope() const noexcept { return scope_; }

private:
    void synchronize(const char* when);

    cudaStream_t stream_;
    SyncScope scope_;
    int device_;
    std::chrono::steady_clock::time_point started_{};
};

}  // namespace gpuchrono
