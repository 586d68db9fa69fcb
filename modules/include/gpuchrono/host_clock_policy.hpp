// HostClockPolicy: the host's steady_clock and nothing else, for timing host code. It makes no CUDA call,
// so it works on a machine without a GPU. Do not use it around GPU work: kernel launches return before the
// kernel runs (PITFALLS.md #1); HostSyncPolicy or EventPolicy time GPU work.
#pragma once

#include <gpuchrono/measurement.hpp>

#include <chrono>
#include <string_view>

namespace gpuchrono {

class HostClockPolicy {
public:
    static constexpr std::string_view name = "host-clock";

    HostClockPolicy() = default;

    void start() { started_ = std::chrono::steady_clock::now(); }
    Measurement stop() {
        const auto stopped = std::chrono::steady_clock::now();
        return Measurement::completed(name, Duration(stopped - started_), -1);
    }

private:
    std::chrono::steady_clock::time_point started_{};
};

}  // namespace gpuchrono
