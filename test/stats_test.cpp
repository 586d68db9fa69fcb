// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Tests of gpuchrono::Stats, summarize and percentile against a plain reference implementation (sort, loops,
// long double) on random data over many seeds and on adversarial data, plus the degenerate cases the header
// defines.
//
// Tolerances (eps = DBL_EPSILON, scale = the largest |sample|, n = the sample count):
//   count, rejected_non_finite, min, max, and percentiles at an integral rank   exact
//   interpolated percentiles, median, mad                                        4 eps scale
//   mean                                                                         4 eps scale + n eps (max - min)
//   stddev, cv                                                                   relative 1e-11
// The reference works in long double (64-bit mantissa, range beyond 1e4000), so it neither rounds like the
// implementation nor overflows on the huge-magnitude data.
#include <gpuchrono/stats/stats.hpp>

#include <boost/test/unit_test.hpp>

#include <range/v3/view/generate_n.hpp>
#include <range/v3/view/transform.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using gpuchrono::Duration;
using gpuchrono::Stats;

constexpr double eps = std::numeric_limits<double>::epsilon();
constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();
constexpr double inf_value = std::numeric_limits<double>::infinity();

std::vector<Duration> as_durations(const std::vector<double>& ns) {
    std::vector<Duration> durations;
    for (const double value : ns) durations.push_back(Duration::from_ns(value));
    return durations;
}

// ---------------------------------------------------------------- reference implementation

// numpy's default percentile, written from its definition with integer rank arithmetic where p is an
// integer: h = (n-1) p / 100 has integral part (n-1) p div 100 and fraction ((n-1) p mod 100) / 100.
long double reference_percentile(const std::vector<long double>& sorted, int p) {
    const std::size_t rank_times_100 = (sorted.size() - 1) * static_cast<std::size_t>(p);
    const std::size_t lower = rank_times_100 / 100;
    const std::size_t hundredths = rank_times_100 % 100;
    if (hundredths == 0) return sorted[lower];
    return sorted[lower] + (sorted[lower + 1] - sorted[lower]) * static_cast<long double>(hundredths) / 100.0L;
}

// The same for a p that need not be an integer.
long double reference_percentile_real(const std::vector<long double>& sorted, double p) {
    const long double h = static_cast<long double>(sorted.size() - 1) * p / 100.0L;
    const auto lower = static_cast<std::size_t>(std::floor(h));
    if (lower + 1 >= sorted.size()) return sorted.back();
    return sorted[lower] + (sorted[lower + 1] - sorted[lower]) * (h - static_cast<long double>(lower));
}

struct Reference {
    std::size_t count = 0;
    std::size_t rejected = 0;
    std::vector<long double> sorted;
    long double mean = 0, stddev = 0, mad = 0, cv = 0;
    long double scale = 0;   // largest |x|
    long double spread = 0;  // max - min
};

Reference reference_stats(const std::vector<double>& samples) {
    Reference ref;
    for (const double x : samples) {
        if (std::isfinite(x))
            ref.sorted.push_back(x);
        else
            ++ref.rejected;
    }
    std::sort(ref.sorted.begin(), ref.sorted.end());
    ref.count = ref.sorted.size();
    if (ref.count == 0) return ref;
    const long double n = static_cast<long double>(ref.count);
    long double sum = 0;
    for (const long double x : ref.sorted) sum += x;
    ref.mean = sum / n;
    long double squares = 0;
    for (const long double x : ref.sorted) squares += (x - ref.mean) * (x - ref.mean);
    ref.stddev = ref.count > 1 ? std::sqrt(squares / (n - 1)) : std::numeric_limits<long double>::quiet_NaN();
    ref.cv = ref.stddev / std::fabs(ref.mean);
    const long double median = reference_percentile(ref.sorted, 50);
    std::vector<long double> deviations;
    for (const long double x : ref.sorted) deviations.push_back(std::fabs(x - median));
    std::sort(deviations.begin(), deviations.end());
    ref.mad = reference_percentile(deviations, 50);
    ref.scale = std::max(std::fabs(ref.sorted.front()), std::fabs(ref.sorted.back()));
    ref.spread = ref.sorted.back() - ref.sorted.front();
    return ref;
}

