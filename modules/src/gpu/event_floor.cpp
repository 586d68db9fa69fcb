// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/event_floor.hpp>
#include <gpuchrono/gpu/stream.hpp>

#include "gpu/tracked_devices.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

constexpr int floor_pairs = 15;

// Every checked scope reads its device's floor at its stop: for the tracked devices that is an atomic load,
// not a lock and a map lookup. Zero-initialised (no constructor to run), so a timer during static
// initialisation finds "not measured" rather than a floor of 0. Devices beyond them keep the map.
struct TrackedFloor {
    std::atomic<bool> known{false};  // set (release) once `ns` holds the floor
    std::atomic<double> ns{0.0};
};
std::array<TrackedFloor, detail::tracked_devices> tracked_floors{};

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
    // Two threads may both have measured; the first value stays so every caller sees one floor.
    std::lock_guard lock(floors().mutex);
    if (!detail::is_tracked_device(device)) return floors().by_device.emplace(device, measured).first->second;
    TrackedFloor& slot = tracked_floors[static_cast<std::size_t>(device)];
    if (slot.known.load(std::memory_order_relaxed)) return Duration::from_ns(slot.ns.load(std::memory_order_relaxed));
    slot.ns.store(measured.ns(), std::memory_order_relaxed);
    slot.known.store(true, std::memory_order_release);
    return measured;
}

std::optional<Duration> known_event_pair_floor(int device) noexcept {
    if (detail::is_tracked_device(device)) {
        const TrackedFloor& slot = tracked_floors[static_cast<std::size_t>(device)];
        if (!slot.known.load(std::memory_order_acquire)) return std::nullopt;
        return Duration::from_ns(slot.ns.load(std::memory_order_relaxed));
    }
    std::lock_guard lock(floors().mutex);
    auto it = floors().by_device.find(device);
    if (it == floors().by_device.end()) return std::nullopt;
    return it->second;
}

}  // namespace gpuchrono
