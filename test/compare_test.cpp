// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// compare() without a GPU: the Mann-Whitney test and the Hodges-Lehmann interval against hand-computed and
// tabulated answers and brute force (ties included), the error rates on synthetic samples (under no change
// the verdict is faster or slower at most 5% of the time; a 2% change is found), the verdict rules, and the
// refusal of series of different methods, cache states or devices.
#include <gpuchrono/measure/compare.hpp>
#include "stats/hodges_lehmann.hpp"
#include <gpuchrono/measure/measure_record.hpp>
#include "stats/rank_sum_test.hpp"
#include "report/compare/report_comparison.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using gpuchrono::Duration;

std::vector<double> brute_force_differences(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> d;
    for (double x : a)
        for (double y : b) d.push_back(y - x);
    std::sort(d.begin(), d.end());
    return d;
}

gpuchrono::Series series_of(const char* name, const std::vector<double>& ns, gpuchrono::Method method,
                            gpuchrono::CacheState cache, int device) {
    gpuchrono::Series s(name);
    for (double v : ns) s.add(gpuchrono::Measurement::completed(gpuchrono::to_string(method), Duration::from_ns(v), device));
    auto r = std::make_shared<gpuchrono::MeasureRecord>();
    r->method = method;
    r->cache = cache;
    r->device = device;
    s.set_measure_record(r);
    return s;
}