bool within(double got, long double want, long double tolerance) {
    return std::fabs(static_cast<long double>(got) - want) <= tolerance;
}

// Every field of summarize(samples) against the reference, with the tolerances at the top of this file.
void check_against_reference(const std::vector<double>& samples) {
    const Stats stats = gpuchrono::summarize(as_durations(samples));
    const Reference ref = reference_stats(samples);

    BOOST_TEST(stats.count == ref.count);
    BOOST_TEST(stats.rejected_non_finite == ref.rejected);
    if (ref.count == 0) return;

    const long double order_tolerance = 4 * eps * ref.scale;
    BOOST_TEST(stats.min.ns() == static_cast<double>(ref.sorted.front()));
    BOOST_TEST(stats.max.ns() == static_cast<double>(ref.sorted.back()));

    const std::pair<int, Duration> percentiles[] = {{5, stats.p5},   {25, stats.p25}, {50, stats.median},
                                                   {75, stats.p75}, {95, stats.p95}, {99, stats.p99}};
    for (const auto& [p, got] : percentiles) {
        const long double want = reference_percentile(ref.sorted, p);
        BOOST_TEST(within(got.ns(), want, order_tolerance),
                   "p" << p << ": got " << got.ns() << " want " << static_cast<double>(want) << " (n " << ref.count << ")");
        // Integral ranks must be exact: this is what catches an off-by-one in the rank.
        if ((ref.count - 1) * static_cast<std::size_t>(p) % 100 == 0)
            BOOST_TEST(got.ns() == static_cast<double>(want), "p" << p << " at an integral rank must be exact");
    }

    const long double n = static_cast<long double>(ref.count);
    BOOST_TEST(within(stats.mean.ns(), ref.mean, 4 * eps * ref.scale + n * eps * ref.spread),
               "mean: got " << stats.mean.ns() << " want " << static_cast<double>(ref.mean));
    BOOST_TEST(within(stats.mad.ns(), ref.mad, order_tolerance),
               "mad: got " << stats.mad.ns() << " want " << static_cast<double>(ref.mad));
    if (ref.count == 1) {
        BOOST_TEST(std::isnan(stats.stddev.ns()));
        BOOST_TEST(std::isnan(stats.cv));
        return;
    }
    BOOST_TEST(within(stats.stddev.ns(), ref.stddev, 1e-11L * ref.stddev),
               "stddev: got " << stats.stddev.ns() << " want " << static_cast<double>(ref.stddev));
    if (ref.stddev == 0)
        BOOST_TEST(stats.cv == 0.0);
    else if (ref.mean == 0)
        BOOST_TEST(stats.cv == inf_value);
    else
        BOOST_TEST(within(stats.cv, ref.cv, 1e-11L * ref.cv),
                   "cv: got " << stats.cv << " want " << static_cast<double>(ref.cv));
}

// percentile() for any p, and its agreement with the Stats fields (two code paths: nth_element vs sort).
void check_percentile_function(const std::vector<double>& samples, std::mt19937_64& rng) {
    const auto durations = as_durations(samples);
    const Reference ref = reference_stats(samples);
    if (ref.count == 0) {
        BOOST_TEST(std::isnan(gpuchrono::percentile(durations, 50).ns()));
        return;
    }
    const Stats stats = gpuchrono::summarize(durations);
    BOOST_TEST(gpuchrono::percentile(durations, 0).ns() == stats.min.ns());
    BOOST_TEST(gpuchrono::percentile(durations, 100).ns() == stats.max.ns());
    BOOST_TEST(gpuchrono::percentile(durations, 5).ns() == stats.p5.ns());
    BOOST_TEST(gpuchrono::percentile(durations, 50).ns() == stats.median.ns());
    BOOST_TEST(gpuchrono::percentile(durations, 99).ns() == stats.p99.ns());
    std::uniform_real_distribution<double> any_p(0.0, 100.0);
    for (int i = 0; i < 5; ++i) {
        const double p = any_p(rng);
        const long double want = reference_percentile_real(ref.sorted, p);
        const double got = gpuchrono::percentile(durations, p).ns();
        // h may round differently in double and long double; the value is continuous in h.
        BOOST_TEST(within(got, want, 4 * eps * ref.scale + 1e-12L * ref.spread),
                   "percentile(" << p << "): got " << got << " want " << static_cast<double>(want));
    }
}

