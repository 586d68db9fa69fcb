// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_cold_start.hpp>
#include <gpuchrono/checks/check_host_stop.hpp>
#include <gpuchrono/checks/check_stream_state.hpp>
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/driver_probe.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/policies/host_clock/host_clock_policy.hpp>
#include <gpuchrono/gpu/stream.hpp>

#include <atomic>

namespace gpuchrono {

namespace {
// Contexts are created once per device and process; after one has been seen, a host timer stops asking.
std::atomic<bool> context_seen{false};

int contexts_now() noexcept {
    const int n = active_primary_contexts();
    if (n > 0) context_seen.store(true, std::memory_order_relaxed);
    return n;
}
}  // namespace

HostClockPolicy::HostClockPolicy(cudaStream_t watched)
    : watched_(watched), watching_(true), stream_device_(stream_device(watched)) {}

void HostClockPolicy::start() {
    if (watching_) {
        RelaxedCaptureMode relaxed;  // the watched or another stream may be capturing
        device_at_start_ = current_device();
    } else {
        contexts_at_start_ = context_seen.load(std::memory_order_relaxed) ? -1 : contexts_now();
    }
    started_ = std::chrono::steady_clock::now();
}

// Not inlined: its return address is its caller's, which findings name when no source location is given.
[[gnu::noinline]] Measurement HostClockPolicy::stop() { return stop_at(CallSite::returning_to(__builtin_return_address(0))); }

Measurement HostClockPolicy::stop(std::source_location where) { return stop_at(CallSite::located(where)); }

Measurement HostClockPolicy::stop_at(const CallSite& site) {
    const auto stopped = std::chrono::steady_clock::now();
    const Duration measured(stopped - started_);
    Measurement m = Measurement::completed(name, measured, -1);
    Findings found;
    if (watching_) {
        bool capturing = false;
        bool pending = false;
        int device_at_stop = -1;
        {
            // Relaxed capture mode: the query concerns only the watched stream (never queried while it is
            // captured: that would invalidate the capture), whatever other stream is being captured.
            RelaxedCaptureMode relaxed;
            capturing = stream_is_capturing(watched_);
            if (!capturing) pending = !stream_is_idle(watched_);
            device_at_stop = current_device();
        }
        if (capturing) {
            if (auto f = check_host_timer_capture(true, measured)) found.push_back(std::move(*f));
        } else if (auto f = check_host_stop(pending, measured)) {
            found.push_back(std::move(*f));
        }
        if (auto f = check_device_changed(device_at_start_, device_at_stop, stream_device_, name))
            found.push_back(std::move(*f));
    } else if (contexts_at_start_ == 0) {
        if (auto f = check_context_created(contexts_at_start_, contexts_now(), measured)) found.push_back(std::move(*f));
    }
    handle_findings(m, std::move(found), site);
    return m;
}

}  // namespace gpuchrono
