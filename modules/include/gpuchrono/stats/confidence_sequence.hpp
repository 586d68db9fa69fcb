// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A confidence sequence for the mean of bounded observations: an interval after every observation that holds
// the mean at all of them at once with probability >= 1 - alpha, so a caller may look after each one and stop
// whenever it likes without inflating its error rate (a fixed-n interval checked repeatedly does inflate it).
//
// Method: the predictable plug-in empirical-Bernstein confidence sequence (PrPl-EB) of Waudby-Smith & Ramdas,
// "Estimating means of bounded random variables by betting", J. R. Stat. Soc. B 86(1), 2024 (arXiv 2010.09686),
// Theorem 2 with the plug-in bets of their eq. (13) and the running intersection of section 3. It needs no
// variance known in advance: the variance it adapts to is estimated from the observations before each one
// (predictably), which is what keeps the guarantee exact with an estimated variance. What it needs is a range
// declared before the data: observations are clipped to [-range, range], and the clipped ones are counted. The
// guarantee is then for the mean of the clipped observations; for observations symmetric about their centre
// (paired A/A differences are, by the random order of each pair) that is the mean itself.
//
// Pure and deterministic, for the CPU tests that check its error rate by simulation.
#pragma once

#include <cstddef>

namespace gpuchrono {

class BernsteinSequence {
public:
    // alpha in (0, 1): the two-sided error over all looks; range > 0 and finite. std::invalid_argument otherwise.
    BernsteinSequence(double range, double alpha);

    // One observation (clipped to [-range, range]); NaN is refused with std::invalid_argument.
    void add(double x);

    std::size_t count() const noexcept { return n_; }
    std::size_t clipped() const noexcept { return clipped_; }
    double range() const noexcept { return range_; }
    double alpha() const noexcept { return alpha_; }

    // The interval after the observations so far (the intersection of every earlier one): [-range, range]
    // before the first. low() > high() can happen only on the miscoverage event the guarantee bounds.
    double low() const noexcept { return low_; }
    double high() const noexcept { return high_; }
    // The bet-weighted mean the interval is centred on (0 before the first observation).
    double centre() const noexcept;

    // About how many observations a sequence of this range and alpha needs before its half-width is down to
    // `half_width`, when the observations vary little against the range (the bets then sit at their cap, and the
    // width falls as 1/n). A plan for how much work to queue, never part of the interval.
    static double looks_for_half_width(double range, double alpha, double half_width) noexcept;

private:
    double range_, alpha_, log_term_;
    std::size_t n_ = 0, clipped_ = 0;
    // On the [0, 1] scale of (x + range) / (2 range).
    double sum_y_ = 0.0;         // for the plug-in mean
    double sum_sq_dev_ = 0.0;    // for the plug-in variance
    double mean_prev_ = 0.5;     // mu-hat_{t-1}
    double var_prev_ = 0.25;     // sigma-hat^2_{t-1}
    double sum_lambda_ = 0.0, sum_lambda_y_ = 0.0, sum_v_psi_ = 0.0;
    double low_, high_;
};

}  // namespace gpuchrono
