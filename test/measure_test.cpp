// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The stopping rule of measure() without a GPU: the binomial tail, the order-statistic ranks of the median's
// confidence interval against published tables, the interval's coverage on heavy-tailed synthetic samples, and
// the stop decision in each of its cases (including n = 1, constant samples, bad options).
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/measure/measure.hpp>
#include <gpuchrono/measure/measure_record.hpp>
#include <gpuchrono/stats/stopping_rule.hpp>
#include "measure/throughput.hpp"
#include "measure/warmup.hpp"
#include "report/render/csv.hpp"
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>
#include <gpuchrono/report/render/text_report.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using gpuchrono::Duration;

std::vector<double> iota_samples(int n) {
    std::vector<double> v;
    for (int i = 1; i <= n; ++i) v.push_back(i);
    return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(measure)

BOOST_AUTO_TEST_CASE(binomial_tail_matches_hand_computed_values) {
    BOOST_TEST(gpuchrono::binomial_half_cdf(10, 1) == 11.0 / 1024.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gpuchrono::binomial_half_cdf(10, 4) == 386.0 / 1024.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gpuchrono::binomial_half_cdf(10, 9) == 1023.0 / 1024.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gpuchrono::binomial_half_cdf(10, 10) == 1.0);
    BOOST_TEST(gpuchrono::binomial_half_cdf(1, 0) == 0.5);
    // Across the switch to the normal approximation the two agree in the tail that matters.
    const double exact = gpuchrono::binomial_half_cdf(2000, 955);
    BOOST_TEST(exact > 0.0);
    BOOST_TEST(gpuchrono::binomial_half_cdf(2001, 955) == exact, boost::test_tools::tolerance(0.1));
}

BOOST_AUTO_TEST_CASE(normal_quantile_is_the_inverse_tail) {
    BOOST_TEST(gpuchrono::normal_upper_quantile(0.025) == 1.959963984540054, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gpuchrono::normal_upper_quantile(0.5) == 0.0, boost::test_tools::tolerance(1e-12));
    BOOST_CHECK_THROW(gpuchrono::normal_upper_quantile(0.0), std::invalid_argument);
    BOOST_CHECK_THROW(gpuchrono::normal_upper_quantile(1.0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(median_ranks_match_the_published_table) {
    // Conover's table of the 95% confidence interval for the median: n -> (lower rank, upper rank).
    const struct { std::size_t n, lower, upper; } table[] = {{6, 1, 6}, {10, 2, 9}, {20, 6, 15}, {30, 10, 21}, {100, 40, 61}};
    for (const auto& row : table) {
        const gpuchrono::MedianRanks r = gpuchrono::median_ranks(row.n, 0.95);
        BOOST_TEST(r.reaches_confidence);
        BOOST_TEST(r.lower == row.lower, "n = " << row.n);
        BOOST_TEST(r.upper == row.upper, "n = " << row.n);
        BOOST_TEST(r.coverage >= 0.95);
    }
    const gpuchrono::MedianRanks ten = gpuchrono::median_ranks(10, 0.95);
    BOOST_TEST(ten.coverage == 1.0 - 2.0 * 11.0 / 1024.0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(median_ranks_are_the_deepest_that_keep_the_coverage_for_large_n) {
    for (const std::size_t n : {2500u, 10000u, 1000000u}) {
        const gpuchrono::MedianRanks r = gpuchrono::median_ranks(n, 0.95);
        BOOST_TEST(r.coverage >= 0.95);
        BOOST_TEST(1.0 - 2.0 * gpuchrono::binomial_half_cdf(n, r.lower) < 0.95);  // one rank deeper would not
        BOOST_TEST(r.upper == n + 1 - r.lower);
    }
}

BOOST_AUTO_TEST_CASE(too_few_samples_never_reach_the_confidence) {
    const gpuchrono::MedianRanks five = gpuchrono::median_ranks(5, 0.95);
    BOOST_TEST(!five.reaches_confidence);
    BOOST_TEST(five.lower == 1u);
    BOOST_TEST(five.upper == 5u);
    BOOST_TEST(five.coverage == 1.0 - 2.0 / 32.0, boost::test_tools::tolerance(1e-12));
    const gpuchrono::MedianRanks one = gpuchrono::median_ranks(1, 0.95);
    BOOST_TEST(!one.reaches_confidence);
    BOOST_TEST(one.coverage == 0.0);
    BOOST_TEST(gpuchrono::median_ranks(0, 0.95).lower == 0u);
}

BOOST_AUTO_TEST_CASE(interval_of_known_samples) {
    std::vector<double> v = iota_samples(10);
    std::shuffle(v.begin(), v.end(), std::mt19937(7));
    const gpuchrono::MedianInterval i = gpuchrono::median_interval(v);
    BOOST_TEST(i.median_ns == 5.5);
    BOOST_TEST(i.low_ns == 2.0);
    BOOST_TEST(i.high_ns == 9.0);
    BOOST_TEST(i.relative_width() == 7.0 / 5.5, boost::test_tools::tolerance(1e-12));

    std::vector<double> odd = iota_samples(101);
    std::shuffle(odd.begin(), odd.end(), std::mt19937(8));
    const gpuchrono::MedianInterval j = gpuchrono::median_interval(odd);
    const gpuchrono::MedianRanks r = gpuchrono::median_ranks(101, 0.95);
    BOOST_TEST(j.median_ns == 51.0);
    BOOST_TEST(j.low_ns == static_cast<double>(r.lower));
    BOOST_TEST(j.high_ns == static_cast<double>(r.upper));
}

BOOST_AUTO_TEST_CASE(degenerate_samples) {
    const std::vector<double> one{42.0};
    const gpuchrono::MedianInterval i = gpuchrono::median_interval(one);
    BOOST_TEST(i.median_ns == 42.0);
    BOOST_TEST(!i.reaches_confidence);
    BOOST_TEST(i.relative_width() == 0.0);

    const std::vector<double> constant(50, 1000.0);
    const gpuchrono::MedianInterval c = gpuchrono::median_interval(constant);
    BOOST_TEST(c.reaches_confidence);
    BOOST_TEST(c.relative_width() == 0.0);

    const std::vector<double> zeros_and_one{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    BOOST_TEST(std::isinf(gpuchrono::median_interval(zeros_and_one).relative_width()));
    BOOST_TEST(std::isnan(gpuchrono::median_interval(std::vector<double>{}).relative_width()));
    BOOST_CHECK_THROW(gpuchrono::median_interval(std::vector<double>{1.0, std::nan("")}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(interval_covers_the_true_median_of_heavy_tailed_samples) {
    // Pareto (alpha = 1.5: infinite variance) and lognormal samples with known medians; ties from rounding to
    // 32 ns steps as the GPU's timer has. 2000 intervals of 40 samples each: coverage 95% +- 1.5%.
    std::mt19937_64 rng(12345);
    const double pareto_median = 10000.0 * std::pow(2.0, 1.0 / 1.5);
    int covered_pareto = 0, covered_lognormal = 0;
    const int trials = 2000;
    for (int t = 0; t < trials; ++t) {
        std::vector<double> pareto, lognormal;
        std::uniform_real_distribution<double> u(0.0, 1.0);
        std::lognormal_distribution<double> ln(std::log(20000.0), 0.3);
        for (int i = 0; i < 40; ++i) {
            pareto.push_back(10000.0 / std::pow(1.0 - u(rng), 1.0 / 1.5));
            lognormal.push_back(std::round(ln(rng) / 32.0) * 32.0);
        }
        const auto p = gpuchrono::median_interval(pareto);
        const auto l = gpuchrono::median_interval(lognormal);
        covered_pareto += p.low_ns <= pareto_median && pareto_median <= p.high_ns;
        covered_lognormal += l.low_ns <= 20000.0 && 20000.0 <= l.high_ns;
    }
    // The ranks of n = 40 give 96.2%; ties can only widen the interval.
    BOOST_TEST(covered_pareto / double(trials) > 0.945);
    BOOST_TEST(covered_pareto / double(trials) < 0.98);
    BOOST_TEST(covered_lognormal / double(trials) > 0.945);
}

BOOST_AUTO_TEST_CASE(decide_stops_when_narrow_enough_after_the_minimum) {
    gpuchrono::StoppingRule rule;
    rule.min_samples = 20;
    std::vector<double> tight(10, 1000.0);
    auto d = gpuchrono::decide(rule, tight, Duration::from_ms(1));
    BOOST_TEST(!d.stop);           // narrow, but below min_samples
    BOOST_TEST(d.converged);
    tight.resize(20, 1000.0);
    d = gpuchrono::decide(rule, tight, Duration::from_ms(1));
    BOOST_TEST(d.stop);
    BOOST_TEST((d.reason == gpuchrono::StopReason::converged));

    rule.min_time = Duration::from_ms(5);
    BOOST_TEST(!gpuchrono::decide(rule, tight, Duration::from_ms(1)).stop);  // before min_time
    BOOST_TEST(gpuchrono::decide(rule, tight, Duration::from_ms(5)).stop);
}

BOOST_AUTO_TEST_CASE(decide_keeps_going_while_wide_then_stops_at_the_budget) {
    gpuchrono::StoppingRule rule;
    rule.max_samples = 1000;
    rule.max_time = Duration::from_ms(100);
    std::vector<double> wide;
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(1000.0, 2000.0);  // width about 30% at n = 50
    for (int i = 0; i < 50; ++i) wide.push_back(u(rng));
    auto d = gpuchrono::decide(rule, wide, Duration::from_ms(10));
    BOOST_TEST(!d.stop);
    BOOST_TEST(!d.converged);
    d = gpuchrono::decide(rule, wide, Duration::from_ms(100));
    BOOST_TEST(d.stop);
    BOOST_TEST((d.reason == gpuchrono::StopReason::max_time));
    BOOST_TEST(d.interval.relative_width() > 0.01);  // the width reached, for the finding
    rule.max_samples = 50;
    d = gpuchrono::decide(rule, wide, Duration::from_ms(10));
    BOOST_TEST((d.reason == gpuchrono::StopReason::max_samples));
}

BOOST_AUTO_TEST_CASE(narrower_targets_need_more_samples) {
    // Lognormal samples with a 1% spread: the number of samples to reach each width grows about as 1 / width^2.
    std::mt19937_64 rng(99);
    std::lognormal_distribution<double> ln(std::log(10000.0), 0.01);
    const auto samples_needed = [&](double width) {
        gpuchrono::StoppingRule rule;
        rule.target_relative_width = width;
        std::vector<double> v;
        while (true) {
            v.push_back(ln(rng));
            if (gpuchrono::decide(rule, v, Duration{}).stop) return v.size();
        }
    };
    // Averaged over 50 runs: a single run stops at the first crossing of the target, which is noisy.
    double at_1 = 0, at_05 = 0;
    for (int run = 0; run < 50; ++run) {
        at_1 += static_cast<double>(samples_needed(0.01)) / 50;
        at_05 += static_cast<double>(samples_needed(0.005)) / 50;
    }
    BOOST_TEST(at_1 >= 10.0);
    BOOST_TEST(at_05 > 2.5 * at_1, "1%: " << at_1 << " samples, 0.5%: " << at_05);
}

BOOST_AUTO_TEST_CASE(options_are_validated_naming_the_field) {
    const auto message_of = [](const gpuchrono::MeasureOptions& o) -> std::string {
        try {
            o.validate();
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    BOOST_TEST(message_of({}) == "");
    BOOST_TEST(message_of({.target_relative_width = 0}).find("target_relative_width") != std::string::npos);
    BOOST_TEST(message_of({.confidence = 1.0}).find("confidence") != std::string::npos);
    BOOST_TEST(message_of({.min_samples = 0}).find("min_samples") != std::string::npos);
    BOOST_TEST(message_of({.min_samples = 10, .max_samples = 5}).find("max_samples") != std::string::npos);
    BOOST_TEST(message_of({.max_time = Duration{}}).find("max_time") != std::string::npos);
    BOOST_TEST(message_of({.warmup_min_time = Duration::from_s(2), .warmup_max_time = Duration::from_s(1)})
                   .find("warmup") != std::string::npos);
    BOOST_TEST(message_of({.method = static_cast<gpuchrono::Method>(42)}).find("method") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(methods_and_cache_states_round_trip_through_their_names) {
    for (const auto m : {gpuchrono::Method::automatic, gpuchrono::Method::kernel, gpuchrono::Method::graph,
                         gpuchrono::Method::event, gpuchrono::Method::host})
        BOOST_TEST((gpuchrono::method_from_string(gpuchrono::to_string(m)) == m));
    for (const auto c : {gpuchrono::CacheState::warm, gpuchrono::CacheState::cold})
        BOOST_TEST((gpuchrono::cache_state_from_string(gpuchrono::to_string(c)) == c));
    BOOST_TEST(!gpuchrono::method_from_string("cupti"));
    BOOST_TEST(!gpuchrono::cache_state_from_string("hot"));
}

BOOST_AUTO_TEST_CASE(automatic_prefers_kernel_then_graph) {
    using gpuchrono::Method;
    BOOST_TEST((gpuchrono::first_choice(Method::automatic, true) == Method::kernel));
    BOOST_TEST((gpuchrono::first_choice(Method::automatic, false) == Method::graph));
    BOOST_TEST((gpuchrono::first_choice(Method::event, true) == Method::event));
    BOOST_TEST((gpuchrono::first_choice(Method::kernel, false) == Method::kernel));  // asked for: refused later, not swapped
}

BOOST_AUTO_TEST_CASE(peak_bandwidth_from_attributes) {
    // An H100 SXM: 2619 MHz memory clock (double data rate), 5120-bit bus: 3.35 TB/s.
    BOOST_TEST(gpuchrono::peak_memory_bandwidth(2619000, 5120) == 3352.32e9, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(std::isnan(gpuchrono::peak_memory_bandwidth(0, 5120)));
    gpuchrono::MeasureRecord r;
    r.interval.samples = 10;
    r.interval.median_ns = 1000.0;  // 1 us per call
    r.bytes_per_call = 1'000'000;   // 1 MB per us = 1 TB/s
    r.items_per_call = 250'000;
    r.peak_bytes_per_second = 2e12;
    BOOST_TEST(r.bytes_per_second() == 1e12, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(r.items_per_second() == 2.5e11, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(r.fraction_of_peak_bandwidth() == 0.5, boost::test_tools::tolerance(1e-12));
    r.bytes_per_call = 0;
    BOOST_TEST(std::isnan(r.bytes_per_second()));
}

BOOST_AUTO_TEST_CASE(warmup_ends_when_the_clock_reads_steady) {
    const auto state = [](unsigned clock, unsigned long long reasons) {
        gpuchrono::GpuState s;
        s.device = 0;
        s.sm_clock_mhz = clock;
        s.max_sm_clock_mhz = 1980u;
        s.clock_event_reasons = reasons;
        return s;
    };
    const gpuchrono::GpuState idle = state(345, gpuchrono::clock_event::gpu_idle);
    const gpuchrono::GpuState ramping = state(1600, 0);
    const gpuchrono::GpuState full = state(1980, 0);
    const gpuchrono::GpuState capped = state(1500, gpuchrono::clock_event::sw_power_cap);
    BOOST_TEST(!gpuchrono::clock_steady(idle, full));
    BOOST_TEST(!gpuchrono::clock_steady(ramping, full));  // moved by more than 5%
    BOOST_TEST(gpuchrono::clock_steady(full, full));
    BOOST_TEST(gpuchrono::clock_steady(capped, capped));  // capped but still: waiting will not help (flagged instead)
    gpuchrono::GpuState no_nvml;
    no_nvml.nvml_loaded = false;
    BOOST_TEST(!gpuchrono::clock_steady(no_nvml, no_nvml));  // unknown is not steady: the per-call times decide
    BOOST_TEST(gpuchrono::per_call_steady(Duration::from_us(10.0), Duration::from_us(10.2)));
    BOOST_TEST(!gpuchrono::per_call_steady(Duration::from_us(10.0), Duration::from_us(12.0)));
}

BOOST_AUTO_TEST_CASE(reports_say_how_measure_took_a_series) {
    gpuchrono::Series series("saxpy");
    for (int i = 0; i < 12; ++i)
        series.add(gpuchrono::Measurement::completed("graph", Duration::from_ns(10860 + i), 0));
    auto r = std::make_shared<gpuchrono::MeasureRecord>();
    r->method = gpuchrono::Method::graph;
    r->method_note = "automatic: no kernel method";
    r->cache = gpuchrono::CacheState::cold;
    r->calls_per_sample = 64;
    r->warmup.time = Duration::from_ms(3.5);
    r->warmup.calls = 900;
    r->warmup.ended = "SM clock steady at 1980 of 1980 MHz";
    r->stop_reason = gpuchrono::StopReason::converged;
    r->interval = gpuchrono::median_interval(std::vector<double>{10860, 10861, 10862, 10863, 10864, 10865, 10866,
                                                                  10867, 10868, 10869, 10870, 10871});
    r->sampling_time = Duration::from_ms(7);
    r->bytes_per_call = 16 << 20;
    r->peak_bytes_per_second = 3352.32e9;
    series.set_measure_record(r);

    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    gpuchrono::report::Experiment e;
    e.id = "measured";
    e.series.push_back(gpuchrono::report::make_series(series));
    BOOST_REQUIRE(e.series[0].measure.has_value());
    const gpuchrono::report::MeasureSummary& m = *e.series[0].measure;
    BOOST_TEST(m.method == "graph");
    BOOST_TEST(m.cache_state == "cold");
    BOOST_TEST(m.stop_reason == "converged");
    BOOST_TEST(m.ci_low_ns < m.ci_high_ns);
    BOOST_TEST(m.bytes_per_second == (16 << 20) / 10865.5e-9, boost::test_tools::tolerance(1e-9));

    const std::string text = gpuchrono::report::render_experiment_text(e, 1);
    BOOST_TEST(text.find("method graph (64 calls per sample), cold L2") != std::string::npos, text);
    BOOST_TEST(text.find("stopped: converged") != std::string::npos, text);
    BOOST_TEST(text.find("GB/s peak") != std::string::npos, text);
    gpuchrono::report::Report report;
    report.experiments.push_back(e);
    const std::string csv = gpuchrono::report::render_csv(report, gpuchrono::report::CsvTable::stats);
    BOOST_TEST(csv.find("method,cache_state,stop_reason,ci_low_ns") != std::string::npos, csv);
    BOOST_TEST(csv.find("graph,cold,converged") != std::string::npos, csv);

    // Through JSON and back: every field of the summary survives; a series without one stays without.
    report.experiments[0].series.push_back(gpuchrono::report::make_series("timer", "event", {Duration::from_us(1)}));
    const gpuchrono::report::Report back = gpuchrono::report::report_from_json(gpuchrono::report::to_json(report));
    BOOST_REQUIRE(back.experiments.at(0).series.at(0).measure.has_value());
    const gpuchrono::report::MeasureSummary& b = *back.experiments[0].series[0].measure;
    BOOST_TEST(b.method == m.method);
    BOOST_TEST(b.method_note == m.method_note);
    BOOST_TEST(b.cache_state == m.cache_state);
    BOOST_TEST(b.calls_per_sample == m.calls_per_sample);
    BOOST_TEST(b.warmup_ns == m.warmup_ns);
    BOOST_TEST(b.warmup_ended == m.warmup_ended);
    BOOST_TEST(b.stop_reason == m.stop_reason);
    BOOST_TEST(b.ci_low_ns == m.ci_low_ns);
    BOOST_TEST(b.ci_high_ns == m.ci_high_ns);
    BOOST_TEST(b.target_relative_width == m.target_relative_width);
    BOOST_TEST(b.bytes_per_second == m.bytes_per_second);
    BOOST_TEST(std::isnan(b.items_per_second));  // none declared: null in the file, NaN again
    BOOST_TEST(!back.experiments[0].series.at(1).measure.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
