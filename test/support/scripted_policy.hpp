// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A TimingPolicy whose every step is scripted by the test, so the ScopedTimer state machine can be checked
// without a GPU: how often start/stop ran, what stop returns, and whether it throws.
#pragma once

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/measurement.hpp>

#include <functional>
#include <stdexcept>
#include <string_view>
#include <utility>

struct PolicyScript {
    int starts = 0;
    int stops = 0;
    bool throw_at_start = false;
    bool throw_at_stop = false;
    double stop_ns = 1000.0;
    std::function<void()> at_start{};  // run inside start(), to see what the timer had done by then
};

class ScriptedPolicy {
public:
    static constexpr std::string_view name = "scripted";

    explicit ScriptedPolicy(PolicyScript& script) : script_(&script) {}
    ScriptedPolicy(ScriptedPolicy&& o) noexcept : script_(std::exchange(o.script_, nullptr)) {}
    ScriptedPolicy& operator=(ScriptedPolicy&& o) noexcept {
        script_ = std::exchange(o.script_, nullptr);
        return *this;
    }

    void start() {
        ++script_->starts;
        if (script_->at_start) script_->at_start();
        if (script_->throw_at_start)
            throw gpuchrono::CudaError(cudaErrorLaunchFailure, "scripted start", "a test that scripts a failure");
    }
    gpuchrono::Measurement stop() {
        ++script_->stops;
        if (script_->throw_at_stop)
            throw gpuchrono::CudaError(cudaErrorIllegalAddress, "scripted stop", "a test that scripts a failure");
        return gpuchrono::Measurement::completed(name, gpuchrono::Duration::from_ns(script_->stop_ns), 0);
    }

private:
    PolicyScript* script_;
};
