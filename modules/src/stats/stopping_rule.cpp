// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/stats/stopping_rule.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t exact_binomial_limit = 2000;

double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

std::string number(double v) { return std::to_string(v); }

}  // namespace

double binomial_half_cdf(std::size_t n, std::size_t k) {
    if (k >= n) return 1.0;
    if (n <= exact_binomial_limit) {
        // Sum the shorter tail; the terms are exp(log C(n, i) - n log 2), never 0.5^n itself (underflows).
        const bool upper = 2 * k > n;
        const std::size_t last = upper ? n - k - 1 : k;  // P(X <= k) = 1 - P(X <= n - k - 1) by symmetry
        const double log_all = std::lgamma(static_cast<double>(n) + 1.0) - static_cast<double>(n) * std::log(2.0);
        double sum = 0.0;
        for (std::size_t i = 0; i <= last; ++i)
            sum += std::exp(log_all - std::lgamma(static_cast<double>(i) + 1.0) -
                            std::lgamma(static_cast<double>(n - i) + 1.0));
        sum = std::min(sum, 1.0);
        return upper ? 1.0 - sum : sum;
    }
    const double sd = std::sqrt(static_cast<double>(n)) / 2.0;
    return 1.0 - normal_upper_tail((static_cast<double>(k) + 0.5 - static_cast<double>(n) / 2.0) / sd);
}

double normal_upper_quantile(double upper_tail) {
    if (!(upper_tail > 0.0 && upper_tail < 1.0))
        throw std::invalid_argument("gpuchrono::normal_upper_quantile: the tail probability must be in (0, 1), got " +
                                    number(upper_tail));
    // Bisection on the exact tail: 200 halvings of [-40, 40] reach the double nearest the answer.
    double low = -40.0, high = 40.0;
    for (int i = 0; i < 200 && high - low > 0.0; ++i) {
        const double mid = low + (high - low) / 2.0;
        if (mid == low || mid == high) break;
        (normal_upper_tail(mid) > upper_tail ? low : high) = mid;
    }
    return low + (high - low) / 2.0;
}

MedianRanks median_ranks(std::size_t n, double confidence) {
    if (!(confidence > 0.0 && confidence < 1.0))
        throw std::invalid_argument("gpuchrono::median_ranks: confidence must be in (0, 1), got " + number(confidence));
    MedianRanks r;
    if (n == 0) return r;
    const double half_alpha = (1.0 - confidence) / 2.0;
    const std::size_t deepest = (n + 1) / 2;  // lower <= upper
    std::size_t lower = 0;                     // the largest l with P(X <= l - 1) <= alpha / 2, 0: none
    if (n <= exact_binomial_limit) {
        while (lower < deepest && binomial_half_cdf(n, lower) <= half_alpha) ++lower;
    } else {
        const double z = normal_upper_quantile(half_alpha);
        const double l = std::floor(static_cast<double>(n) / 2.0 + 0.5 - z * std::sqrt(static_cast<double>(n)) / 2.0);
        lower = static_cast<std::size_t>(std::clamp(l, 0.0, static_cast<double>(deepest)));
        // The approximation may be one rank off: step to the exact criterion of the approximated cdf.
        while (lower > 0 && binomial_half_cdf(n, lower - 1) > half_alpha) --lower;
        while (lower < deepest && binomial_half_cdf(n, lower) <= half_alpha) ++lower;
    }
    r.reaches_confidence = lower >= 1;
    r.lower = std::max<std::size_t>(lower, 1);
    r.upper = n + 1 - r.lower;
    r.coverage = std::max(0.0, 1.0 - 2.0 * binomial_half_cdf(n, r.lower - 1));
    return r;
}

double MedianInterval::relative_width() const noexcept {
    if (samples == 0) return nan;
    const double width = high_ns - low_ns;
    if (width == 0.0) return 0.0;
    if (median_ns == 0.0) return std::numeric_limits<double>::infinity();
    return width / std::fabs(median_ns);
}

MedianInterval median_interval(std::span<const double> samples_ns, double confidence) {
    MedianInterval out;
    const MedianRanks ranks = median_ranks(samples_ns.size(), confidence);
    out.samples = samples_ns.size();
    out.coverage = ranks.coverage;
    out.reaches_confidence = ranks.reaches_confidence;
    if (samples_ns.empty()) {
        out.median_ns = out.low_ns = out.high_ns = nan;
        return out;
    }
    std::vector<double> v(samples_ns.begin(), samples_ns.end());
    for (std::size_t i = 0; i < v.size(); ++i)
        if (std::isnan(v[i]))
            throw std::invalid_argument("gpuchrono::median_interval: sample " + std::to_string(i) + " is NaN");
    // Three selections instead of a sort: the middle first, then each bound inside its own half.
    const std::size_t n = v.size();
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(v.begin(), mid, v.end());
    double median = *mid;
    if (n % 2 == 0) median = std::midpoint(*std::max_element(v.begin(), mid), *mid);
    const auto lower_at = v.begin() + static_cast<std::ptrdiff_t>(ranks.lower - 1);
    const auto upper_at = v.begin() + static_cast<std::ptrdiff_t>(ranks.upper - 1);
    if (lower_at < mid) std::nth_element(v.begin(), lower_at, mid);
    if (upper_at > mid) std::nth_element(mid + 1, upper_at, v.end());
    out.median_ns = median;
    out.low_ns = *lower_at;
    out.high_ns = *upper_at;
    return out;
}

void StoppingRule::validate() const {
    const auto refuse = [](const std::string& what) {
        throw std::invalid_argument("gpuchrono::measure: " + what);
    };
    if (!(target_relative_width > 0.0) || !std::isfinite(target_relative_width))
        refuse("target_relative_width must be a positive finite ratio (0.01 is 1%), got " + number(target_relative_width));
    if (!(confidence > 0.0 && confidence < 1.0)) refuse("confidence must be in (0, 1), got " + number(confidence));
    if (min_samples < 1) refuse("min_samples must be at least 1");
    if (max_samples < min_samples)
        refuse("max_samples (" + std::to_string(max_samples) + ") is below min_samples (" + std::to_string(min_samples) + ")");
    if (!(min_time.ns() >= 0.0) || !min_time.is_finite()) refuse("min_time must be finite and >= 0, got " + to_string(min_time));
    if (!(max_time > min_time) || !max_time.is_finite())
        refuse("max_time (" + to_string(max_time) + ") must be finite and above min_time (" + to_string(min_time) + ")");
}

const char* to_string(StopReason r) noexcept {
    switch (r) {
        case StopReason::running: return "running";
        case StopReason::converged: return "converged";
        case StopReason::max_samples: return "max-samples";
        case StopReason::max_time: return "max-time";
    }
    return "unknown";
}

StopDecision decide(const StoppingRule& rule, std::span<const double> samples_ns, Duration elapsed) {
    StopDecision d;
    d.interval = median_interval(samples_ns, rule.confidence);
    const double width = d.interval.relative_width();
    d.converged = d.interval.reaches_confidence && width <= rule.target_relative_width;
    const std::size_t n = samples_ns.size();
    if (d.converged && n >= rule.min_samples && elapsed >= rule.min_time) {
        d.stop = true;
        d.reason = StopReason::converged;
    } else if (n >= rule.max_samples) {
        d.stop = true;
        d.reason = StopReason::max_samples;
    } else if (elapsed >= rule.max_time) {
        d.stop = true;
        d.reason = StopReason::max_time;
    }
    return d;
}

}  // namespace gpuchrono
