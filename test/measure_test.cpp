// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The stopping rule of measure() without a GPU: the binomial tail, the order-statistic ranks of the median's
// confidence interval against published tables, the interval's coverage on heavy-tailed synthetic samples, and
// the stop decision in each of its cases (including n = 1, constant samples, bad options).
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/measure/measure.hpp>
#include <gpuchrono/measure/measure_record.hpp>
#include <gpuchrono/stats/stopping_rule.hpp>
#include "measure/batch_plan.hpp"
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

namespace warmup_sim {

gpuchrono::GpuState state(unsigned clock, unsigned long long reasons = 0) {
    gpuchrono::GpuState s;
    s.device = 0;
    s.sm_clock_mhz = clock;
    s.max_sm_clock_mhz = 1980u;
    s.clock_event_reasons = reasons;
    return s;
}

gpuchrono::GpuState without_nvml() {
    gpuchrono::GpuState s;
    s.nvml_loaded = false;
    s.nvml_error = "libnvidia-ml.so.1 not found";
    return s;
}

struct Outcome {
    gpuchrono::WarmupEnd end = gpuchrono::WarmupEnd::more;
    std::size_t calls = 0;  // the first call included
    std::size_t slices = 0;
};

// Drives warmup_step as warm_up does: the first call alone, then slices of the size it asks for, each lasting
// `per_call(i)` per call (i counts slices from 0) on a GPU whose NVML read after slice i is `state_after(i)`; the
// host's time is the GPU's plus `first_call` and 50 us per slice.
template <class PerCall, class StateAfter>
Outcome run_warmup(PerCall per_call, StateAfter state_after, Duration first_call = Duration::from_us(300),
                   Duration min_time = Duration{}, Duration max_time = Duration::from_ms(500)) {
    Outcome o;
    o.calls = 1;
    Duration elapsed = first_call;
    gpuchrono::WarmupSlice slice;
    std::size_t calls = 1;
    for (std::size_t i = 0; i < 100000; ++i) {
        slice.previous_per_call = slice.calls > 0 ? slice.gpu_time / static_cast<double>(slice.calls) : Duration{};
        slice.calls = calls;
        slice.gpu_time = per_call(i) * static_cast<double>(calls);
        elapsed += slice.gpu_time + Duration::from_us(50);
        slice.elapsed = elapsed;
        slice.state = state_after(i);
        o.calls += calls;
        ++o.slices;
        const gpuchrono::WarmupStep step = gpuchrono::warmup_step(slice, min_time, max_time);
        if (step.end != gpuchrono::WarmupEnd::more) {
            o.end = step.end;
            return o;
        }
        BOOST_TEST_REQUIRE(step.next_calls >= 1u);
        calls = step.next_calls;
    }
    return o;
}

}  // namespace warmup_sim

BOOST_AUTO_TEST_CASE(warmup_reads_the_clock_once_it_has_had_work) {
    using warmup_sim::state;
    BOOST_TEST(!gpuchrono::clock_up(state(345, gpuchrono::clock_event::gpu_idle)));
    BOOST_TEST(!gpuchrono::clock_up(state(1400)));  // 70.7% of the maximum: below nvbench's 75%
    BOOST_TEST(gpuchrono::clock_up(state(1600)));
    BOOST_TEST(gpuchrono::clock_up(state(1980)));
    // Capped above 75% and holding: waiting will not raise it (its samples are flagged gpu-clock-throttled instead).
    BOOST_TEST(gpuchrono::clock_up(state(1500, gpuchrono::clock_event::sw_power_cap)));
    BOOST_TEST(!gpuchrono::clock_up(warmup_sim::without_nvml()));  // unknown is not up: the per-call times decide
    gpuchrono::GpuState no_maximum = state(1980);
    no_maximum.max_sm_clock_mhz.reset();
    BOOST_TEST(!gpuchrono::clock_up(no_maximum));
    BOOST_TEST(gpuchrono::per_call_steady(Duration::from_us(10.0), Duration::from_us(10.2)));
    BOOST_TEST(!gpuchrono::per_call_steady(Duration::from_us(10.0), Duration::from_us(12.0)));
    BOOST_TEST(!gpuchrono::per_call_steady(Duration{}, Duration::from_us(10.0)));
}

