// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/measure/sequential_compare.hpp>
#include "stats/hodges_lehmann.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

std::string signed_percent(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%+.3g%%", ratio * 100.0);
    return text;
}

std::string percent(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g%%", ratio * 100.0);
    return text;
}

}  // namespace

void SequentialCompareOptions::validate() const {
    SequentialTestOptions{threshold, confidence, pilot_blocks}.validate();
    if (!(max_time.ns() > 0.0) || !max_time.is_finite())
        throw std::invalid_argument("gpuchrono::compare: max_time must be positive and finite, got " + to_string(max_time));
    if (method != Method::automatic && method != Method::kernel && method != Method::event)
        throw std::invalid_argument(std::string("gpuchrono::compare: method ") + to_string(method) +
                                    " cannot interleave single calls; use automatic, kernel or event "
                                    "(or measure() each side and compare the two Series)");
    if (cache != CacheState::warm && cache != CacheState::cold)
        throw std::invalid_argument("gpuchrono::compare: cache holds no CacheState value");
    if (!(warmup_min_time.ns() >= 0.0) || !warmup_max_time.is_finite() || warmup_max_time < warmup_min_time)
        throw std::invalid_argument("gpuchrono::compare: warmup_min_time (" + to_string(warmup_min_time) +
                                    ") and warmup_max_time (" + to_string(warmup_max_time) +
                                    ") must be finite, >= 0 and in that order");
}

SequentialComparison sequential_result(const SequentialTest& test, const std::string& name_a, const std::string& name_b) {
    SequentialComparison c;
    c.name_a = name_a;
    c.name_b = name_b;
    c.verdict = test.verdict();
    c.change = test.change();
    c.change_low = test.change_low();
    c.change_high = test.change_high();
    c.confidence = test.options().confidence;
    c.threshold = test.options().threshold;
    c.looks = test.looks();
    c.blocks = test.blocks();
    c.samples_a = test.samples_a();
    c.samples_b = test.samples_b();
    c.clipped = test.clipped();
    c.clip_range = test.clip_range();
    if (c.samples_a) c.median_a = Duration::from_ns(test.median_a_ns());
    if (c.samples_b) c.median_b = Duration::from_ns(test.median_b_ns());
    c.drift_a = test.drift_a();
    c.drift_b = test.drift_b();
    c.plain_change = c.plain_low = c.plain_high = std::nan("");
    if (c.samples_a && c.samples_b) {
        std::vector<double> log_a, log_b;
        for (double v : test.samples_a_ns()) log_a.push_back(std::log(v));
        for (double v : test.samples_b_ns()) log_b.push_back(std::log(v));
        const ShiftEstimate plain = hodges_lehmann(log_a, log_b, c.confidence);
        c.plain_change = std::expm1(plain.estimate);
        if (plain.reaches_confidence) {
            c.plain_low = std::expm1(plain.low);
            c.plain_high = std::expm1(plain.high);
        }
    }

    const std::string t = percent(c.threshold);
    // The effect first, as the samples show it; then the anytime-valid interval that decided, which is wider by
    // design and reads as the effect's uncertainty only at the cost of confusion ("+1648% [+1.41%, +1720%]").
    const std::string samples = std::to_string(c.samples_a) + " + " + std::to_string(c.samples_b) + " samples";
    std::string effect;
    if (std::isnan(c.plain_change))
        effect = "no samples yet; ";
    else if (std::isnan(c.plain_low))
        effect = signed_percent(c.plain_change) + " over " + samples + " (too few for a " + percent(c.confidence) +
                 " interval); ";
    else
        effect = signed_percent(c.plain_change) + " [" + signed_percent(c.plain_low) + ", " +
                 signed_percent(c.plain_high) + "] over " + samples + "; ";
    const std::string interval = effect + "decided on " + signed_percent(c.change) + " [" +
                                 signed_percent(c.change_low) + ", " + signed_percent(c.change_high) + "] at " +
                                 percent(c.confidence) + " over every look";
    const std::string after = ", after " + std::to_string(c.looks) + " looks";
    switch (c.verdict) {
        case Verdict::slower:
            c.reason = "slower: \"" + name_b + "\" against \"" + name_a + "\" " + interval + ", above 0 and not within +-" + t + after;
            break;
        case Verdict::faster:
            c.reason = "faster: \"" + name_b + "\" against \"" + name_a + "\" " + interval + ", below 0 and not within +-" + t + after;
            break;
        case Verdict::no_difference:
            c.reason = "no difference: \"" + name_b + "\" against \"" + name_a + "\" " + interval + ", within +-" + t + after;
            break;
        case Verdict::inconclusive:
            c.reason = "inconclusive: \"" + name_b + "\" against \"" + name_a + "\" " +
                       (c.looks ? interval + ", " + percent(c.change_high - c.change_low) + " wide"
                                : effect + "no look yet") +
                       after;
            break;
    }
    if (c.clipped)
        c.notes.push_back(std::to_string(c.clipped) + " of " + std::to_string(c.looks) + " block ratios clipped to +-" +
                          percent(std::expm1(c.clip_range)) + " (outliers)");
    for (const auto& [drift, name] : {std::pair{c.drift_a, &name_a}, std::pair{c.drift_b, &name_b}})
        if (std::abs(drift) >= c.threshold / 2.0)
            c.notes.push_back("\"" + *name + "\" drifted " + signed_percent(drift) +
                              " across the comparison (the environment moved; interleaving cancels it in the verdict)");
    return c;
}

std::ostream& operator<<(std::ostream& os, const SequentialComparison& c) {
    os << c.reason << "; medians " << to_string(c.median_a) << " and " << to_string(c.median_b) << "; drift "
       << signed_percent(c.drift_a) << " and " << signed_percent(c.drift_b) << "; " << to_string(c.sampling_time)
       << " sampling, " << to_string(c.wall_time) << " in all";
    for (const std::string& n : c.notes) os << "; " << n;
    return os;
}

}  // namespace gpuchrono
