#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/policies/event_floor.hpp>
#include <gpuchrono/gpu/stream_state.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

constexpr int floor_pairs = 15;

struct Floors {
    std::mutex mutex;
    std::map<int, Duration> by_device;
};

Floors& floors() {
    static Floors* f = new Floors();  // never destroyed: read from timers that may outlive static destruction
    return *f;
}

// Owns what the measurement creates, so a failing call leaks nothing.
struct FloorResources {
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    ~FloorResources() {
        if (start) (void)cudaEventDestroy(start);
        if (stop) (void)cudaEventDestroy(stop);
        if (stream) (void)cudaStreamDestroy(stream);
    }
};

Duration measure_floor(int device) {
    RelaxedCaptureMode relaxed;  // this thread may be capturing another stream: do not disturb it
    DeviceGuard on(device);
    const std::string context = "measuring the event-pair floor of device " + std::to_string(device);
    FloorResources r;
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking), context);
    GPUCHRONO_CUDA_CHECK(cudaEventCreateWithFlags(&r.start, cudaEventDefault), context);
    GPUCHRONO_CUDA_CHECK(cudaEventCreateWithFlags(&r.stop, cudaEventDefault), context);
    std::vector<double> ns;
    ns.reserve(floor_pairs);
    for (int i = 0; i <= floor_pairs; ++i) {  // pair 0 warms up the stream and is not kept
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(r.start, r.stream), context);
        GPUCHRONO_CUDA_CHECK(cudaEventRecord(r.stop, r.stream), context);
        GPUCHRONO_CUDA_CHECK(cudaEventSynchronize(r.stop), context);
        float ms = 0.0f;
        GPUCHRONO_CUDA_CHECK(cudaEventElapsedTime(&ms, r.start, r.stop), context);
        if (i > 0) ns.push_back(static_cast<double>(ms) * 1e6);
    }
    std::nth_element(ns.begin(), ns.begin() + floor_pairs / 2, ns.end());
    return Duration::from_ns(ns[floor_pairs / 2]);
}

}  // namespace

Duration event_pair_floor(int device) {
    if (auto known = known_event_pair_floor(device)) return *known;
    const Duration measured = measure_floor(device);
    std::lock_guard lock(floors().mutex);
    // Two threads may both have measured; the first value stays so every caller sees one floor.
    return floors().by_device.emplace(device, measured).first->second;
}

std::optional<Duration> known_event_pair_floor(int device) noexcept {
    std::lock_guard lock(floors().mutex);
    auto it = floors().by_device.find(device);
    if (it == floors().by_device.end()) return std::nullopt;
    return it->second;
}

}  // namespace gpuchrono