// Random samples of one of several shapes that kernel timings take, chosen by the seed.
std::vector<double> random_samples(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const std::size_t n = 1 + rng() % 1000;
    std::vector<double> samples(n);
    switch (seed % 6) {
        case 0: {  // uniform
            std::uniform_real_distribution<double> uniform(0.0, 1e6);
            for (double& x : samples) x = uniform(rng);
            break;
        }
        case 1: {  // skewed with a long right tail and some 10x outliers
            std::lognormal_distribution<double> lognormal(10.0, 0.5);
            std::bernoulli_distribution outlier(0.02);
            for (double& x : samples) x = lognormal(rng) * (outlier(rng) ? 10.0 : 1.0);
            break;
        }
        case 2: {  // 32 ns %globaltimer steps over a narrow range: many ties
            std::uniform_int_distribution<int> steps(3000, 3010);
            for (double& x : samples) x = 32.0 * steps(rng);
            break;
        }
        case 3: {  // large common offset with a small spread: cancellation
            std::normal_distribution<double> noise(0.0, 50.0);
            for (double& x : samples) x = 1e15 + std::round(noise(rng));
            break;
        }
        case 4: {  // magnitudes over fifteen decades
            std::uniform_real_distribution<double> decade(-3.0, 12.0);
            for (double& x : samples) x = std::pow(10.0, decade(rng));
            break;
        }
        case 5: {  // NaN and infinities mixed into ordinary data
            std::uniform_real_distribution<double> uniform(1e3, 2e3);
            std::uniform_int_distribution<int> kind(0, 9);
            for (double& x : samples) {
                const int k = kind(rng);
                x = k == 0 ? nan_value : k == 1 ? inf_value : k == 2 ? -inf_value : uniform(rng);
            }
            break;
        }
    }
    return samples;
}

void check_fields_identical(const Stats& a, const Stats& b) {
    // Bit-for-bit, NaN equal to NaN: the same finite data in any order must give the same summary.
    const auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
    BOOST_TEST(a.count == b.count);
    BOOST_TEST(a.rejected_non_finite == b.rejected_non_finite);
    const std::pair<Duration, Duration> pairs[] = {{a.min, b.min},       {a.max, b.max},   {a.mean, b.mean},
                                                   {a.median, b.median}, {a.stddev, b.stddev}, {a.mad, b.mad},
                                                   {a.p5, b.p5},         {a.p25, b.p25},   {a.p75, b.p75},
                                                   {a.p95, b.p95},       {a.p99, b.p99}};
    for (const auto& [x, y] : pairs) BOOST_TEST(same(x.ns(), y.ns()), x.ns() << " vs " << y.ns());
    BOOST_TEST(same(a.cv, b.cv));
}

void check_all_nan(const Stats& stats) {
    for (const Duration d : {stats.min, stats.max, stats.mean, stats.median, stats.stddev, stats.mad, stats.p5,
                             stats.p25, stats.p75, stats.p95, stats.p99})
        BOOST_TEST(std::isnan(d.ns()));
    BOOST_TEST(std::isnan(stats.cv));
}

template <class Range>
concept summarizable = std::invocable<const gpuchrono::summarize_fn&, Range>;

}  // namespace

BOOST_AUTO_TEST_SUITE(stats)

