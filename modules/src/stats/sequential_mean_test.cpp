// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/stats/sequential_mean_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gpuchrono {

namespace {

double median_of(std::vector<double> v) {
    if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2 == 1) return upper;
    return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2.0;
}

double mean_log(std::span<const double> ns, const char* side) {
    if (ns.empty())
        throw std::invalid_argument(std::string("gpuchrono::SequentialTest: a block holds no sample of ") + side);
    double sum = 0.0;
    for (const double v : ns) {
        if (!(v > 0.0) || !std::isfinite(v))
            throw std::invalid_argument(std::string("gpuchrono::SequentialTest: a sample of ") + side +
                                        " is not a positive finite time (" + std::to_string(v) + " ns)");
        sum += std::log(v);
    }
    return sum / static_cast<double>(ns.size());
}

// Scaled so that it estimates the standard deviation of normal data.
constexpr double mad_to_sigma = 1.4826;
// Range: the pilot's centre plus this many robust deviations, and never under 1.5 times the threshold, so a change
// at the threshold sits well inside it (clipping there would pull the change towards 0).
constexpr double range_deviations = 6.0;
constexpr double range_thresholds = 1.5;

}  // namespace

void SequentialTestOptions::validate() const {
    if (!(threshold > 0.0) || !std::isfinite(threshold))
        throw std::invalid_argument("gpuchrono::compare: threshold must be positive and finite (a relative change such as "
                                    "0.01 for 1%), got " + std::to_string(threshold));
    if (!(confidence > 0.0 && confidence < 1.0))
        throw std::invalid_argument("gpuchrono::compare: confidence must be in (0, 1), got " + std::to_string(confidence));
    if (pilot_blocks < 4)
        throw std::invalid_argument("gpuchrono::compare: pilot_blocks must be at least 4, got " + std::to_string(pilot_blocks));
}

std::optional<Verdict> sequential_verdict(double low, double high, double t) noexcept {
    if (low > -t && high < t) return Verdict::no_difference;
    if (low > 0.0) return Verdict::slower;
    if (high < 0.0) return Verdict::faster;
    return std::nullopt;
}

SequentialTest::SequentialTest(const SequentialTestOptions& options) : options_(options) { options_.validate(); }

bool SequentialTest::add_block(std::span<const double> a_ns, std::span<const double> b_ns) {
    if (verdict_) throw std::logic_error("gpuchrono::SequentialTest: a block after the verdict");
    const double la = mean_log(a_ns, "A");
    const double lb = mean_log(b_ns, "B");
    a_ns_.insert(a_ns_.end(), a_ns.begin(), a_ns.end());
    b_ns_.insert(b_ns_.end(), b_ns.begin(), b_ns.end());
    log_a_.push_back(la);
    log_b_.push_back(lb);
    d_.push_back(lb - la);
    if (!cs_) {
        if (d_.size() == options_.pilot_blocks) start_sequence();
        return false;
    }
    cs_->add(d_.back());
    verdict_ = sequential_verdict(change_low(), change_high(), options_.threshold);
    return verdict_.has_value();
}

void SequentialTest::start_sequence() {
    const double centre = median_of(d_);
    std::vector<double> dev(d_.size());
    std::transform(d_.begin(), d_.end(), dev.begin(), [&](double d) { return std::abs(d - centre); });
    const double spread = mad_to_sigma * median_of(dev);
    const double range = std::abs(centre) + std::max(range_deviations * spread, range_thresholds * std::log1p(options_.threshold));
    cs_.emplace(range, 1.0 - options_.confidence);
}

double SequentialTest::change() const noexcept { return cs_ && cs_->count() ? std::expm1(cs_->centre()) : std::expm1(median_of(d_)); }
double SequentialTest::change_low() const noexcept { return cs_ && cs_->count() ? std::expm1(cs_->low()) : -1.0; }
double SequentialTest::change_high() const noexcept {
    return cs_ && cs_->count() ? std::expm1(cs_->high()) : std::numeric_limits<double>::infinity();
}

double SequentialTest::blocks_to_decide() const noexcept {
    if (verdict_) return 0.0;
    if (!cs_) return static_cast<double>(options_.pilot_blocks - d_.size());
    // On the log scale the sequence works on: the centre, the half-width needed to end on either side of 0
    // (|centre|) or inside the band (band - |centre|), whichever is wider, and the half-width now.
    const bool looked = cs_->count() > 0;
    const double centre = looked ? (cs_->low() + cs_->high()) / 2.0 : median_of(d_);
    const double band = std::log1p(options_.threshold);
    const double needed = std::max(std::abs(centre), band - std::abs(centre));
    if (!looked) return BernsteinSequence::looks_for_half_width(cs_->range(), cs_->alpha(), needed);
    const double now = (cs_->high() - cs_->low()) / 2.0;
    const double n = static_cast<double>(cs_->count());
    return std::max(0.0, n * now / needed - n);
}

double SequentialTest::drift(const std::vector<double>& y) noexcept {
    const std::size_t n = y.size();
    if (n < 2) return 0.0;
    const double mean_x = (static_cast<double>(n) - 1.0) / 2.0;
    double mean_y = 0.0;
    for (const double v : y) mean_y += v;
    mean_y /= static_cast<double>(n);
    double sxy = 0.0, sxx = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double dx = static_cast<double>(i) - mean_x;
        sxy += dx * (y[i] - mean_y);
        sxx += dx * dx;
    }
    return std::expm1(sxy / sxx * (static_cast<double>(n) - 1.0));
}

double SequentialTest::median_a_ns() const { return median_of(a_ns_); }
double SequentialTest::median_b_ns() const { return median_of(b_ns_); }

}  // namespace gpuchrono
