// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which NVTX range a GPU activity belongs to: the innermost range open on the thread that launched it, when
// it launched. NVTX push/pop arrive per thread (each thread its own RangeStack); the launch callback knows the
// launch's correlation id, which CUPTI's activity record carries later on another thread. Only launches made
// inside a range are remembered, and they are forgotten once records well past them have arrived, so the map
// holds about the launches of one buffer.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpuchrono::run {

// Names of ranges, each stored once; ids are stable for the process (0 is "no range").
class RangeNames {
public:
    std::uint32_t intern(std::string_view name);
    std::string name(std::uint32_t id) const;

private:
    // Looked up by string_view: a push of a name already seen allocates nothing.
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    mutable std::mutex lock_;
    std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> ids_;
    std::vector<std::string> names_{std::string()};
};

// One thread's open ranges. `watched` counts the open ranges whose name is the one --nvtx records inside.
struct RangeStack {
    struct Open {
        std::uint32_t id;
        bool watched;
    };
    std::vector<Open> open;
    int watched = 0;

    void push(std::uint32_t id, bool is_watched) {
        open.push_back({id, is_watched});
        watched += is_watched ? 1 : 0;
    }
    // An unbalanced pop (more pops than pushes on this thread) is ignored, as NVTX tools do.
    void pop() {
        if (open.empty()) return;
        watched -= open.back().watched ? 1 : 0;
        open.pop_back();
    }
    std::uint32_t innermost() const noexcept { return open.empty() ? 0 : open.back().id; }
};

// What a launch's record needs to know about its launch.
struct LaunchContext {
    std::uint32_t range = 0;  // innermost range id, 0: none
    bool in_watched = false;  // inside the --nvtx range
};

// A launch is not forgotten when its first record arrives: a graph launch's kernels all carry the id of the
// cudaGraphLaunch, and a launch through the runtime is seen twice (runtime and driver callbacks, each its own
// id), its records carrying one of them. forget_before() drops launches once records well past them have
// arrived.
class CorrelationMap {
public:
    void remember(std::uint32_t correlation, LaunchContext context);
    // The context of a launch; {} when the launch was made outside every range (or is forgotten).
    LaunchContext find(std::uint32_t correlation) const;
    // Forgets every launch with a correlation id below `id`; returns how many.
    std::size_t forget_before(std::uint32_t id);
    std::size_t size() const;
    // Without a lock: whether any launch is remembered (records need no lookup when none is).
    bool empty() const noexcept { return count_.load(std::memory_order_relaxed) == 0; }

private:
    mutable std::mutex lock_;
    std::unordered_map<std::uint32_t, LaunchContext> map_;
    std::atomic<std::size_t> count_{0};
};

}  // namespace gpuchrono::run
