// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Measurement: what one timed scope yields, whatever the policy. A duration (possibly still pending on the
// GPU), the policy and device that took it, the findings detected while it was taken, and, for the
// device-clock policy, the per-block samples behind it; for KernelPolicy, the GPU activities it counted and
// their span.
//
// Pending: EventPolicy can stop without waiting for the GPU (lazy mode); the first duration() call then waits
// for the stop event and reads the interval. The checks that need the interval run then too, and what they
// find is added to findings() at that moment (and gets the configured reaction, finding_reaction.hpp): read
// findings() after duration() or resolve(). Resolution mutates cached state (the duration, the state and the
// findings), so one Measurement must not be read from two threads at once before it is resolved. Copies of a
// pending Measurement share its interval (which guards itself, so copies may resolve on different threads):
// the GPU is waited for once, and each copy adds the interval's findings to its own list when it resolves.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/device_busy.hpp>
#include <gpuchrono/core/kernel_activity.hpp>
#include <gpuchrono/core/finding.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono {

struct BlockSamples;  // per-block device-clock samples, defined in <gpuchrono/core/block_samples.hpp>

namespace detail {
// A GPU interval whose end may not have happened yet. resolve() blocks until it has, then returns it;
// it throws CudaError if the GPU cannot provide it.
class PendingInterval {
public:
    virtual ~PendingInterval() = default;
    virtual Duration resolve() = 0;
    // What the checks that need the interval found, once resolve() has returned. Every copy of a Measurement
    // sharing this interval calls it once, after its own resolve(), and adds what it returns to its findings;
    // so an interval returns the same findings to each caller. Their `where` is already stamped.
    virtual Findings take_findings() { return {}; }
    // The GPU activities behind the interval and their span (KernelPolicy), once resolve() has returned; the
    // same to every caller.
    virtual std::vector<KernelActivity> take_activities() { return {}; }
    virtual std::optional<Duration> take_span() { return std::nullopt; }
};
}  // namespace detail

class Measurement {
public:
    enum class State { ok, pending, failed };

    // A default-constructed Measurement is failed ("no measurement taken"), so it can never pass for a zero.
    Measurement() = default;

    static Measurement completed(std::string_view policy, Duration d, int device);
    static Measurement pending(std::string_view policy, std::shared_ptr<detail::PendingInterval> interval, int device);
    static Measurement failure(std::string_view policy, std::string error, int device);

    State state() const noexcept { return state_; }
    bool failed() const noexcept { return state_ == State::failed; }
    bool pending() const noexcept { return state_ == State::pending; }

    // The measured time. Waits for a pending interval (throws CudaError if that fails, and the measurement
    // becomes failed), then attaches the interval's findings and reacts to them: under Reaction::throw_error
    // that first read throws FindingError, after which the measurement is resolved and later reads return the
    // duration. Throws TimerError on a failed measurement, quoting why it failed.
    Duration duration() const;

    // Resolves a pending interval and reports failure as the state instead of throwing. The interval's
    // findings are attached and reported as duration() does; under Reaction::throw_error they are not thrown
    // from here (only duration() throws them).
    State resolve() const noexcept;

    std::string_view policy() const noexcept { return policy_; }
    int device() const noexcept { return device_; }  // -1: host clock only
    const std::string& error() const noexcept;

    // What was detected while this measurement was taken; a pending measurement gains the findings of its
    // interval when it resolves.
    const Findings& findings() const noexcept { return findings_; }
    void add_finding(Finding f) { findings_.push_back(std::move(f)); }

    // KernelPolicy: the kernels, copies and sets it counted, sorted by start, and the span from the first start
    // to the last end (the duration is their busy time, which excludes gaps). Empty and nullopt for other
    // policies. A pending measurement has them once resolved: read them after duration() or resolve().
    const std::vector<KernelActivity>& activities() const noexcept { return activities_; }
    std::optional<Duration> span() const noexcept { return span_; }
    // KernelPolicy: busy time (union of intervals) and span per device the activities ran on; a scope that
    // launched on several devices has one entry each. Empty for other policies.
    std::vector<DeviceBusy> device_busy() const { return busy_per_device(activities_); }
    void set_activities(std::vector<KernelActivity> a, Duration span) {
        activities_ = std::move(a);
        span_ = span;
    }

    const std::shared_ptr<const BlockSamples>& blocks() const noexcept { return blocks_; }
    void set_blocks(std::shared_ptr<const BlockSamples> b) noexcept { blocks_ = std::move(b); }

private:
    std::string_view policy_ = "none";  // always a string literal owned by the policy type
    int device_ = -1;
    mutable State state_ = State::failed;
    mutable Duration duration_{};
    // Empty in a default-constructed (failed) Measurement, whose error() is then a fixed text: every ScopedTimer
    // holds one, and a heap allocation per timer would show in its host cost.
    mutable std::string error_;
    mutable std::shared_ptr<detail::PendingInterval> pending_;
    mutable Findings findings_;  // grows once more when a pending interval resolves (see the thread note above)
    std::shared_ptr<const BlockSamples> blocks_;
    mutable std::vector<KernelActivity> activities_;  // filled when a pending interval resolves, as findings_
    mutable std::optional<Duration> span_;
};

}  // namespace gpuchrono
