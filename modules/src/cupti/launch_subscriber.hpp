// Which launches belong to which scope: a CUPTI subscriber on the runtime and driver APIs that launch work
// (every cbid whose name holds Launch, Memcpy or Memset: kernel launches, graph launches, copies and sets,
// so that libraries launching through the driver API count too). Its callback runs on the launching thread;
// at each such call's entry it appends the call's correlation id to every LaunchLog open on that thread.
// CUPTI stamps the same id on the activity records of the work the call launched (for cudaGraphLaunch, on
// every kernel of the graph). Internal.
#pragma once

#include "cupti_library.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::cupti {

// The correlation ids of the calls one scope's thread made while the log was open. Only that thread writes it.
struct LaunchLog {
    std::vector<std::uint32_t> correlations;
};

// Subscribes and enables the launch callbacks. CUPTI allows one subscriber per process: if a tool holds it
// (Nsight Systems or Compute, another profiler), the error says so.
std::optional<std::string> subscribe_to_launches(const CuptiLibrary& lib);

// Open and close a log on the calling thread; logs nest (a scope inside a scope sees its launches in both).
void open_launch_log(LaunchLog* log);
void close_launch_log(LaunchLog* log) noexcept;

}  // namespace gpuchrono::cupti
