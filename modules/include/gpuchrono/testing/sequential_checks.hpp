// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The comparison checks (comparison_checks.hpp) for two pieces of work rather than two Series: the work runs
// interleaved and stops as soon as the answer is clear (compare(fn_a, fn_b), sequential_compare.hpp).
//
//     GPUCHRONO_CHECK_NOT_SLOWER(launch_old, launch_new, {.stream = stream, .threshold = 0.02});
//
//   check_not_slower  fails only on the verdict "slower" (the confidence sequence lies above 0 and reaches past
//                     the threshold); on A/A that happens at most 1 - confidence of the time (1% by default),
//                     whatever look it stopped at. Inconclusive (max_time reached) passes, saying so.
//   check_faster      passes only on "faster".
// Work compare() refuses (a side launching nothing or on another stream, one the other's method cannot time,
// bad options) fails the check with the refusal; so does a side that throws.
#pragma once

#include <gpuchrono/measure/sequential_compare.hpp>
#include <gpuchrono/testing/check_result.hpp>

#include <concepts>
#include <exception>
#include <source_location>
#include <stdexcept>
#include <string>

namespace gpuchrono {

CheckResult check_not_slower(const SequentialComparison& c);
CheckResult check_faster(const SequentialComparison& c);

namespace detail {
CheckResult refused_check(const SequentialCompareOptions& options, const std::exception& e);

// `check()`, or the failed result saying why the comparison it runs was refused: both checks of two callables
// turn a refusal into a failed check, not an exception, and must do it alike.
template <class Check>
CheckResult unless_refused(const SequentialCompareOptions& options, Check&& check) {
    try {
        return check();
    } catch (const std::invalid_argument& e) {
        return refused_check(options, e);
    } catch (const std::runtime_error& e) {
        return refused_check(options, e);
    }
}
}  // namespace detail

template <class A, class B>
    requires(std::invocable<A&, cudaStream_t> || std::invocable<A&>) && (std::invocable<B&, cudaStream_t> || std::invocable<B&>)
CheckResult check_not_slower(A&& base, B&& candidate, const SequentialCompareOptions& options = {},
                             std::source_location where = std::source_location::current()) {
    return detail::unless_refused(options, [&] { return check_not_slower(compare(base, candidate, options, where)); });
}

template <class A, class B>
    requires(std::invocable<A&, cudaStream_t> || std::invocable<A&>) && (std::invocable<B&, cudaStream_t> || std::invocable<B&>)
CheckResult check_faster(A&& base, B&& candidate, const SequentialCompareOptions& options = {},
                         std::source_location where = std::source_location::current()) {
    return detail::unless_refused(options, [&] { return check_faster(compare(base, candidate, options, where)); });
}

}  // namespace gpuchrono
