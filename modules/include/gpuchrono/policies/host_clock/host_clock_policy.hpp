// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// HostClockPolicy: the host's steady_clock, for timing host code. Kernel launches return before the kernel
// runs (docs/pitfalls-catalog.md #1), so around GPU work this clock measures the launch, not the work: HostSyncPolicy or
// EventPolicy time GPU work. What it checks depends on how it is built:
//
//   HostClockPolicy()          host code only. Makes no CUDA runtime call, so it works on a machine without a
//                              GPU. It cannot see GPU work, so it does not look for any; the one thing it checks
//                              is whether a CUDA context appeared during the scope (docs/pitfalls-catalog.md #3: the first
//                              CUDA call of a process costs 213-323 ms on an H100), by asking the driver library
//                              the process has already loaded (about 15 ns, nothing while no driver is loaded,
//                              nothing at all once a context has been seen).
//   HostClockPolicy(stream)    host code that launches GPU work on `stream` without waiting for it. The
//                              constructor makes the stream's context current (before the interval); at stop,
//                              after reading the clock, one cudaStreamQuery (0.4 us, never a wait) tells whether
//                              the stream still had work: then the finding host-stop-with-pending-work says the
//                              time excludes it. Also: the stream being captured into a graph at stop
//                              (host-timer-during-capture; nothing is queried then, a query would invalidate the
//                              capture) and the current device changing inside the scope (timer-device-changed).
//                              These questions are asked in relaxed capture mode, so a capture of another
//                              stream is neither refused nor invalidated by them.
//
// The measurement is a host time in both cases: Measurement::device() is -1.
#pragma once

#include <gpuchrono/core/measurement.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <optional>
#include <string_view>
#include <source_location>

namespace gpuchrono {

struct CallSite;  // finding_reaction.hpp

class HostClockPolicy {
public:
    static constexpr std::string_view name = "host-clock";
    static constexpr std::string_view type_name = "HostClockPolicy";  // errors say ScopedTimer<HostClockPolicy>

    HostClockPolicy() = default;
    explicit HostClockPolicy(cudaStream_t watched);

    void start();
    Measurement stop();
    // The same, with the user's line for the findings (ScopedTimer passes the line that constructed it);
    // stop() names its caller's return address instead.
    Measurement stop(std::source_location where);

    // The stream checked at stop, if any.
    std::optional<cudaStream_t> watched_stream() const noexcept {
        return watching_ ? std::optional<cudaStream_t>(watched_) : std::nullopt;
    }

private:
    Measurement stop_at(const CallSite& site);
    std::chrono::steady_clock::time_point started_{};
    cudaStream_t watched_ = nullptr;
    bool watching_ = false;
    int stream_device_ = -1;
    int device_at_start_ = -1;
    int contexts_at_start_ = -1;  // -1: not checked
};

}  // namespace gpuchrono
