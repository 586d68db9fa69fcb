// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The interleaved compare()'s statistics without a GPU: the empirical-Bernstein confidence sequence's coverage
// at every look (over many simulated runs, fixed seeds), the sequential test's error rate under A/A whatever look
// it stops at (heavy-tailed noise, times stepping by 32 ns, slow and sudden drift), its power for a 0.5% change
// on a memory-bound-like kernel and a 0.1% change on a spin-like one, the drift it reports, and how today's
// measure-A-then-B comparison fares under the same drift. Plus the verdict rule and the options' refusals.
#include <gpuchrono/measure/compare.hpp>
#include <gpuchrono/stats/confidence_sequence.hpp>
#include "measure/round_plan.hpp"
#include <gpuchrono/measure/sequential_compare.hpp>
#include <gpuchrono/stats/sequential_mean_test.hpp>
#include <gpuchrono/testing/sequential_checks.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using gpuchrono::BernsteinSequence;
using gpuchrono::SequentialTest;
using gpuchrono::SequentialTestOptions;
using gpuchrono::Verdict;

// A kernel's time: median `base_ns`, log-normal noise of `sigma`, an outlier (up to 20 sigma, one-sided, as GPU
// outliers are) with probability `outlier_p`, rounded to the 32 ns step of the GPU's timer. `drift` is what the
// environment adds at position `pos` in [0, 1] of the run: a slow linear part and a step half way.
struct Kernel {
    double base_ns;
    double sigma;
    double outlier_p = 0.02;
};
struct Drift {
    double linear = 0.0;  // relative change from the start to the end of the run
    double step = 0.0;    // relative jump from half way on
};

double sample(std::mt19937_64& rng, const Kernel& k, double change, const Drift& drift, double pos) {
    std::normal_distribution<double> noise(0.0, k.sigma);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    double x = noise(rng);
    if (unit(rng) < k.outlier_p) x += std::abs(noise(rng)) * 20.0;
    const double env = (1.0 + drift.linear * pos) * (pos >= 0.5 ? 1.0 + drift.step : 1.0);
    const double ns = k.base_ns * (1.0 + change) * std::exp(x) * env;
    return std::max(32.0, std::round(ns / 32.0) * 32.0);
}

struct RunResult {
    Verdict verdict;
    std::size_t blocks;
    double drift_a;
};

// One interleaved comparison: blocks of ABBA or BAAB at random, until the test decides or `max_blocks`.
RunResult run_once(std::mt19937_64& rng, const Kernel& k, double change, const Drift& drift, double threshold,
                   std::size_t max_blocks) {
    SequentialTest test(SequentialTestOptions{threshold, 0.99, 16});
    std::size_t b = 0;
    for (; b < max_blocks; ++b) {
        const double pos = static_cast<double>(b) / static_cast<double>(max_blocks);
        double a[2], bb[2];
        if (rng() & 1u) {
            a[0] = sample(rng, k, 0.0, drift, pos);
            bb[0] = sample(rng, k, change, drift, pos);
            bb[1] = sample(rng, k, change, drift, pos);
            a[1] = sample(rng, k, 0.0, drift, pos);
        } else {
            bb[0] = sample(rng, k, change, drift, pos);
            a[0] = sample(rng, k, 0.0, drift, pos);
            a[1] = sample(rng, k, 0.0, drift, pos);
            bb[1] = sample(rng, k, change, drift, pos);
        }
        if (test.add_block(a, bb)) break;
    }
    return {test.verdict(), test.blocks(), test.drift_a()};
}

struct Rates {
    double faster = 0, slower = 0, no_difference = 0, inconclusive = 0;
    std::size_t blocks_p95 = 0;
};