BOOST_AUTO_TEST_CASE(random_data_matches_reference_over_200_seeds) {
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        BOOST_TEST_CONTEXT("seed " << seed << " (shape " << seed % 6 << ")") {
            const auto samples = random_samples(seed);
            check_against_reference(samples);
            std::mt19937_64 rng(seed + 1000);
            check_percentile_function(samples, rng);
        }
    }
}

BOOST_AUTO_TEST_CASE(every_size_from_1_to_120_matches_reference) {
    // Small sizes are where rank arithmetic goes wrong; cover each one.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> uniform(0.0, 1000.0);
    for (std::size_t n = 1; n <= 120; ++n) {
        BOOST_TEST_CONTEXT("n " << n) {
            std::vector<double> samples(n);
            for (double& x : samples) x = uniform(rng);
            check_against_reference(samples);
            check_percentile_function(samples, rng);
        }
    }
}

BOOST_AUTO_TEST_CASE(known_answers_computed_by_hand) {
    // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) = [1.75, 2.5, 3.25]
    const auto four = as_durations({4, 1, 3, 2});
    BOOST_TEST(gpuchrono::percentile(four, 25).ns() == 1.75);
    BOOST_TEST(gpuchrono::percentile(four, 50).ns() == 2.5);
    BOOST_TEST(gpuchrono::percentile(four, 75).ns() == 3.25);
    // numpy.percentile([15, 20, 35, 40, 50], [5, 40, 95]) = [16, 29, 48]
    const auto five = as_durations({15, 20, 35, 40, 50});
    BOOST_TEST(gpuchrono::percentile(five, 5).ns() == 16.0);
    BOOST_TEST(gpuchrono::percentile(five, 40).ns() == 29.0);
    BOOST_TEST(gpuchrono::percentile(five, 95).ns() == 48.0);

    // {2, 4, 4, 4, 5, 5, 7, 9}: mean 5, sample variance 32/7, median 4.5,
    // |x - 4.5| = {2.5, .5, .5, .5, .5, .5, 2.5, 4.5} so MAD 0.5.
    const Stats s = gpuchrono::summarize(as_durations({2, 4, 4, 4, 5, 5, 7, 9}));
    BOOST_TEST(s.count == 8u);
    BOOST_TEST(s.mean.ns() == 5.0);
    BOOST_TEST(s.median.ns() == 4.5);
    BOOST_TEST(s.mad.ns() == 0.5);
    BOOST_TEST(s.stddev.ns() == std::sqrt(32.0 / 7.0), boost::test_tools::tolerance(1e-15));
    BOOST_TEST(s.cv == std::sqrt(32.0 / 7.0) / 5.0, boost::test_tools::tolerance(1e-15));
    BOOST_TEST(s.min.ns() == 2.0);
    BOOST_TEST(s.max.ns() == 9.0);
    BOOST_TEST(s.p25.ns() == 4.0);   // h = 1.75 between 4 and 4
    BOOST_TEST(s.p75.ns() == 5.5);   // h = 5.25: 5 + .25 * 2
    BOOST_TEST(s.p95.ns() == 8.3);   // h = 6.65: 7 + .65 * 2
    BOOST_TEST(s.iqr().ns() == 1.5);
    BOOST_TEST(s.scaled_mad().ns() == 0.5 * 1.482602218505602);
}

BOOST_AUTO_TEST_CASE(empty_input_gives_count_0_and_nan) {
    const Stats s = gpuchrono::summarize(std::vector<Duration>{});
    BOOST_TEST(s.count == 0u);
    BOOST_TEST(s.rejected_non_finite == 0u);
    check_all_nan(s);
    check_all_nan(Stats{});  // a default Stats is the empty summary
    BOOST_TEST(std::isnan(gpuchrono::percentile(std::vector<Duration>{}, 50).ns()));
}

BOOST_AUTO_TEST_CASE(only_non_finite_input_is_counted_as_rejected) {
    const Stats s = gpuchrono::summarize(as_durations({nan_value, inf_value, -inf_value, nan_value}));
    BOOST_TEST(s.count == 0u);
    BOOST_TEST(s.rejected_non_finite == 4u);
    check_all_nan(s);
    BOOST_TEST(std::isnan(gpuchrono::percentile(as_durations({nan_value, inf_value}), 0).ns()));
}

