// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/measure/compare.hpp>
#include "stats/hodges_lehmann.hpp"
#include <gpuchrono/measure/measure_record.hpp>
#include "stats/rank_sum_test.hpp"

#include "change_text.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono {

namespace {

std::vector<double> logs(std::span<const double> ns, const char* which) {
    std::vector<double> out;
    out.reserve(ns.size());
    for (std::size_t i = 0; i < ns.size(); ++i) {
        if (!(ns[i] > 0.0) || !std::isfinite(ns[i]))
            throw std::invalid_argument(std::string("gpuchrono::compare: sample ") + std::to_string(i) + " of " + which +
                                        " is " + detail::three_digits(ns[i]) + " ns: durations must be positive and finite");
        out.push_back(std::log(ns[i]));
    }
    return out;
}

double median_of(std::span<const double> ns) {
    std::vector<double> v(ns.begin(), ns.end());
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (v.size() % 2 == 1) return *mid;
    return std::midpoint(*std::max_element(v.begin(), mid), *mid);
}

}  // namespace

void CompareOptions::validate() const {
    if (!(threshold >= 0.0) || !std::isfinite(threshold))
        throw std::invalid_argument("gpuchrono::compare: threshold must be a finite ratio >= 0 (0.01 is 1%), got " +
                                    detail::three_digits(threshold));
    if (!(confidence > 0.0 && confidence < 1.0))
        throw std::invalid_argument("gpuchrono::compare: confidence must be in (0, 1), got " + detail::three_digits(confidence));
}

Verdict verdict_for(double change, double change_low, double change_high, double p_value, const CompareOptions& o) {
    const bool significant = p_value < 1.0 - o.confidence;
    if (significant && change >= o.threshold) return Verdict::slower;
    if (significant && change <= -o.threshold) return Verdict::faster;
    if (change_low >= -o.threshold && change_high <= o.threshold) return Verdict::no_difference;
    return Verdict::inconclusive;
}

Comparison compare_samples(std::span<const double> a_ns, std::span<const double> b_ns, const CompareOptions& options) {
    options.validate();
    if (a_ns.empty() || b_ns.empty())
        throw std::invalid_argument(std::string("gpuchrono::compare: series ") + (a_ns.empty() ? "A" : "B") +
                                    " has no samples");
    const std::vector<double> log_a = logs(a_ns, "A");
    const std::vector<double> log_b = logs(b_ns, "B");
    const ShiftEstimate shift = hodges_lehmann(log_a, log_b, options.confidence);
    const RankTest test = mann_whitney(a_ns, b_ns);

    Comparison c;
    c.samples_a = a_ns.size();
    c.samples_b = b_ns.size();
    c.median_a = Duration::from_ns(median_of(a_ns));
    c.median_b = Duration::from_ns(median_of(b_ns));
    c.change = std::expm1(shift.estimate);
    c.change_low = std::expm1(shift.low);
    c.change_high = std::expm1(shift.high);
    c.coverage = shift.coverage;
    c.p_value = test.p_value;
    c.u = test.u;
    c.exact_test = test.exact;
    c.verdict = verdict_for(c.change, c.change_low, c.change_high, c.p_value, options);
    const std::string figures = detail::change_with_interval(c.change, c.change_low, c.change_high) + " at " +
                                detail::three_digits(100 * options.confidence) + "%, p = " + detail::three_digits(c.p_value);
    const std::string t = detail::three_digits(100 * options.threshold) + "%";
    switch (c.verdict) {
        case Verdict::slower:
        case Verdict::faster:
            c.reason = std::string(to_string(c.verdict)) + " by " + figures + ": significant and at least " + t;
            break;
        case Verdict::no_difference:
            c.reason = "no difference larger than " + t + ": " + figures;
            break;
        case Verdict::inconclusive:
            c.reason = "inconclusive: " + figures + (shift.reaches_confidence ? std::string()
                                                                              : " (too few samples for the interval)") +
                       ": the interval reaches past " + t + " without a significant change of " + t + " or more";
            break;
    }
    return c;
}

SeriesOrigin origin_of(const Series& s) {
    SeriesOrigin o;
    if (const auto& r = s.measure_record()) {
        o.method = to_string(r->method);
        o.cache = to_string(r->cache);
        o.device = "device " + std::to_string(r->device);
        return o;
    }
    o.cache = "unknown";
    int device = -2;
    for (const Measurement& m : s.measurements()) {
        const std::string policy(m.policy());
        o.method = o.method.empty() || o.method == policy ? policy : "mixed";
        device = device == -2 || device == m.device() ? m.device() : -3;
    }
    if (o.method.empty()) o.method = "none";
    o.device = device == -3 ? "mixed devices" : "device " + std::to_string(device < 0 ? -1 : device);
    return o;
}

std::vector<std::string> check_comparable(const SeriesOrigin& a, const SeriesOrigin& b, const CompareOptions& o) {
    std::vector<std::string> notes;
    const auto check = [&](const std::string& what, const std::string& x, const std::string& y, bool allowed,
                           const char* option, const char* why) {
        if (x == y) return;
        const std::string difference = "the series were measured with different " + what + " (" + x + " vs " + y + ")";
        if (!allowed)
            throw std::invalid_argument("gpuchrono::compare refused: " + difference + ": " + why +
                                        "; set CompareOptions::" + option + " to compare them anyway");
        notes.push_back(difference + ", allowed by " + option);
    };
    check("methods", a.method, b.method, o.allow_different_methods, "allow_different_methods",
          "each method adds its own overhead (an event pair adds microseconds a graph replay does not)");
    check("cache states", a.cache, b.cache, o.allow_different_cache_states, "allow_different_cache_states",
          "a cold L2 makes memory-bound kernels slower by up to 2x");
    check("devices", a.device, b.device, o.allow_different_devices, "allow_different_devices",
          "two GPUs differ in clocks and memory even when they are the same model");
    return notes;
}

Comparison compare(const Series& a, const Series& b, const CompareOptions& options) {
    std::vector<std::string> notes = check_comparable(origin_of(a), origin_of(b), options);
    const auto values = [](const Series& s) {
        std::vector<double> ns;
        for (const Duration d : s.durations()) ns.push_back(d.ns());
        if (ns.empty())
            throw std::invalid_argument("gpuchrono::compare: series \"" + s.name() + "\" has no successful sample" +
                                        (s.failed_count() ? " (" + std::to_string(s.failed_count()) +
                                                                " failed: " + s.first_error() + ")"
                                                          : std::string()));
        return ns;
    };
    Comparison c = compare_samples(values(a), values(b), options);
    c.name_a = a.name();
    c.name_b = b.name();
    for (const Series* s : {&a, &b})
        if (const auto& r = s->measure_record(); r && r->flagged > r->excluded)
            notes.push_back("\"" + s->name() + "\" holds " + std::to_string(r->flagged - r->excluded) +
                            " samples taken under a low or capped SM clock");
    c.notes = std::move(notes);
    return c;
}

}  // namespace gpuchrono