BOOST_AUTO_TEST_CASE(a_long_call_warms_up_in_two_calls_when_the_clock_is_up) {
    // torch.mm of 4096 (2.64 ms) on a GPU already at its clock: the first call loads, one more sizes and reads up.
    const auto up = [](std::size_t) { return warmup_sim::state(1980); };
    const warmup_sim::Outcome mm = warmup_sim::run_warmup([](std::size_t) { return Duration::from_ms(2.64); }, up);
    BOOST_TEST((mm.end == gpuchrono::WarmupEnd::ready));
    BOOST_TEST(mm.calls == 2u);
    // Under a power cap that holds the clock at 1755 MHz (89%), the same: no second read is asked to agree.
    const warmup_sim::Outcome capped = warmup_sim::run_warmup(
        [](std::size_t) { return Duration::from_ms(2.64); },
        [](std::size_t i) { return warmup_sim::state(i % 2 == 0 ? 1755 : 1890, gpuchrono::clock_event::sw_power_cap); });
    BOOST_TEST((capped.end == gpuchrono::WarmupEnd::ready));
    BOOST_TEST(capped.calls == 2u);
    // A call of 100 us is long enough to size the batches from one call.
    const warmup_sim::Outcome spin100 = warmup_sim::run_warmup([](std::size_t) { return Duration::from_us(100); }, up);
    BOOST_TEST(spin100.calls == 2u);
}

BOOST_AUTO_TEST_CASE(a_short_call_takes_one_sizing_slice_more) {
    // A 1 us kernel: its one-call slice is mostly launch latency; a slice of about 200 us sizes it, and the clock
    // read after that slice ends the warm-up.
    const auto up = [](std::size_t) { return warmup_sim::state(1980); };
    const warmup_sim::Outcome o = warmup_sim::run_warmup(
        [](std::size_t i) { return i == 0 ? Duration::from_us(6) : Duration::from_us(2.5); }, up);
    BOOST_TEST((o.end == gpuchrono::WarmupEnd::ready));
    BOOST_TEST(o.slices == 2u);
    BOOST_TEST(o.calls == 1u + 1u + 34u);  // ceil(200 us / 6 us) calls in the sizing slice
}

BOOST_AUTO_TEST_CASE(a_low_clock_keeps_the_warmup_loading_the_gpu_until_it_is_up) {
    // From idle (345 MHz) the clock ramps over about 6 ms of load: the warm-up ends at the first read at 75% or more,
    // and its slices last about 2 ms each meanwhile.
    const std::vector<unsigned> ramp{345, 345, 900, 1500, 1980, 1980};
    const auto ramping = [&](std::size_t i) { return warmup_sim::state(ramp[std::min(i, ramp.size() - 1)]); };
    const warmup_sim::Outcome o = warmup_sim::run_warmup([](std::size_t) { return Duration::from_us(10); }, ramping);
    BOOST_TEST((o.end == gpuchrono::WarmupEnd::ready));
    BOOST_TEST(o.slices == 4u);  // the read of 1500 MHz (75.8%) ends it
    BOOST_TEST(o.calls == 1u + 1u + 3u * 200u);
    // A clock that never comes up ends at the time cap, saying so.
    const warmup_sim::Outcome low = warmup_sim::run_warmup([](std::size_t) { return Duration::from_us(10); },
                                                           [](std::size_t) { return warmup_sim::state(1200); });
    BOOST_TEST((low.end == gpuchrono::WarmupEnd::capped));
}

