// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ScopedTimer<Policy>: starts in its constructor, stops in its destructor.
//
//     gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
//     kernel<<<grid, block, 0, stream>>>(args);
//     // ~ScopedTimer records the stop event; or: gpuchrono::Measurement m = t.stop();
//
// States and what each call does in them:
//   running    stop(): ends the interval -> stopped (returns the measurement); if the policy throws, the
//              timer becomes failed and the exception propagates. Destructor: stops, never throws.
//   stopped    stop(): returns the same measurement again; nothing is re-measured.
//   failed     stop(): throws TimerError quoting the original failure.
//   moved-from stop(): throws TimerError. The destructor does nothing.
// The destructor cannot throw, so a failure there becomes a failed Measurement, delivered to the bound
// Series if there is one (Series::failed_count() shows it), never dropped.
// While running, the timer holds an NVTX range named after its Series (or its policy) in the "gpuchrono"
// domain, so profilers see the scope (nvtx_range.hpp); it is popped once, when the timer stops or fails.
// It is pushed right after the policy's start(), so that what a start does first (NVML reads, the library's
// warm-up launch, launch_warmup.hpp) is not inside it: `ncu --nvtx-include "gpuchrono@name/"` profiled the
// library's warm-up kernel as the user's before (test/ncu_nvtx_check.sh checks it). NVTX's own initialisation
// is done before the start (prepare_nvtx), so the push inside the interval is a plain call.
#pragma once

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/measurement.hpp>
#include <gpuchrono/core/series.hpp>
#include <gpuchrono/core/timing_policy.hpp>
#include <gpuchrono/core/nvtx_range.hpp>

#include <exception>
#include <optional>
#include <source_location>
#include <string>
#include <utility>

namespace gpuchrono {

template <TimingPolicy Policy>
class ScopedTimer {
public:
    enum class State { running, stopped, failed, moved_from };

    // Starts timing; the arguments construct the policy (e.g. a stream). `where` is the user's line, which the
    // findings of this scope name ("(at main.cpp:42)"); a library that times on its user's behalf passes its
    // own caller's.
    explicit ScopedTimer(std::source_location where = std::source_location::current())
        requires std::default_initializable<Policy>
        : ScopedTimer(std::in_place, nullptr, where) {}

    template <class A>
        requires std::constructible_from<Policy, A>
    explicit ScopedTimer(A&& a, std::source_location where = std::source_location::current())
        : ScopedTimer(std::in_place, nullptr, where, std::forward<A>(a)) {}

    template <class A, class B>
        requires std::constructible_from<Policy, A, B>
    explicit ScopedTimer(A&& a, B&& b, std::source_location where = std::source_location::current())
        : ScopedTimer(std::in_place, nullptr, where, std::forward<A>(a), std::forward<B>(b)) {}

    template <class A, class B, class C>
        requires std::constructible_from<Policy, A, B, C>
    explicit ScopedTimer(A&& a, B&& b, C&& c, std::source_location where = std::source_location::current())
        : ScopedTimer(std::in_place, nullptr, where, std::forward<A>(a), std::forward<B>(b), std::forward<C>(c)) {}

    // Starts timing and appends the measurement to `into` when the timer stops, however it stops.
    explicit ScopedTimer(Series& into, std::source_location where = std::source_location::current())
        requires std::default_initializable<Policy>
        : ScopedTimer(std::in_place, &into, where) {}

    template <class A>
        requires std::constructible_from<Policy, A>
    explicit ScopedTimer(Series& into, A&& a, std::source_location where = std::source_location::current())
        : ScopedTimer(std::in_place, &into, where, std::forward<A>(a)) {}

    template <class A, class B>
        requires std::constructible_from<Policy, A, B>
    explicit ScopedTimer(Series& into, A&& a, B&& b, std::source_location where = std::source_location::current())
        : ScopedTimer(std::in_place, &into, where, std::forward<A>(a), std::forward<B>(b)) {}

    // Braced options, `ScopedTimer<EventPolicy> t(series, stream, {.wait_at_stop = false})`: a braced list has
    // no type, so it cannot be deduced through the templates above; these name the policy's Options for it.
    template <class Target, class P = Policy>
        requires std::constructible_from<P, Target, typename P::Options>
    explicit ScopedTimer(Target&& target, typename P::Options options,
                         std::source_location where = std::source_location::current())
        : ScopedTimer(std::in_place, nullptr, where, std::forward<Target>(target), std::move(options)) {}

    template <class Target, class P = Policy>
        requires std::constructible_from<P, Target, typename P::Options>
    explicit ScopedTimer(Series& into, Target&& target, typename P::Options options,
                         std::source_location where = std::source_location::current())
        : ScopedTimer(std::in_place, &into, where, std::forward<Target>(target), std::move(options)) {}

    ScopedTimer(const ScopedTimer&) = delete;
    ScopedTimer& operator=(const ScopedTimer&) = delete;

    ScopedTimer(ScopedTimer&& other) noexcept
        : nvtx_(std::move(other.nvtx_)),
          policy_(std::move(other.policy_)),
          into_(other.into_),
          where_(other.where_),
          state_(other.state_),
          result_(std::move(other.result_)) {
        other.become_moved_from();
    }

