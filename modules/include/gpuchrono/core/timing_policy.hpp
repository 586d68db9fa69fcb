// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The TimingPolicy concept: what ScopedTimer needs from a way of taking time.
//
// A policy is constructed with whatever it needs (a stream, options), start() begins the interval and may
// throw, stop() ends it and returns the Measurement (and may throw: ScopedTimer turns that into a failed
// measurement when it stops from its destructor). `name` is a string literal used in reports; an optional
// `type_name` (the policy's C++ name) is how errors name the timer, ScopedTimer<type_name>, else `name` is.
// A moved-from policy must be destructible and must not touch the GPU.
#pragma once

#include <gpuchrono/core/measurement.hpp>

#include <concepts>
#include <string_view>

namespace gpuchrono {

template <class P>
concept TimingPolicy = std::move_constructible<P> && std::destructible<P> && requires(P& p) {
    { P::name } -> std::convertible_to<std::string_view>;
    { p.start() } -> std::same_as<void>;
    { p.stop() } -> std::same_as<Measurement>;
};

}  // namespace gpuchrono