BOOST_AUTO_TEST_CASE(warmup_min_time_is_honoured_and_max_time_caps) {
    const auto up = [](std::size_t) { return warmup_sim::state(1980); };
    const auto per_call = [](std::size_t) { return Duration::from_us(50); };
    const warmup_sim::Outcome o = warmup_sim::run_warmup(per_call, up, Duration::from_us(300), Duration::from_ms(10));
    BOOST_TEST((o.end == gpuchrono::WarmupEnd::ready));
    BOOST_TEST(o.calls >= 1u + 10'000u / 50u);  // at least 10 ms of 50 us calls
    // A minimum above the maximum cannot be met (validate() refuses it); the cap ends the loop regardless.
    const warmup_sim::Outcome cap = warmup_sim::run_warmup(per_call, up, Duration::from_us(300), Duration::from_ms(20),
                                                           Duration::from_ms(5));
    BOOST_TEST((cap.end == gpuchrono::WarmupEnd::capped));
}

BOOST_AUTO_TEST_CASE(without_nvml_two_slices_must_agree_on_the_per_call_time) {
    const auto none = [](std::size_t) { return warmup_sim::without_nvml(); };
    // The one-call slice reads launch latency (30 us), the next slices 10 us each: the third agrees with the second.
    const warmup_sim::Outcome o = warmup_sim::run_warmup(
        [](std::size_t i) { return i == 0 ? Duration::from_us(30) : Duration::from_us(10); }, none);
    BOOST_TEST((o.end == gpuchrono::WarmupEnd::ready));
    BOOST_TEST(o.slices == 3u);
    // Per-call times that keep falling by 10% a slice (a clock still ramping) never agree: capped.
    const warmup_sim::Outcome falling = warmup_sim::run_warmup(
        [](std::size_t i) { return Duration::from_us(100) * std::pow(0.9, static_cast<double>(i)); }, none);
    BOOST_TEST((falling.end == gpuchrono::WarmupEnd::capped));
}

BOOST_AUTO_TEST_CASE(batches_take_the_samples_the_interval_width_says_are_missing) {
    using gpuchrono::detail::next_batch_samples;
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // 10 samples at 1.3% for a 1% target: about 17 expected, 21 with the margin: 11 more in one batch.
    BOOST_TEST(next_batch_samples(10, 0.013, 0.01, 10000, 100000) == 11u);
    // At twice the target, four times the samples are expected.
    BOOST_TEST(next_batch_samples(10, 0.02, 0.01, 10000, 100000) == 38u);
    // Nearly there: still a quarter of the samples taken, not one at a time.
    BOOST_TEST(next_batch_samples(40, 0.0101, 0.01, 10000, 100000) == 10u);
    // Unknown widths (a median of 0 with spread, no samples yet): a quarter more, at least one.
    BOOST_TEST(next_batch_samples(12, inf, 0.01, 10000, 100000) == 3u);
    BOOST_TEST(next_batch_samples(12, nan, 0.01, 10000, 100000) == 3u);
    BOOST_TEST(next_batch_samples(0, nan, 0.01, 10000, 100000) == 1u);
    // Within the batch's time (4 calls of 2.5 ms in 10 ms) and the samples left.
    BOOST_TEST(next_batch_samples(10, 0.05, 0.01, 4, 100000) == 4u);
    BOOST_TEST(next_batch_samples(10, 0.05, 0.01, 10000, 7) == 7u);
    BOOST_TEST(next_batch_samples(10, 0.05, 0.01, 0, 100) == 1u);
    BOOST_TEST(next_batch_samples(10, 0.05, 0.01, 10000, 0) == 0u);
}

BOOST_AUTO_TEST_CASE(planned_batches_reach_the_target_in_fewer_rounds_than_growing_by_a_quarter) {
    // Samples of a 1 us kernel as the H100 gave them (a 32 ns grain, a right tail): the rule's own interval
    // decides the stop, and the planned batches need fewer rounds than the +25% growth they replace.
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> tail(0.0, 0.6);
    const auto sample = [&] { return 1856.0 + 32.0 * std::floor(tail(rng) * 1.5); };
    const gpuchrono::StoppingRule rule{.target_relative_width = 0.01};
    const auto rounds = [&](bool planned) {
        std::vector<double> taken;
        std::size_t next = rule.min_samples, n_rounds = 0;
        while (true) {
            for (std::size_t i = 0; i < next; ++i) taken.push_back(sample());
            ++n_rounds;
            const gpuchrono::StopDecision d = gpuchrono::decide(rule, taken, Duration::from_ms(1));
            if (d.stop) {
                BOOST_TEST(d.converged);
                return n_rounds;
            }
            next = planned ? gpuchrono::detail::next_batch_samples(taken.size(), d.interval.relative_width(),
                                                                   rule.target_relative_width, 10000, 100000)
                           : static_cast<std::size_t>(std::ceil(static_cast<double>(taken.size()) / 4.0));
        }
    };
    std::size_t planned_rounds = 0, quarter_rounds = 0;
    for (int trial = 0; trial < 200; ++trial) {
        planned_rounds += rounds(true);
        quarter_rounds += rounds(false);
    }
    BOOST_TEST_MESSAGE("rounds over 200 measurements: planned " << planned_rounds << ", +25% " << quarter_rounds);
    BOOST_TEST(planned_rounds < quarter_rounds);
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