    // A running timer on the left is stopped first, exactly as its destructor would.
    ScopedTimer& operator=(ScopedTimer&& other) noexcept {
        if (this != &other) {
            finish_quietly();
            nvtx_ = std::move(other.nvtx_);
            policy_ = std::move(other.policy_);
            into_ = other.into_;
            where_ = other.where_;
            state_ = other.state_;
            result_ = std::move(other.result_);
            other.become_moved_from();
        }
        return *this;
    }

    ~ScopedTimer() { finish_quietly(); }

    const Measurement& stop() {
        switch (state_) {
            case State::stopped: return result_;
            case State::failed: throw TimerError("gpuchrono: stop() on a failed timer: " + result_.error());
            case State::moved_from: throw TimerError("gpuchrono: stop() on a moved-from ScopedTimer");
            case State::running: break;
        }
        try {
            result_ = stop_policy();
        } catch (const CudaError& e) {
            const CudaError named = e.in(entry_point("stop() of "), &where_);
            fail(named.what());
            throw named;
        } catch (const std::exception& e) {
            fail(e.what());
            throw;
        }
        state_ = State::stopped;
        nvtx_.end();
        after_range();
        deliver();
        return result_;
    }

    State state() const noexcept { return state_; }

    // The measurement of a stopped or failed timer; TimerError while running or when moved-from.
    const Measurement& result() const {
        if (state_ == State::stopped || state_ == State::failed) return result_;
        throw TimerError(state_ == State::running ? "gpuchrono: result() of a running ScopedTimer (call stop() first)"
                                                  : "gpuchrono: result() of a moved-from ScopedTimer");
    }

    // The policy, e.g. to hand a device-clock probe to a kernel. TimerError when moved-from.
    Policy& policy() {
        if (!policy_) throw TimerError("gpuchrono: policy() of a moved-from ScopedTimer");
        return *policy_;
    }

private:
    // What every public constructor comes to: build the policy, start it. A CUDA failure names the timer.
    template <class... Args>
    ScopedTimer(std::in_place_t, Series* into, std::source_location where, Args&&... args) try
        : policy_(std::in_place, std::forward<Args>(args)...), into_(into), where_(where) {
        begin(into);
    } catch (const CudaError& e) {
        throw e.in(entry_point(), &where);
    }

    // The policy's stop, told the user's line when it takes one (the library's policies do); a policy of the
    // user's with a plain stop() is called as it is.
    Measurement stop_policy() {
        if constexpr (requires(Policy& p, std::source_location w) {
                          { p.stop(w) } -> std::same_as<Measurement>;
                      })
            return policy_->stop(where_);
        else
            return policy_->stop();
    }

    // How errors name this timer: "ScopedTimer<EventPolicy>" for the library's policies, the policy's own name
    // for others. Built only when something failed.
    static std::string entry_point(std::string_view prefix = {}) {
        std::string_view type = Policy::name;
        if constexpr (requires { Policy::type_name; }) type = Policy::type_name;
        std::string entry(prefix);
        entry.append("ScopedTimer<").append(type).append(">");
        return entry;
    }

    // Starts the policy, then opens the NVTX range (see the header comment). A start that throws leaves no range
    // open: the constructor fails before it is pushed.
    void begin(const Series* into) {
        detail::prepare_nvtx();  // NVTX's own first-use work, before the interval opens
        if constexpr (requires(Policy& p) { p.defer_after_work(); }) policy_->defer_after_work();
        policy_->start();
        nvtx_ = detail::NvtxRange(into && !into->name().empty() ? into->name().c_str()
                                                                : std::string_view(Policy::name).data());
    }

    // The policy's work that must come after the interval and outside the NVTX range (EventPolicy::after_work).
    void after_range() noexcept {
        if constexpr (requires(Policy& p) { p.after_work(); }) policy_->after_work();
    }

    void finish_quietly() noexcept {
        if (state_ != State::running) return;
        try {
            result_ = stop_policy();
            state_ = State::stopped;
            nvtx_.end();
            after_range();
        } catch (const std::exception& e) {
            fail(e.what());
            return;
        } catch (...) {
            fail("unknown exception while stopping the timer");
            return;
        }
        deliver_quietly();
    }

    void fail(const std::string& why) noexcept {
        state_ = State::failed;
        nvtx_.end();
        try {
            result_ = Measurement::failure(Policy::name, why, -1);
        } catch (...) {
            // Out of memory while describing a failure: the default Measurement is already a failure.
            result_ = Measurement();
        }
        deliver_quietly();
    }

    void deliver() {
        if (into_) into_->add(result_);
    }
    void deliver_quietly() noexcept {
        try {
            deliver();
        } catch (...) {
            // Only allocation can fail here; nothing better can be done inside a destructor.
        }
    }

    void become_moved_from() noexcept {
        policy_.reset();
        into_ = nullptr;
        state_ = State::moved_from;
    }

    detail::NvtxRange nvtx_;  // pushed once the policy has started, popped when the timer leaves running
    std::optional<Policy> policy_;
    Series* into_ = nullptr;
    std::source_location where_;  // the user's line, which this scope's findings and errors name
    State state_ = State::running;
    Measurement result_;
};

}  // namespace gpuchrono
