// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The statistics of the interleaved compare() (sequential_compare.hpp), apart from the GPU: blocks of paired
// samples in, a verdict out as soon as one is warranted. Pure, so the CPU tests feed it simulated samples.
//
// Each block holds samples of A and B taken in a random order of ABBA or BAAB. Its observation is the block's
// mean log ratio d = mean(log b) - mean(log a): a drift that is linear over the block cancels in the ABBA
// pattern, and any other drift cancels on average because the order is random (A/A blocks are then symmetric
// about 0 whatever the environment did). The first pilot_blocks blocks only set the range the observations are
// clipped to (|their median| + max(6 robust deviations, 1.5 log(1 + threshold))): the range is fixed before the
// test sees a single one of its observations. The rest go into the confidence sequence (confidence_sequence.hpp),
// one look per block. On the relative change exp(d) - 1, with threshold t:
//   no difference   the sequence lies inside (-t, t)
//   slower          it lies above 0 (and, not being inside the band, reaches t or beyond)
//   faster          it lies below 0 (and reaches -t or beyond)
// Whatever look it stops at, A/A ends in faster or slower with probability at most alpha = 1 - confidence, and
// a change of t or more ends in "no difference" with probability at most alpha. A change between 0 and t may
// end in either "slower" (it is real) or "no difference" (it is below t).
#pragma once

#include <gpuchrono/stats/confidence_sequence.hpp>
#include <gpuchrono/stats/verdict.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuchrono {

struct SequentialTestOptions {
    double threshold = 0.01;     // on the relative change; > 0
    double confidence = 0.99;    // over all looks together; in (0, 1)
    std::size_t pilot_blocks = 16;  // >= 4

    void validate() const;  // std::invalid_argument naming the field
};

class SequentialTest {
public:
    explicit SequentialTest(const SequentialTestOptions& options);

    // One block: A's and B's samples in it (ns, positive; at least one each). Returns true once decided (later
    // blocks are then refused with std::logic_error). std::invalid_argument for empty sides or values <= 0.
    bool add_block(std::span<const double> a_ns, std::span<const double> b_ns);

    bool decided() const noexcept { return verdict_.has_value(); }
    // The verdict once decided, else inconclusive.
    Verdict verdict() const noexcept { return verdict_.value_or(Verdict::inconclusive); }

    std::size_t blocks() const noexcept { return d_.size(); }
    std::size_t looks() const noexcept { return cs_ ? cs_->count() : 0; }
    std::size_t clipped() const noexcept { return cs_ ? cs_->clipped() : 0; }
    double clip_range() const noexcept { return cs_ ? cs_->range() : 0.0; }  // on the log ratio; 0 in the pilot
    std::size_t samples_a() const noexcept { return a_ns_.size(); }
    std::size_t samples_b() const noexcept { return b_ns_.size(); }
    std::span<const double> samples_a_ns() const noexcept { return a_ns_; }  // every sample, pilot included
    std::span<const double> samples_b_ns() const noexcept { return b_ns_; }

    // The relative change of B against A and its confidence-sequence interval (-1 .. +inf in the pilot).
    double change() const noexcept;
    double change_low() const noexcept;
    double change_high() const noexcept;

    // About how many more blocks before a verdict, were the change what the blocks so far say: the rest of the
    // pilot while in it; after it, the blocks that would narrow the interval to the nearer of its two ends (above
    // or below 0 by the change estimated, or inside the band), its width falling as 1/n (the bets at their cap,
    // as GPU samples keep them). A plan for how much work to queue next, never part of the verdict; 0 once decided.
    double blocks_to_decide() const noexcept;

    // Each side's trend across the blocks: the least-squares line of its block mean log time against the block
    // index, from the first block to the last, as a relative change (0.01: it got 1% slower meanwhile).
    double drift_a() const noexcept { return drift(log_a_); }
    double drift_b() const noexcept { return drift(log_b_); }

    double median_a_ns() const;
    double median_b_ns() const;

    const SequentialTestOptions& options() const noexcept { return options_; }

private:
    static double drift(const std::vector<double>& y) noexcept;
    void start_sequence();

    SequentialTestOptions options_;
    std::vector<double> d_, log_a_, log_b_, a_ns_, b_ns_;
    std::optional<BernsteinSequence> cs_;
    std::optional<Verdict> verdict_;
};

// The verdict for a relative-change interval [low, high] and threshold t (see the top of this file); nullopt
// while it straddles 0 and a band edge.
std::optional<Verdict> sequential_verdict(double change_low, double change_high, double threshold) noexcept;

}  // namespace gpuchrono