BOOST_AUTO_TEST_CASE(one_sample_has_no_spread_estimate) {
    const Stats s = gpuchrono::summarize(as_durations({1234.5}));
    BOOST_TEST(s.count == 1u);
    for (const Duration d : {s.min, s.max, s.mean, s.median, s.p5, s.p25, s.p75, s.p95, s.p99})
        BOOST_TEST(d.ns() == 1234.5);
    BOOST_TEST(s.mad.ns() == 0.0);
    BOOST_TEST(std::isnan(s.stddev.ns()));
    BOOST_TEST(std::isnan(s.cv));
}

BOOST_AUTO_TEST_CASE(all_equal_values_have_exactly_zero_spread) {
    const double denormal = std::numeric_limits<double>::denorm_min();
    for (const double value : {0.0, 0.1, 1.0 / 3.0, 12345.678, 1e15 + 0.5, denormal, 1e300, -7.25}) {
        for (const std::size_t n : {2u, 3u, 10u, 1000u}) {
            BOOST_TEST_CONTEXT("value " << value << " n " << n) {
                const Stats s = gpuchrono::summarize(as_durations(std::vector<double>(n, value)));
                BOOST_TEST(s.count == n);
                BOOST_TEST(s.stddev.ns() == 0.0);
                BOOST_TEST(s.mad.ns() == 0.0);
                BOOST_TEST(s.cv == 0.0);
                for (const Duration d : {s.min, s.max, s.mean, s.median, s.p5, s.p25, s.p75, s.p95, s.p99})
                    BOOST_TEST(d.ns() == value);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(two_values) {
    const Stats s = gpuchrono::summarize(as_durations({300, 100}));
    BOOST_TEST(s.mean.ns() == 200.0);
    BOOST_TEST(s.median.ns() == 200.0);
    BOOST_TEST(s.p25.ns() == 150.0);
    BOOST_TEST(s.p5.ns() == 110.0);
    BOOST_TEST(s.p99.ns() == 298.0);
    BOOST_TEST(s.mad.ns() == 100.0);
    BOOST_TEST(s.stddev.ns() == 200.0 / std::sqrt(2.0), boost::test_tools::tolerance(1e-15));
    check_against_reference({300, 100});
    check_against_reference({1.0, std::nextafter(1.0, 2.0)});
}

BOOST_AUTO_TEST_CASE(huge_and_tiny_magnitudes_neither_overflow_nor_underflow) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> factor(1.0, 2.0);
    for (const double magnitude : {1e200, 1e300, 1e-200, 1e-300}) {
        BOOST_TEST_CONTEXT("magnitude " << magnitude) {
            std::vector<double> samples(257);
            for (double& x : samples) x = magnitude * factor(rng);
            check_against_reference(samples);
            const Stats s = gpuchrono::summarize(as_durations(samples));
            BOOST_TEST(std::isfinite(s.stddev.ns()));
            BOOST_TEST(s.stddev.ns() > 0.0);
        }
    }
    // Subnormal values: spacing of the smallest denormal, 3 steps: mean 2d, stddev d exactly.
    const double d = std::numeric_limits<double>::denorm_min();
    const Stats tiny = gpuchrono::summarize(as_durations({d, 2 * d, 3 * d}));
    BOOST_TEST(tiny.mean.ns() == 2 * d);
    BOOST_TEST(tiny.stddev.ns() == d);
}

BOOST_AUTO_TEST_CASE(large_offset_with_small_spread_keeps_its_digits) {
    // A naive sum of squares would lose everything here: 1e15 squared is 1e30 and the spread is 1.
    const Stats s = gpuchrono::summarize(as_durations({1e15, 1e15 + 1, 1e15 + 2}));
    BOOST_TEST(s.mean.ns() == 1e15 + 1);
    BOOST_TEST(s.stddev.ns() == 1.0);
    BOOST_TEST(s.mad.ns() == 1.0);
}

BOOST_AUTO_TEST_CASE(non_finite_samples_are_excluded_and_counted) {
    const Stats mixed = gpuchrono::summarize(as_durations({1, nan_value, 2, inf_value, 3, -inf_value}));
    const Stats clean = gpuchrono::summarize(as_durations({1, 2, 3}));
    BOOST_TEST(mixed.rejected_non_finite == 3u);
    BOOST_TEST(clean.rejected_non_finite == 0u);
    Stats mixed_without_count = mixed;
    mixed_without_count.rejected_non_finite = 0;
    check_fields_identical(mixed_without_count, clean);
    BOOST_TEST(gpuchrono::percentile(as_durations({nan_value, 10, inf_value, 20}), 50).ns() == 15.0);
}

BOOST_AUTO_TEST_CASE(order_of_input_does_not_matter) {
    std::mt19937_64 rng(3);
    for (const std::uint64_t seed : {0u, 1u, 2u, 3u, 4u, 5u, 42u}) {
        BOOST_TEST_CONTEXT("seed " << seed) {
            auto samples = random_samples(seed);
            const Stats as_given = gpuchrono::summarize(as_durations(samples));
            std::sort(samples.begin(), samples.end(), [](double a, double b) {
                return std::isnan(b) ? !std::isnan(a) : a < b;  // NaN last, a strict weak order
            });
            check_against_reference(samples);
            const Stats sorted = gpuchrono::summarize(as_durations(samples));
            std::reverse(samples.begin(), samples.end());
            const Stats reversed = gpuchrono::summarize(as_durations(samples));
            std::shuffle(samples.begin(), samples.end(), rng);
            const Stats shuffled = gpuchrono::summarize(as_durations(samples));
            check_fields_identical(as_given, sorted);
            check_fields_identical(as_given, reversed);
            check_fields_identical(as_given, shuffled);
        }
    }
}

BOOST_AUTO_TEST_CASE(duplicates_and_ties) {
    check_against_reference({5, 5, 5, 5, 7, 7, 9});
    check_against_reference({1, 1, 1, 1, 1, 1, 1, 1, 1, 1000});  // one outlier: median 1, mad 0
    const Stats s = gpuchrono::summarize(as_durations({1, 1, 1, 1, 1, 1, 1, 1, 1, 1000}));
    BOOST_TEST(s.median.ns() == 1.0);
    BOOST_TEST(s.mad.ns() == 0.0);
    BOOST_TEST(s.stddev.ns() > 300.0);  // the mean and sd are dragged by the one outlier; that is the point of mad
}

BOOST_AUTO_TEST_CASE(coefficient_of_variation_sign_and_zero_mean) {
    const Stats negative = gpuchrono::summarize(as_durations({-3, -2, -1}));
    BOOST_TEST(negative.cv == 0.5);  // stddev 1 / |mean 2|
    const Stats centred = gpuchrono::summarize(as_durations({-1, 1}));
    BOOST_TEST(centred.mean.ns() == 0.0);
    BOOST_TEST(centred.cv == inf_value);
}

BOOST_AUTO_TEST_CASE(percentile_refuses_p_outside_0_to_100_and_names_it) {
    const auto samples = as_durations({1, 2, 3});
    const auto names = [](const std::string& value) {
        return [value](const std::invalid_argument& e) {
            const std::string message = e.what();
            return message.find("[0, 100]") != std::string::npos && message.find("got " + value) != std::string::npos;
        };
    };
    BOOST_CHECK_EXCEPTION(gpuchrono::percentile(samples, -0.5), std::invalid_argument, names("-0.5"));
    BOOST_CHECK_EXCEPTION(gpuchrono::percentile(samples, 100.5), std::invalid_argument, names("100.5"));
    BOOST_CHECK_EXCEPTION(gpuchrono::percentile(samples, 1e300), std::invalid_argument, names("1e+300"));
    BOOST_CHECK_EXCEPTION(gpuchrono::percentile(samples, nan_value), std::invalid_argument, names("nan"));
    BOOST_CHECK_EXCEPTION(gpuchrono::percentile(samples, std::nextafter(100.0, 200.0)), std::invalid_argument,
                          names("100.00000000000001"));
    BOOST_CHECK_EXCEPTION(gpuchrono::percentile(101), std::invalid_argument, names("101"));  // pipe form
    BOOST_TEST(gpuchrono::percentile(samples, 0).ns() == 1.0);
    BOOST_TEST(gpuchrono::percentile(samples, 100).ns() == 3.0);

    // The check comes before the samples are read: a single-pass source is left untouched.
    int reads = 0;
    auto source = ranges::views::generate_n([&reads] { return Duration::from_ns(++reads); }, 10);
    BOOST_CHECK_THROW(gpuchrono::percentile(source, 200), std::invalid_argument);
    BOOST_TEST(reads == 0);
}

BOOST_AUTO_TEST_CASE(pipes_and_element_types) {
    const auto samples = as_durations({4, 1, 3, 2, 5});
    check_fields_identical(samples | gpuchrono::summarize, gpuchrono::summarize(samples));
    BOOST_TEST((samples | gpuchrono::percentile(25)).ns() == 2.0);

    // std::chrono durations are durations too.
    const std::vector<std::chrono::microseconds> micro{std::chrono::microseconds(2), std::chrono::microseconds(4)};
    const Stats from_chrono = micro | gpuchrono::summarize;
    BOOST_TEST(from_chrono.mean.ns() == 3000.0);

    // A single-pass input range is enough.
    int next = 0;
    const Stats generated =
        ranges::views::generate_n([&next] { return Duration::from_ns(++next); }, 9) | gpuchrono::summarize;
    BOOST_TEST(generated.count == 9u);
    BOOST_TEST(generated.median.ns() == 5.0);

    // Numbers without a unit are refused; the unit is stated by converting them.
    static_assert(!summarizable<std::vector<double>&>);
    static_assert(!summarizable<std::vector<int>&>);
    static_assert(summarizable<std::vector<Duration>&>);
    static_assert(summarizable<const std::vector<std::chrono::nanoseconds>&>);
    const std::vector<double> event_ms{0.5, 1.5};
    const auto as_ms = ranges::views::transform(&Duration::from_ms);
    BOOST_TEST((event_ms | as_ms | gpuchrono::summarize).mean.ns() == 1e6);
    // A view piped into summarize composes into a reusable pipeline.
    const auto summarize_ms = as_ms | gpuchrono::summarize;
    BOOST_TEST((event_ms | summarize_ms).max.ns() == 1.5e6);
}

BOOST_AUTO_TEST_CASE(one_readable_line) {
    const Stats s = gpuchrono::summarize(as_durations({1000, 2000, 3000, nan_value}));
    const std::string line = gpuchrono::to_string(s);
    BOOST_TEST(line.find('\n') == std::string::npos);
    BOOST_TEST(line.rfind("n=3  median 2.00 us  mean 2.00 us  sd 1.00 us  cv 50%  min 1.00 us", 0) == 0, line);
    BOOST_TEST(line.find("max 3.00 us") != std::string::npos, line);
    BOOST_TEST(line.find("mad 1.00 us") != std::string::npos, line);
    BOOST_TEST(line.find("(1 non-finite rejected)") != std::string::npos, line);
    std::ostringstream streamed;
    streamed << s;
    BOOST_TEST(streamed.str() == line);

    BOOST_TEST(gpuchrono::to_string(Stats{}) == "n=0 (no finite samples)");
    BOOST_TEST(gpuchrono::to_string(gpuchrono::summarize(as_durations({nan_value, nan_value}))) ==
               "n=0 (no finite samples)  (2 non-finite rejected)");
    const std::string single = gpuchrono::to_string(gpuchrono::summarize(as_durations({5})));
    BOOST_TEST(single.find("sd nan  cv nan") != std::string::npos, single);
}

BOOST_AUTO_TEST_SUITE_END()
