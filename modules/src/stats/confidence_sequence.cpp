// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/stats/confidence_sequence.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gpuchrono {

namespace {

// The bets' cap (any value below 1 keeps the guarantee): Waudby-Smith & Ramdas use 1/2 or 3/4. GPU block ratios
// have a small variance against the declared range, so the cap, not the variance, sets the width for the first
// few hundred looks: 3/4 decides in about 25% fewer blocks than 1/2 in the simulations of the CPU tests.
constexpr double lambda_cap = 0.75;

// psi_E(lambda) = (-log(1 - lambda) - lambda) / 4, the empirical-Bernstein exponent.
double psi_e(double lambda) { return (-std::log1p(-lambda) - lambda) / 4.0; }

}  // namespace

BernsteinSequence::BernsteinSequence(double range, double alpha) : range_(range), alpha_(alpha), low_(-range), high_(range) {
    if (!(range > 0.0) || !std::isfinite(range))
        throw std::invalid_argument("gpuchrono::BernsteinSequence: range must be positive and finite, got " + std::to_string(range));
    if (!(alpha > 0.0 && alpha < 1.0))
        throw std::invalid_argument("gpuchrono::BernsteinSequence: alpha must be in (0, 1), got " + std::to_string(alpha));
    log_term_ = std::log(2.0 / alpha);
}

void BernsteinSequence::add(double x) {
    if (std::isnan(x)) throw std::invalid_argument("gpuchrono::BernsteinSequence: an observation is NaN");
    if (x < -range_ || x > range_) ++clipped_;
    const double y = (std::clamp(x, -range_, range_) + range_) / (2.0 * range_);
    ++n_;
    const double t = static_cast<double>(n_);
    // The bet is fixed by the observations before this one (predictable): that is what the guarantee needs.
    const double lambda = std::min(std::sqrt(2.0 * log_term_ / (var_prev_ * t * std::log1p(t))), lambda_cap);
    const double v = 4.0 * (y - mean_prev_) * (y - mean_prev_);
    sum_lambda_ += lambda;
    sum_lambda_y_ += lambda * y;
    sum_v_psi_ += v * psi_e(lambda);
    // The plug-in estimates for the next bet: mu-hat_t and sigma-hat^2_t, each started from a prior point.
    sum_y_ += y;
    const double mean_now = (0.5 + sum_y_) / (t + 1.0);
    sum_sq_dev_ += (y - mean_now) * (y - mean_now);
    var_prev_ = (0.25 + sum_sq_dev_) / (t + 1.0);
    mean_prev_ = mean_now;

    const double centre_y = sum_lambda_y_ / sum_lambda_;
    const double half_y = (log_term_ + sum_v_psi_) / sum_lambda_;
    const double scale = 2.0 * range_;
    low_ = std::max(low_, (centre_y - half_y) * scale - range_);
    high_ = std::min(high_, (centre_y + half_y) * scale - range_);
}

double BernsteinSequence::looks_for_half_width(double range, double alpha, double half_width) noexcept {
    // Half-width on the scale of the observations: 2 range (log(2 / alpha) + sum v psi) / sum lambda, with every
    // bet at the cap and sum v psi small beside log(2 / alpha).
    if (!(half_width > 0.0)) return std::numeric_limits<double>::infinity();
    return 2.0 * range * std::log(2.0 / alpha) / (lambda_cap * half_width);
}

double BernsteinSequence::centre() const noexcept {
    if (n_ == 0) return 0.0;
    return sum_lambda_y_ / sum_lambda_ * 2.0 * range_ - range_;
}

}  // namespace gpuchrono