Rates rates(std::uint64_t seed, int runs, const Kernel& k, double change, const Drift& drift, double threshold,
            std::size_t max_blocks) {
    std::mt19937_64 rng(seed);
    Rates r;
    std::vector<std::size_t> blocks;
    for (int i = 0; i < runs; ++i) {
        const RunResult one = run_once(rng, k, change, drift, threshold, max_blocks);
        switch (one.verdict) {
            case Verdict::faster: ++r.faster; break;
            case Verdict::slower: ++r.slower; break;
            case Verdict::no_difference: ++r.no_difference; break;
            case Verdict::inconclusive: ++r.inconclusive; break;
        }
        blocks.push_back(one.blocks);
    }
    for (double* v : {&r.faster, &r.slower, &r.no_difference, &r.inconclusive}) *v /= runs;
    std::sort(blocks.begin(), blocks.end());
    r.blocks_p95 = blocks[blocks.size() * 95 / 100];
    BOOST_TEST_MESSAGE("change " << change * 100 << "%, threshold " << threshold * 100 << "%: faster " << r.faster
                                 << ", slower " << r.slower << ", no difference " << r.no_difference << ", inconclusive "
                                 << r.inconclusive << "; 95th percentile of blocks " << r.blocks_p95);
    return r;
}

// A 64 MiB memory-bound kernel (45 us, 0.3% noise) and a 20 us spin (0.05% noise, mostly 32 ns ties).
const Kernel memory_kernel{45000.0, 0.003};
const Kernel spin_kernel{20000.0, 0.0005};

}  // namespace

BOOST_AUTO_TEST_SUITE(sequential_compare)

BOOST_AUTO_TEST_CASE(confidence_sequence_refuses_bad_arguments) {
    BOOST_CHECK_THROW(BernsteinSequence(0.0, 0.05), std::invalid_argument);
    BOOST_CHECK_THROW(BernsteinSequence(INFINITY, 0.05), std::invalid_argument);
    BOOST_CHECK_THROW(BernsteinSequence(1.0, 0.0), std::invalid_argument);
    BOOST_CHECK_THROW(BernsteinSequence(1.0, 1.0), std::invalid_argument);
    BernsteinSequence cs(1.0, 0.05);
    BOOST_CHECK_THROW(cs.add(NAN), std::invalid_argument);
    BOOST_TEST(cs.low() == -1.0);
    BOOST_TEST(cs.high() == 1.0);
}

BOOST_AUTO_TEST_CASE(confidence_sequence_narrows_and_counts_clipping) {
    BernsteinSequence cs(1.0, 0.05);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(0.1, 0.3);
    double width_at_100 = 0.0;
    for (int i = 0; i < 5000; ++i) {
        cs.add(u(rng));
        if (i == 99) width_at_100 = cs.high() - cs.low();
    }
    BOOST_TEST(cs.low() <= 0.2);
    BOOST_TEST(cs.high() >= 0.2);
    BOOST_TEST(cs.high() - cs.low() < width_at_100 / 3.0);
    BOOST_TEST(cs.clipped() == 0u);
    cs.add(5.0);
    cs.add(-5.0);
    BOOST_TEST(cs.clipped() == 2u);
    BOOST_TEST(cs.count() == 5002u);
}

// Time-uniform coverage: over 1,000 simulated runs of 2,000 looks each, the fraction of runs whose interval ever
// excluded the true mean, at any look, is at most alpha. Skewed, discrete and symmetric data.
BOOST_AUTO_TEST_CASE(coverage_holds_at_every_look) {
    const double alpha = 0.05;
    struct Source {
        const char* name;
        double mean;
        std::function<double(std::mt19937_64&)> draw;
    };
    const std::vector<Source> sources{
        {"bernoulli(0.1) on [-1, 1]", -0.8, [](std::mt19937_64& r) { return std::bernoulli_distribution(0.1)(r) ? 1.0 : -1.0; }},
        {"uniform on [-0.5, 0.5]", 0.0, [](std::mt19937_64& r) { return std::uniform_real_distribution<double>(-0.5, 0.5)(r); }},
        {"exponential clipped to 1, shifted", 0.0,
         [](std::mt19937_64& r) {
             // E[min(X, 1)] for X ~ Exp(4) is (1 - e^-4) / 4; subtract it so the mean is 0.
             return std::min(std::exponential_distribution<double>(4.0)(r), 1.0) - (1.0 - std::exp(-4.0)) / 4.0;
         }},
    };
    for (const Source& s : sources) {
        std::mt19937_64 rng(20240611);
        int missed = 0;
        const int runs = 1000;
        for (int run = 0; run < runs; ++run) {
            BernsteinSequence cs(1.0, alpha);
            for (int t = 0; t < 2000; ++t) {
                cs.add(s.draw(rng));
                if (cs.low() > s.mean || cs.high() < s.mean) {
                    ++missed;
                    break;
                }
            }
        }
        BOOST_TEST_MESSAGE(s.name << ": " << missed << " of " << runs << " runs ever missed the mean");
        BOOST_TEST(missed <= static_cast<int>(alpha * runs), s.name << ": " << missed << " runs missed");
    }
}

