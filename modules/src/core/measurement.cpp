// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/core/measurement.hpp>

namespace gpuchrono {

const std::string& Measurement::error() const noexcept {
    static const std::string never_taken = "no measurement taken (default-constructed Measurement)";
    return state_ == State::failed && error_.empty() ? never_taken : error_;
}

Measurement Measurement::completed(std::string_view policy, Duration d, int device) {
    Measurement m;
    m.policy_ = policy;
    m.device_ = device;
    m.state_ = State::ok;
    m.duration_ = d;
    m.error_.clear();
    return m;
}

Measurement Measurement::pending(std::string_view policy, std::shared_ptr<detail::PendingInterval> interval,
                                 int device) {
    if (!interval) throw std::invalid_argument("gpuchrono::Measurement::pending: null interval");
    Measurement m;
    m.policy_ = policy;
    m.device_ = device;
    m.state_ = State::pending;
    m.pending_ = std::move(interval);
    m.error_.clear();
    return m;
}

Measurement Measurement::failure(std::string_view policy, std::string error, int device) {
    Measurement m;
    m.policy_ = policy;
    m.device_ = device;
    m.state_ = State::failed;
    m.error_ = error.empty() ? std::string("failed without a reason (library bug)") : std::move(error);
    return m;
}

Duration Measurement::duration() const {
    if (state_ == State::pending) {
        Duration resolved;
        try {
            resolved = pending_->resolve();
        } catch (const std::exception& e) {
            state_ = State::failed;
            error_ = e.what();
            pending_.reset();
            throw;
        }
        const std::shared_ptr<detail::PendingInterval> interval = std::move(pending_);
        duration_ = resolved;
        state_ = State::ok;
        if (std::optional<Duration> span = interval->take_span()) {
            activities_ = interval->take_activities();
            span_ = span;
        }
        // Resolved before the findings are handled: a FindingError thrown by the reaction leaves a measurement
        // whose duration can still be read.
        Findings found = interval->take_findings();
        if (!found.empty()) {
            findings_.insert(findings_.end(), found.begin(), found.end());
            detail::react_to_findings(found, *this);
        }
    }
    if (state_ == State::failed)
        throw TimerError("gpuchrono: " + std::string(policy_) + " measurement failed: " + error());
    return duration_;
}

Measurement::State Measurement::resolve() const noexcept {
    if (state_ == State::pending) {
        try {
            (void)duration();
        } catch (...) {
            // A failure is in state_ and error_ already; a FindingError left the measurement resolved.
        }
    }
    return state_;
}

}  // namespace gpuchrono