std::string refusal(const gpuchrono::Series& a, const gpuchrono::Series& b, const gpuchrono::CompareOptions& o = {}) {
    try {
        gpuchrono::compare(a, b, o);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare)

BOOST_AUTO_TEST_CASE(exact_rank_test_of_separated_sets) {
    const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
    const gpuchrono::RankTest t = gpuchrono::mann_whitney(a, b);
    BOOST_TEST(t.exact);
    BOOST_TEST(t.u == 9.0);                                         // every pair has b > a
    BOOST_TEST(t.p_value == 0.1, boost::test_tools::tolerance(1e-12));  // 2 / C(6, 3)
    const std::vector<double> c{1, 2, 3, 4, 5}, d{6, 7, 8, 9, 10};
    BOOST_TEST(gpuchrono::mann_whitney(c, d).p_value == 2.0 / 252.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gpuchrono::mann_whitney(d, c).u == 0.0);
}

BOOST_AUTO_TEST_CASE(u_distribution_counts_every_ordering) {
    const std::vector<double> counts = gpuchrono::u_counts(3, 3);
    BOOST_TEST(counts.size() == 10u);
    double total = 0;
    for (double c : counts) total += c;
    BOOST_TEST(total == 20.0);  // C(6, 3)
    // Symmetric, and U = 0 or 9 by exactly one ordering each.
    BOOST_TEST(counts.front() == 1.0);
    BOOST_TEST(counts.back() == 1.0);
    for (std::size_t u = 0; u < counts.size(); ++u) BOOST_TEST(counts[u] == counts[counts.size() - 1 - u]);
}

BOOST_AUTO_TEST_CASE(rank_test_with_ties_uses_the_corrected_variance) {
    // Mid-ranks 1.5 1.5 3.5 3.5 5.5 5.5: U = 8.5, var = 9/12 (7 - 18/30) = 4.8, z = (4 - 0.5) / sqrt(4.8).
    const std::vector<double> a{1, 1, 2}, b{2, 3, 3};
    const gpuchrono::RankTest t = gpuchrono::mann_whitney(a, b);
    BOOST_TEST(t.ties);
    BOOST_TEST(!t.exact);
    BOOST_TEST(t.u == 8.5);
    BOOST_TEST(t.z == 3.5 / std::sqrt(4.8), boost::test_tools::tolerance(1e-12));
    BOOST_TEST(t.p_value == std::erfc(3.5 / std::sqrt(4.8) / std::sqrt(2.0)), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(rank_test_of_identical_and_constant_sets) {
    const std::vector<double> constant(30, 5.0);
    BOOST_TEST(gpuchrono::mann_whitney(constant, constant).p_value == 1.0);
    const std::vector<double> one{5.0};
    BOOST_TEST(gpuchrono::mann_whitney(one, one).p_value == 1.0);
    BOOST_CHECK_THROW(gpuchrono::mann_whitney(std::vector<double>{}, one), std::invalid_argument);
    BOOST_CHECK_THROW(gpuchrono::mann_whitney(one, std::vector<double>{std::nan("")}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(rank_test_rejects_at_its_level_under_the_null) {
    // 2000 pairs of sets of 30 from one lognormal distribution, rounded to 32 ns steps (ties): the test rejects
    // at alpha = 5% about 5% of the time; with no rounding (exact test for 15 vs 15) likewise.
    std::mt19937_64 rng(2024);
    std::lognormal_distribution<double> ln(std::log(10000.0), 0.05);
    int rejected = 0, rejected_exact = 0;
    const int trials = 2000;
    for (int t = 0; t < trials; ++t) {
        std::vector<double> a, b, c, d;
        for (int i = 0; i < 30; ++i) {
            a.push_back(std::round(ln(rng) / 32) * 32);
            b.push_back(std::round(ln(rng) / 32) * 32);
        }
        for (int i = 0; i < 15; ++i) {
            c.push_back(ln(rng));
            d.push_back(ln(rng));
        }
        rejected += gpuchrono::mann_whitney(a, b).p_value < 0.05;
        rejected_exact += gpuchrono::mann_whitney(c, d).p_value < 0.05;
    }
    BOOST_TEST(rejected / double(trials) < 0.065);
    BOOST_TEST(rejected / double(trials) > 0.025);
    BOOST_TEST(rejected_exact / double(trials) < 0.065);
    BOOST_TEST(rejected_exact / double(trials) > 0.025);
}

BOOST_AUTO_TEST_CASE(kth_difference_matches_brute_force_with_ties) {
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> small(0, 12);  // many ties
    for (int round = 0; round < 20; ++round) {
        std::vector<double> a, b;
        for (int i = 0; i < 1 + round % 7; ++i) a.push_back(small(rng));
        for (int i = 0; i < 1 + round % 5 * 3; ++i) b.push_back(small(rng) * 0.5 + 0.25);
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        const std::vector<double> all = brute_force_differences(a, b);
        for (std::size_t k = 1; k <= all.size(); ++k)
            BOOST_TEST(gpuchrono::kth_pairwise_difference(a, b, static_cast<double>(k)) == all[k - 1],
                       "round " << round << ", k = " << k);
    }
    const std::vector<double> a{1.0}, b{2.0};
    BOOST_CHECK_THROW(gpuchrono::kth_pairwise_difference(a, b, 2.0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(hodges_lehmann_estimate_and_tabulated_interval) {
    const std::vector<double> a{1, 2, 3}, b{11, 12, 13};
    BOOST_TEST(gpuchrono::hodges_lehmann(a, b).estimate == 10.0);  // differences 8..12, median 10
    // m = n = 10, no ties: the critical U at 5% two-sided is 23 (tables), so the interval is the 24th and the
    // 77th of the 100 differences.
    std::vector<double> x, y;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int i = 0; i < 10; ++i) {
        x.push_back(u(rng));
        y.push_back(u(rng) + 0.3);
    }
    const gpuchrono::ShiftEstimate s = gpuchrono::hodges_lehmann(x, y);
    const std::vector<double> d = brute_force_differences(x, y);
    BOOST_TEST(s.reaches_confidence);
    BOOST_TEST(s.low == d[23]);
    BOOST_TEST(s.high == d[76]);
    BOOST_TEST(s.estimate == (d[49] + d[50]) / 2);
    BOOST_TEST(s.coverage >= 0.95);
}

BOOST_AUTO_TEST_CASE(hodges_lehmann_of_one_sample_each_has_no_finite_interval) {
    const std::vector<double> a{100.0}, b{103.0};
    const gpuchrono::ShiftEstimate s = gpuchrono::hodges_lehmann(a, b);
    BOOST_TEST(s.estimate == 3.0);
    BOOST_TEST(!s.reaches_confidence);
    BOOST_TEST(std::isinf(s.low));
    BOOST_TEST(std::isinf(s.high));
}

BOOST_AUTO_TEST_CASE(hodges_lehmann_handles_large_sets_without_forming_all_pairs) {
    // 20000 x 20000 = 4e8 differences: selected, never formed. Shift of exactly 7 with identical shapes.
    std::vector<double> a, b;
    std::mt19937_64 rng(1);
    std::normal_distribution<double> n(0.0, 1.0);
    for (int i = 0; i < 20000; ++i) {
        const double v = n(rng);
        a.push_back(v);
        b.push_back(n(rng) + 7.0);
    }
    const gpuchrono::ShiftEstimate s = gpuchrono::hodges_lehmann(a, b);
    BOOST_TEST(s.estimate == 7.0, boost::test_tools::tolerance(0.003));
    BOOST_TEST(s.low < s.estimate);
    BOOST_TEST(s.high > s.estimate);
    BOOST_TEST(s.high - s.low < 0.06);  // about 2 x 1.96 x sqrt(2 / 20000) x 1.02
}

BOOST_AUTO_TEST_CASE(relative_change_of_scaled_samples) {
    std::vector<double> a, b;
    std::mt19937_64 rng(17);
    std::lognormal_distribution<double> ln(std::log(10000.0), 0.002);
    for (int i = 0; i < 200; ++i) {
        a.push_back(ln(rng));
        b.push_back(ln(rng) * 1.05);
    }
    const gpuchrono::Comparison c = gpuchrono::compare_samples(a, b);
    BOOST_TEST(c.change == 0.05, boost::test_tools::tolerance(0.01));  // relative tolerance on 5%
    BOOST_TEST(c.change_low < c.change);
    BOOST_TEST(c.change_high > c.change);
    BOOST_TEST(c.p_value < 1e-6);
    BOOST_TEST((c.verdict == gpuchrono::Verdict::slower));
    const gpuchrono::Comparison back = gpuchrono::compare_samples(b, a);
    BOOST_TEST((back.verdict == gpuchrono::Verdict::faster));
    BOOST_TEST(back.change == 1.0 / 1.05 - 1.0, boost::test_tools::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(heavy_tails_do_not_move_the_change) {
    // 10% of B's samples are 10x outliers (preemption, a host hiccup): the median change stays near 0.
    std::vector<double> a, b;
    std::mt19937_64 rng(23);
    std::lognormal_distribution<double> ln(std::log(10000.0), 0.001);
    for (int i = 0; i < 300; ++i) {
        a.push_back(ln(rng));
        b.push_back(i % 10 == 0 ? 100000.0 : ln(rng));
    }
    const gpuchrono::Comparison c = gpuchrono::compare_samples(a, b);
    BOOST_TEST(std::fabs(c.change) < 0.002);
    BOOST_TEST((c.verdict != gpuchrono::Verdict::slower));
}

BOOST_AUTO_TEST_CASE(constant_and_single_samples) {
    const std::vector<double> constant(20, 5000.0);
    const gpuchrono::Comparison same = gpuchrono::compare_samples(constant, constant);
    BOOST_TEST(same.change == 0.0);
    BOOST_TEST(same.p_value == 1.0);
    BOOST_TEST((same.verdict == gpuchrono::Verdict::no_difference));
    const std::vector<double> one{5000.0}, other{6000.0};
    const gpuchrono::Comparison single = gpuchrono::compare_samples(one, other);
    BOOST_TEST((single.verdict == gpuchrono::Verdict::inconclusive));  // 20% apart, but one sample each
    BOOST_TEST(std::isinf(single.change_high));
    BOOST_CHECK_THROW(gpuchrono::compare_samples(one, std::vector<double>{0.0}), std::invalid_argument);
    BOOST_CHECK_THROW(gpuchrono::compare_samples(one, std::vector<double>{}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(verdict_rules) {
    const gpuchrono::CompareOptions o;  // 1%, 95%
    BOOST_TEST((gpuchrono::verdict_for(0.02, 0.015, 0.025, 0.001, o) == gpuchrono::Verdict::slower));
    BOOST_TEST((gpuchrono::verdict_for(-0.02, -0.025, -0.015, 0.001, o) == gpuchrono::Verdict::faster));
    // Significant but below the threshold, and the interval inside it: no difference that matters.
    BOOST_TEST((gpuchrono::verdict_for(0.004, 0.002, 0.006, 0.001, o) == gpuchrono::Verdict::no_difference));
    // Large but not significant: cannot tell.
    BOOST_TEST((gpuchrono::verdict_for(0.03, -0.01, 0.07, 0.2, o) == gpuchrono::Verdict::inconclusive));
    // Significant, under the threshold, interval past it: cannot rule out a change that matters.
    BOOST_TEST((gpuchrono::verdict_for(0.008, 0.005, 0.012, 0.001, o) == gpuchrono::Verdict::inconclusive));
}

BOOST_AUTO_TEST_CASE(false_verdicts_stay_under_five_percent_and_two_percent_is_found) {
    // Synthetic GPU-like series: lognormal with 0.3% spread, 32 ns steps, 30 samples each.
    std::mt19937_64 rng(31337);
    std::lognormal_distribution<double> ln(std::log(10860.0), 0.003);
    const auto draw = [&](double scale) {
        std::vector<double> v;
        for (int i = 0; i < 30; ++i) v.push_back(std::round(ln(rng) * scale / 32) * 32);
        return v;
    };
    int false_verdicts = 0, detected = 0;
    const int trials = 500;
    for (int t = 0; t < trials; ++t) {
        const auto aa = gpuchrono::compare_samples(draw(1.0), draw(1.0));
        false_verdicts += aa.verdict == gpuchrono::Verdict::faster || aa.verdict == gpuchrono::Verdict::slower;
        detected += gpuchrono::compare_samples(draw(1.0), draw(1.02)).verdict == gpuchrono::Verdict::slower;
    }
    BOOST_TEST(false_verdicts / double(trials) <= 0.05);
    BOOST_TEST(detected / double(trials) >= 0.95);
}

BOOST_AUTO_TEST_CASE(refuses_series_of_different_methods_cache_states_or_devices) {
    using gpuchrono::CacheState;
    using gpuchrono::Method;
    const std::vector<double> v{1000, 1010, 990, 1005, 995, 1000, 1002, 998, 1001, 999};
    const auto graph = series_of("a", v, Method::graph, CacheState::warm, 0);
    const auto event = series_of("b", v, Method::event, CacheState::warm, 0);
    const auto cold = series_of("c", v, Method::graph, CacheState::cold, 0);
    const auto other_gpu = series_of("d", v, Method::graph, CacheState::warm, 1);
    BOOST_TEST(refusal(graph, graph).empty());
    const std::string methods = refusal(graph, event);
    BOOST_TEST(methods.find("different methods (graph vs event)") != std::string::npos, methods);
    BOOST_TEST(methods.find("allow_different_methods") != std::string::npos);
    BOOST_TEST(refusal(graph, cold).find("cache states (warm vs cold)") != std::string::npos);
    BOOST_TEST(refusal(graph, other_gpu).find("devices (device 0 vs device 1)") != std::string::npos);
    gpuchrono::CompareOptions allow;
    allow.allow_different_methods = true;
    BOOST_TEST(refusal(graph, event, allow).empty());
    const gpuchrono::Comparison c = gpuchrono::compare(graph, event, allow);
    BOOST_TEST(c.notes.size() == 1u);
    BOOST_TEST(c.name_a == "a");
    BOOST_TEST((c.verdict == gpuchrono::Verdict::no_difference || c.verdict == gpuchrono::Verdict::inconclusive));
}

BOOST_AUTO_TEST_CASE(series_without_a_record_compare_by_policy) {
    gpuchrono::Series a("a"), b("b");
    for (int i = 0; i < 20; ++i) {
        a.add(gpuchrono::Measurement::completed("event", Duration::from_us(10 + i * 0.01), 0));
        b.add(gpuchrono::Measurement::completed("host-sync", Duration::from_us(10 + i * 0.01), 0));
    }
    BOOST_TEST(gpuchrono::origin_of(a).method == "event");
    BOOST_TEST(gpuchrono::origin_of(a).cache == "unknown");
    BOOST_TEST(refusal(a, b).find("event vs host-sync") != std::string::npos);
    BOOST_TEST(refusal(a, a).empty());
}

BOOST_AUTO_TEST_CASE(saved_reports_compare_series_by_experiment_and_name) {
    namespace report = gpuchrono::report;
    std::mt19937_64 rng(8);
    std::lognormal_distribution<double> ln(std::log(10000.0), 0.002);
    const auto samples = [&](double scale) {
        std::vector<Duration> v;
        for (int i = 0; i < 30; ++i) v.push_back(Duration::from_ns(ln(rng) * scale));
        return v;
    };
    const auto make = [&](double scale_b, const char* policy_b, const char* extra) {
        report::Report r;
        r.device.name = "NVIDIA H100 80GB HBM3";
        r.device.index = 0;
        report::Experiment e;
        e.id = "kernels";
        e.series.push_back(report::make_series("same", "graph", samples(1.0)));
        e.series.push_back(report::make_series("changed", policy_b, samples(scale_b)));
        e.series.push_back(report::make_series(extra, "graph", samples(1.0)));
        r.experiments.push_back(e);
        return r;
    };
    const report::Report base = make(1.0, "graph", "only-base");
    const gpuchrono::ReportComparison slower = gpuchrono::compare_reports(base, make(1.05, "graph", "only-new"));
    BOOST_TEST(slower.rows.size() == 4u);  // same, changed, only-base, then only-new
    BOOST_TEST(slower.rows[0].comparison.has_value());
    BOOST_TEST((slower.rows[0].comparison->verdict == gpuchrono::Verdict::no_difference));
    BOOST_TEST((slower.rows[1].comparison->verdict == gpuchrono::Verdict::slower));
    BOOST_TEST(slower.rows[2].problem == "only in the base report");
    BOOST_TEST(slower.rows[3].problem == "only in the new report");
    BOOST_TEST(slower.slower() == 1u);
    BOOST_TEST(slower.problems() == 2u);
    const std::string text = gpuchrono::render_comparison(slower);
    BOOST_TEST(text.find("kernels / changed") != std::string::npos, text);
    BOOST_TEST(text.find("1 slower") != std::string::npos, text);

    // A series measured by another method is refused, and says so, unless allowed.
    const gpuchrono::ReportComparison refused = gpuchrono::compare_reports(base, make(1.0, "event", "only-base"));
    BOOST_TEST(!refused.rows[1].comparison.has_value());
    BOOST_TEST(refused.rows[1].problem.find("different methods (graph vs event)") != std::string::npos, refused.rows[1].problem);
    gpuchrono::CompareOptions allow;
    allow.allow_different_methods = true;
    BOOST_TEST(gpuchrono::compare_reports(base, make(1.0, "event", "only-base"), allow).rows[1].comparison.has_value());
    report::Report other_gpu = make(1.0, "graph", "only-base");
    other_gpu.device.name = "NVIDIA H200";
    BOOST_TEST(gpuchrono::compare_reports(base, other_gpu).rows[0].problem.find("different devices") != std::string::npos);

    // Series taken by measure() carry their method and cache state: warm against cold is refused.
    const auto measured = [](report::Report r, const char* cache) {
        report::MeasureSummary m;
        m.method = "graph";
        m.cache_state = cache;
        r.experiments[0].series[0].measure = m;
        return r;
    };
    const std::string cold = gpuchrono::compare_reports(measured(base, "warm"), measured(base, "cold")).rows[0].problem;
    BOOST_TEST(cold.find("cache states (warm vs cold)") != std::string::npos, cold);
    BOOST_TEST(gpuchrono::compare_reports(measured(base, "warm"), measured(base, "warm")).rows[0].comparison.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