BOOST_AUTO_TEST_CASE(verdict_rule) {
    using gpuchrono::sequential_verdict;
    BOOST_TEST((sequential_verdict(-0.004, 0.004, 0.005) == Verdict::no_difference));
    BOOST_TEST((sequential_verdict(0.001, 0.004, 0.005) == Verdict::no_difference));  // real, but below t
    BOOST_TEST((sequential_verdict(0.001, 0.009, 0.005) == Verdict::slower));
    BOOST_TEST((sequential_verdict(-0.009, -0.001, 0.005) == Verdict::faster));
    BOOST_TEST(!sequential_verdict(-0.001, 0.009, 0.005).has_value());
    BOOST_TEST(!sequential_verdict(-0.009, 0.001, 0.005).has_value());
}

BOOST_AUTO_TEST_CASE(options_are_refused_with_the_field_named) {
    const auto message_of = [](auto&& f) {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    gpuchrono::SequentialCompareOptions o;
    o.threshold = 0.0;
    BOOST_TEST(message_of([&] { o.validate(); }).find("threshold") != std::string::npos);
    o.threshold = -0.01;
    BOOST_TEST(message_of([&] { o.validate(); }).find("threshold") != std::string::npos);
    o = {};
    o.max_time = gpuchrono::Duration{};
    BOOST_TEST(message_of([&] { o.validate(); }).find("max_time") != std::string::npos);
    o.max_time = gpuchrono::Duration::from_ms(-1);
    BOOST_TEST(message_of([&] { o.validate(); }).find("max_time") != std::string::npos);
    o = {};
    o.method = gpuchrono::Method::graph;
    BOOST_TEST(message_of([&] { o.validate(); }).find("method graph") != std::string::npos);
    o = {};
    o.confidence = 1.0;
    BOOST_TEST(message_of([&] { o.validate(); }).find("confidence") != std::string::npos);
    o = {};
    o.pilot_blocks = 2;
    BOOST_TEST(message_of([&] { o.validate(); }).find("pilot_blocks") != std::string::npos);
    BOOST_CHECK_NO_THROW(gpuchrono::SequentialCompareOptions{}.validate());
}

BOOST_AUTO_TEST_CASE(blocks_are_checked) {
    SequentialTest test(SequentialTestOptions{});
    const std::vector<double> none, good{100.0, 101.0}, bad{100.0, 0.0};
    BOOST_CHECK_THROW(test.add_block(none, good), std::invalid_argument);
    BOOST_CHECK_THROW(test.add_block(good, bad), std::invalid_argument);
    BOOST_TEST(test.blocks() == 0u);
}

// A/A, whatever look it stops at: faster or slower at most 1% (confidence 0.99) of 2,000 simulated runs, on
// both kernels, with the thresholds.
BOOST_AUTO_TEST_CASE(a_a_error_rate_at_any_look) {
    for (const auto& [k, t] : {std::pair{memory_kernel, 0.005}, std::pair{spin_kernel, 0.001}}) {
        const Rates r = rates(11, 2000, k, 0.0, {}, t, 4000);
        BOOST_TEST(r.faster + r.slower <= 0.01);
        BOOST_TEST(r.no_difference >= 0.95);
    }
}

// Stricter than the verdicts: the sequence itself on A/A block ratios, never stopped, over 2,000 looks: the
// fraction of runs that ever lie wholly above or below 0 is at most alpha.
BOOST_AUTO_TEST_CASE(a_a_sequence_never_stopped_excludes_zero_at_most_alpha) {
    std::mt19937_64 rng(99);
    const int runs = 1000;
    int excluded = 0;
    for (int run = 0; run < runs; ++run) {
        BernsteinSequence cs(0.02, 0.01);  // +-2% on the log ratio: a 0.3% kernel's ratios, outliers clipped
        for (int look = 0; look < 2000; ++look) {
            const double a1 = sample(rng, memory_kernel, 0, {}, 0), a2 = sample(rng, memory_kernel, 0, {}, 0);
            const double b1 = sample(rng, memory_kernel, 0, {}, 0), b2 = sample(rng, memory_kernel, 0, {}, 0);
            cs.add((std::log(b1) + std::log(b2) - std::log(a1) - std::log(a2)) / 2.0);
            if (cs.low() > 0.0 || cs.high() < 0.0) {
                ++excluded;
                break;
            }
        }
    }
    BOOST_TEST_MESSAGE(excluded << " of " << runs << " A/A runs ever excluded 0 in 2000 looks");
    BOOST_TEST(excluded <= runs / 100);
}

// Power: a 0.5% change on the memory kernel (threshold 0.5%) and a 0.1% change on the spin (threshold 0.1%)
// come out "slower" in at least 95% of runs, within 400 blocks (1,600 samples) for 95% of them; the opposite
// change "faster".
BOOST_AUTO_TEST_CASE(power_for_changes_at_the_threshold) {
    for (const auto& [k, t] : {std::pair{memory_kernel, 0.005}, std::pair{spin_kernel, 0.001}}) {
        const Rates up = rates(12, 1000, k, t, {}, t, 4000);
        BOOST_TEST(up.slower >= 0.95);
        BOOST_TEST(up.blocks_p95 <= 400u);
        const Rates down = rates(13, 1000, k, -t, {}, t, 4000);
        BOOST_TEST(down.faster >= 0.95);
        BOOST_TEST(down.blocks_p95 <= 400u);
    }
}

// A power curve on the memory kernel: the rate of "slower" grows with the change, from <= 1% at 0.
BOOST_AUTO_TEST_CASE(power_curve) {
    double previous = -1.0;
    for (const double change : {0.0, 0.0025, 0.005, 0.01}) {
        const Rates r = rates(14, 500, memory_kernel, change, {}, 0.005, 4000);
        BOOST_TEST(r.slower >= previous);
        previous = r.slower;
        if (change == 0.0) BOOST_TEST(r.slower <= 0.01);
        if (change >= 0.005) BOOST_TEST(r.slower >= 0.95);
    }
}

// compare(fn_a, fn_b)'s rounds (round_plan.hpp): the pilot, then rounds planned from the test's estimate. Over 300
// runs each of A/A and of a change at the threshold, on both kernels, the blocks queued past the verdicts (run
// for nothing) are at most a fifth of the blocks the verdicts needed, in at most 5 rounds for 95% of the runs,
// with each round between 4 blocks and the most allowed.
BOOST_AUTO_TEST_CASE(rounds_planned_from_the_estimate_queue_little_past_the_verdict) {
    for (const auto& [k, t] : {std::pair{memory_kernel, 0.005}, std::pair{spin_kernel, 0.001}}) {
        for (const double change : {0.0, t}) {
            std::mt19937_64 rng(19);
            std::size_t decided = 0, queued = 0;
            std::vector<std::size_t> rounds;
            for (int run = 0; run < 300; ++run) {
                SequentialTest test(SequentialTestOptions{t, 0.99, 16});
                std::size_t per_round = 16, n_rounds = 0;
                const std::size_t most = 125;
                while (!test.decided() && test.blocks() < 4000) {
                    ++n_rounds;
                    queued += per_round;
                    for (std::size_t b = 0; b < per_round && !test.decided(); ++b) {
                        const double a[2] = {sample(rng, k, 0.0, {}, 0), sample(rng, k, 0.0, {}, 0)};
                        const double bb[2] = {sample(rng, k, change, {}, 0), sample(rng, k, change, {}, 0)};
                        test.add_block(a, bb);
                    }
                    per_round = gpuchrono::detail::next_round_blocks(test, most);
                    if (!test.decided()) BOOST_TEST((per_round >= 4u && per_round <= most));
                }
                BOOST_TEST(test.blocks_to_decide() == 0.0);
                decided += test.blocks();
                rounds.push_back(n_rounds);
            }
            std::sort(rounds.begin(), rounds.end());
            BOOST_TEST_MESSAGE("change " << change * 100 << "%: " << queued << " blocks queued for " << decided
                                         << " the verdicts needed; 95th percentile of rounds " << rounds[285]);
            BOOST_TEST(static_cast<double>(queued) <= 1.2 * static_cast<double>(decided));
            BOOST_TEST(rounds[285] <= 5u);
        }
    }
}

BOOST_AUTO_TEST_CASE(blocks_to_decide_counts_the_pilot_then_estimates) {
    SequentialTest test(SequentialTestOptions{0.005, 0.99, 16});
    BOOST_TEST(test.blocks_to_decide() == 16.0);
    std::mt19937_64 rng(20);
    for (int b = 0; b < 10; ++b) {
        const double a[2] = {sample(rng, memory_kernel, 0, {}, 0), sample(rng, memory_kernel, 0, {}, 0)};
        test.add_block(a, a);
    }
    BOOST_TEST(test.blocks_to_decide() == 6.0);
    // Past the pilot the estimate is finite until the verdict, then 0.
    while (!test.decided()) {
        const double a[2] = {sample(rng, memory_kernel, 0, {}, 0), sample(rng, memory_kernel, 0, {}, 0)};
        const double b[2] = {sample(rng, memory_kernel, 0, {}, 0), sample(rng, memory_kernel, 0, {}, 0)};
        if (test.blocks() >= 16) BOOST_TEST((test.blocks_to_decide() >= 0.0 && std::isfinite(test.blocks_to_decide())));
        test.add_block(a, b);
    }
    BOOST_TEST(test.blocks_to_decide() == 0.0);
}

// Drift during the comparison: +3% linear and a +2% step half way (a neighbour arriving), A/A. Interleaved
// stays <= 1% wrong and reports the drift; measuring A over the first half and B over the second, as the
// two-Series compare() does, calls the same code slower nearly every time.
BOOST_AUTO_TEST_CASE(drift_is_cancelled_and_reported) {
    const Drift drift{0.03, 0.02};
    std::mt19937_64 rng(15);
    int wrong = 0, wrong_apart = 0;
    double drift_seen = 0.0;
    const int runs = 500;
    const std::size_t blocks = 300;
    for (int run = 0; run < runs; ++run) {
        // Forced to run all blocks (a threshold no verdict fits before the end), so the drift spans the run.
        SequentialTest test(SequentialTestOptions{0.005, 0.99, 16});
        for (std::size_t b = 0; b < blocks && !test.decided(); ++b) {
            const double pos = static_cast<double>(b) / blocks;
            double a[2], bb[2];
            const bool abba = rng() & 1u;
            a[0] = sample(rng, memory_kernel, 0, drift, pos);
            bb[0] = sample(rng, memory_kernel, 0, drift, pos);
            bb[1] = sample(rng, memory_kernel, 0, drift, pos);
            a[1] = sample(rng, memory_kernel, 0, drift, pos);
            if (!abba) std::swap(a, bb);
            test.add_block(a, bb);
        }
        if (test.verdict() == Verdict::faster || test.verdict() == Verdict::slower) ++wrong;

        std::vector<double> first, second;
        for (std::size_t i = 0; i < 2 * blocks; ++i) first.push_back(sample(rng, memory_kernel, 0, drift, 0.5 * i / (2.0 * blocks)));
        for (std::size_t i = 0; i < 2 * blocks; ++i)
            second.push_back(sample(rng, memory_kernel, 0, drift, 0.5 + 0.5 * i / (2.0 * blocks)));
        const Verdict apart = gpuchrono::compare_samples(first, second, {.threshold = 0.005}).verdict;
        if (apart == Verdict::faster || apart == Verdict::slower) ++wrong_apart;

        // A run that ran to its end reports the drift it saw.
        if (run == 0) {
            SequentialTest full(SequentialTestOptions{0.005, 0.99, 16});
            std::mt19937_64 r2(16);
            for (std::size_t b = 0; b < blocks; ++b) {
                const double pos = static_cast<double>(b) / blocks;
                const double a2[2] = {sample(r2, memory_kernel, 0, {0.05, 0}, pos), sample(r2, memory_kernel, 0, {0.05, 0}, pos)};
                const double b2[2] = {sample(r2, memory_kernel, 0.05, {0.05, 0}, pos), sample(r2, memory_kernel, 0.05, {0.05, 0}, pos)};
                if (full.decided()) break;
                full.add_block(a2, b2);
            }
            drift_seen = full.drift_a();
        }
    }
    BOOST_TEST_MESSAGE("drift +3% linear +2% step, A/A: interleaved wrong " << wrong << " of " << runs
                                                                           << ", A then B wrong " << wrong_apart);
    BOOST_TEST(wrong <= runs / 100);
    BOOST_TEST(wrong_apart >= runs * 9 / 10);
    BOOST_TEST(drift_seen > 0.0);
}

BOOST_AUTO_TEST_CASE(drift_estimate_matches_an_injected_trend) {
    SequentialTest test(SequentialTestOptions{0.5, 0.99, 16});  // a threshold wide enough never to decide early
    const std::size_t blocks = 16;
    for (std::size_t b = 0; b < blocks; ++b) {
        const double env = 1.0 + 0.04 * static_cast<double>(b) / (blocks - 1);  // +4% from first to last block
        const double a[2] = {1e5 * env, 1e5 * env}, bb[2] = {1e5 * env, 1e5 * env};
        test.add_block(a, bb);
    }
    BOOST_TEST(test.drift_a() == 0.04, boost::test_tools::tolerance(0.01));
    BOOST_TEST(test.drift_b() == 0.04, boost::test_tools::tolerance(0.01));
    BOOST_TEST(test.looks() == 0u);  // all pilot
}

BOOST_AUTO_TEST_CASE(result_says_verdict_interval_and_counts) {
    std::mt19937_64 rng(18);
    SequentialTest test(SequentialTestOptions{0.005, 0.99, 16});
    while (!test.decided()) {
        const double a[2] = {sample(rng, memory_kernel, 0, {}, 0), sample(rng, memory_kernel, 0, {}, 0)};
        const double b[2] = {sample(rng, memory_kernel, 0.02, {}, 0), sample(rng, memory_kernel, 0.02, {}, 0)};
        test.add_block(a, b);
    }
    const gpuchrono::SequentialComparison c = gpuchrono::sequential_result(test, "old", "new");
    BOOST_TEST((c.verdict == Verdict::slower));
    BOOST_TEST(c.change_low > 0.0);
    BOOST_TEST(c.change_low <= c.change);
    BOOST_TEST(c.change <= c.change_high);
    BOOST_TEST(c.samples_a == 2 * c.blocks);
    BOOST_TEST(c.looks + 16 == c.blocks);
    BOOST_TEST(c.reason.find("slower: \"new\" against \"old\"") == 0u);
    // Beside the interval that decided, the plain one of the samples taken: narrower, above 0, around the +2%.
    BOOST_TEST(c.plain_low <= c.plain_change);
    BOOST_TEST(c.plain_change <= c.plain_high);
    BOOST_TEST(c.plain_low > 0.0);
    BOOST_TEST(c.plain_change == 0.02, boost::test_tools::tolerance(0.25));
    BOOST_TEST(c.plain_high - c.plain_low < c.change_high - c.change_low);
    const std::string samples = std::to_string(c.samples_a) + " + " + std::to_string(c.samples_b) + " samples; ";
    BOOST_TEST(c.reason.find("] over " + samples + "decided on ") != std::string::npos, c.reason);
    BOOST_TEST(c.reason.find("at 99% over every look, above 0") != std::string::npos, c.reason);
    std::ostringstream printed;
    printed << c;
    BOOST_TEST(printed.str().find(samples) != std::string::npos, printed.str());
    // The testing checks say both intervals too.
    const gpuchrono::CheckResult check = gpuchrono::check_not_slower(c);
    BOOST_TEST(!check.passed);
    BOOST_TEST(check.message.find("\"new\" against \"old\" is slower: ") == 0u, check.message);
    BOOST_TEST(check.message.find("] over " + samples + "decided on ") != std::string::npos, check.message);
    // Before any block: no effect to show, and no look.
    const gpuchrono::SequentialComparison empty =
        gpuchrono::sequential_result(SequentialTest(SequentialTestOptions{0.005, 0.99, 16}), "old", "new");
    BOOST_TEST(std::isnan(empty.plain_change));
    BOOST_TEST(empty.reason.find("no samples yet; no look yet") != std::string::npos, empty.reason);
    BOOST_CHECK_THROW(test.add_block(std::vector<double>{1.0}, std::vector<double>{1.0}), std::logic_error);
}

BOOST_AUTO_TEST_SUITE_END()
