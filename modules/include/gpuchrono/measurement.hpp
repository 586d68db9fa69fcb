// Measurement: what one timed scope yields, whatever the policy. A duration (possibly still pending on the
// GPU), the policy and device that took it, the findings detected while it was taken, and, for the
// device-clock policy, the per-block samples behind it.
//
// Pending: EventPolicy can stop without waiting for the GPU (lazy mode); the first duration() call then waits
// for the stop event and reads the interval. Resolution mutates cached state, so one Measurement must not be
// read from two threads at once before it is resolved.
#pragma once

#include <gpuchrono/duration.hpp>
#include <gpuchrono/finding.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace gpuchrono {

struct BlockSamples;  // per-block device-clock samples, defined in <gpuchrono/block_samples.hpp>

namespace detail {
// A GPU interval whose end may not have happened yet. resolve() blocks until it has, then returns it;
// it throws CudaError if the GPU cannot provide it.
class PendingInterval {
public:
    virtual ~PendingInterval() = default;
    virtual Duration resolve() = 0;
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
    // becomes failed); throws TimerError on a failed measurement, quoting why it failed.
    Duration duration() const;

    // Resolves a pending interval and reports failure as the state instead of throwing.
    State resolve() const noexcept;

    std::string_view policy() const noexcept { return policy_; }
    int device() const noexcept { return device_; }  // -1: host clock only
    const std::string& error() const noexcept { return error_; }

    const Findings& findings() const noexcept { return findings_; }
    void add_finding(Finding f) { findings_.push_back(std::move(f)); }

    const std::shared_ptr<const BlockSamples>& blocks() const noexcept { return blocks_; }
    void set_blocks(std::shared_ptr<const BlockSamples> b) noexcept { blocks_ = std::move(b); }

private:
    std::string_view policy_ = "none";  // always a string literal owned by the policy type
    int device_ = -1;
    mutable State state_ = State::failed;
    mutable Duration duration_{};
    mutable std::string error_ = "no measurement taken (default-constructed Measurement)";
    mutable std::shared_ptr<detail::PendingInterval> pending_;
    Findings findings_;
    std::shared_ptr<const BlockSamples> blocks_;
};

}  // namespace gpuchrono
