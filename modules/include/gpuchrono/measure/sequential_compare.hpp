// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// compare(fn_a, fn_b): is B faster than A, measured side by side, stopping as soon as the answer is clear.
//
//     gpuchrono::SequentialComparison c = gpuchrono::compare(
//         [&](cudaStream_t s) { old_kernel<<<g, b, 0, s>>>(...); },
//         [&](cudaStream_t s) { new_kernel<<<g, b, 0, s>>>(...); },
//         {.stream = stream, .threshold = 0.005});
//     std::cout << c.verdict << ' ' << c.change * 100 << "% [" << c.change_low * 100 << ", " << c.change_high * 100 << "]\n";
//
// Why not measure A, then B, then compare the two Series (compare.hpp): that costs what the chosen CI width
// costs, however clear the difference, and whatever the environment did between A's window and B's (the clock,
// the temperature, a neighbour on the GPU) lands in the verdict. Here A and B run interleaved, in blocks of
// four samples in a random order of ABBA or BAAB, on the same stream with the same cache policy, each sample
// by the same method (the kernel method's CUPTI record where it can be used, else an event pair); each block
// gives one paired log ratio, in which slow drift cancels. A confidence sequence on those ratios
// (sequential_mean_test.hpp; the empirical-Bernstein sequence of Waudby-Smith & Ramdas, confidence_sequence.hpp)
// is looked at after every block and stops the comparison as soon as it lies inside the +-threshold band (no
// difference), above 0 (slower) or below it (faster), or at max_time (inconclusive, with the width reached).
// Whatever look it stops at, A/A ends in faster or slower at most 1 - confidence of the time (1% by default).
//
// The callables are what measure() takes: each launches work and returns without waiting, on the stream it is
// given (a callable taking a cudaStream_t) or on options.stream itself (one taking nothing).
// Refused with std::invalid_argument, naming the side, before any verdict: bad options (a threshold <= 0,
// max_time <= 0, ...), a callable that launches nothing or launches on another stream than the one it is
// given, one that cannot be timed by the method the other one is timed by, a method other than automatic,
// kernel or event. A callable that throws ends the comparison with std::runtime_error naming the side and what
// it threw. CudaError for CUDA failures, naming compare().
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/measure/compare.hpp>
#include <gpuchrono/measure/measure.hpp>
#include <gpuchrono/stats/sequential_mean_test.hpp>

#include <cuda_runtime_api.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <source_location>
#include <string>
#include <vector>

namespace gpuchrono {

struct SequentialCompareOptions {
    cudaStream_t stream = nullptr;     // where both run (the legacy default stream unless given)
    double threshold = 0.01;           // the practical threshold on the relative change; > 0
    double confidence = 0.99;          // over every look together: A/A says faster or slower at most 1% of the time
    Duration max_time = Duration::from_s(2);  // of sampling; then "inconclusive" with the width reached; > 0
    Method method = Method::automatic; // automatic (kernel where CUPTI can be used, else event), kernel or event
    CacheState cache = CacheState::warm;
    Duration warmup_min_time = Duration{};             // each side's, as measure()'s (warmup.hpp)
    Duration warmup_max_time = Duration::from_ms(500);
    std::size_t pilot_blocks = 16;     // blocks that only fix the clipping range (sequential_mean_test.hpp); >= 4
    std::uint64_t seed = 0;            // of the blocks' random order; 0: a fresh one each call
    std::string name_a = "A", name_b = "B";

    void validate() const;  // std::invalid_argument naming the field
};

struct SequentialComparison {
    std::string name_a, name_b;
    Verdict verdict = Verdict::inconclusive;
    std::string reason;          // the verdict in words, with its numbers
    double change = 0.0;         // relative change of B against A (0.02: B is 2% slower)
    double change_low = -1.0;    // the confidence sequence's interval at the last look
    double change_high = 0.0;
    // The plain interval of the samples taken, at `confidence`: the Hodges-Lehmann shift of B's log samples against
    // A's and its rank interval (hodges_lehmann.hpp), as a relative change. What the effect is, read from every
    // sample as one fixed set; it holds at the end only, never decides the verdict (the interval above does,
    // valid at every look, and so wider). NaN when too few samples reach the confidence.
    double plain_change = 0.0;
    double plain_low = 0.0;
    double plain_high = 0.0;
    double confidence = 0.0;
    double threshold = 0.0;
    std::size_t looks = 0;       // blocks the test looked at (the pilot's excluded)
    std::size_t blocks = 0;      // blocks taken, pilot included
    std::size_t samples_a = 0, samples_b = 0;
    std::size_t clipped = 0;     // block ratios clipped to the range (a few: outliers; many: a wide range helps)
    double clip_range = 0.0;     // the range on the log ratio
    Duration median_a{}, median_b{};
    double drift_a = 0.0;        // each side's trend across the blocks (SequentialTest::drift_a): what the
    double drift_b = 0.0;        // environment did during the comparison, cancelled in the verdict
    Duration wall_time{};        // the whole call, warm-ups included
    Duration sampling_time{};    // the interleaved sampling
    Method method = Method::automatic;  // the one that ran
    CacheState cache = CacheState::warm;
    std::string method_note;
    std::vector<std::string> notes;
};

std::ostream& operator<<(std::ostream& os, const SequentialComparison& c);

// The verdict's sentence from a finished test (public for the CPU tests).
SequentialComparison sequential_result(const SequentialTest& test, const std::string& name_a, const std::string& name_b);

namespace detail {
SequentialComparison compare_interleaved(const LaunchFn& a, bool a_takes_stream, const LaunchFn& b,
                                         bool b_takes_stream, const SequentialCompareOptions& options,
                                         std::source_location where);

template <class F>
LaunchFn as_launch(F& callable) {
    if constexpr (std::invocable<F&, cudaStream_t>)
        return [&callable](cudaStream_t s) { std::invoke(callable, s); };
    else
        return [&callable](cudaStream_t) { std::invoke(callable); };
}
}  // namespace detail

template <class A, class B>
    requires(std::invocable<A&, cudaStream_t> || std::invocable<A&>) && (std::invocable<B&, cudaStream_t> || std::invocable<B&>)
SequentialComparison compare(A&& fn_a, B&& fn_b, const SequentialCompareOptions& options = {},
                             std::source_location where = std::source_location::current()) {
    return detail::compare_interleaved(detail::as_launch(fn_a), std::invocable<A&, cudaStream_t>, detail::as_launch(fn_b),
                                       std::invocable<B&, cudaStream_t>, options, where);
}

}  // namespace gpuchrono
