// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::Stats and the reductions that produce it: the one summary that the samples of every policy
// (HostSyncPolicy, EventPolicy, DeviceClockPolicy) end in.
//
// Host only. This header includes range-v3, which nvcc 13.0 cannot compile (docs/install.md), so no header that a
// .cu file includes may include this one. Importing code gets it through `import gpuchrono;`.
//
// Why this set of statistics: kernel timings are skewed, with a long right tail of slow samples (docs/pitfalls-catalog.md
// row 26), so the mean and standard deviation describe the tail as much as the kernel. The summary therefore
// also carries the order statistics (min, median, percentiles) and the median absolute deviation, which are
// the ones to compare between runs.
//
// Every reduction accepts any input range (single pass is enough) whose elements convert to Duration, that
// is Duration or any std::chrono::duration, and works both as a call and at the end of a pipe:
//
//     Stats s = gpuchrono::summarize(durations);
//     Stats s = samples | gpuchrono::views::for_region(0) | gpuchrono::views::block_durations | gpuchrono::summarize;
//     Duration tail = durations | gpuchrono::percentile(99);
//
// Ranges of plain numbers are refused at compile time on purpose: a double does not say whether it holds
// nanoseconds or the milliseconds of cudaEventElapsedTime. Convert where the unit is known, e.g.
// `event_ms | ranges::views::transform(gpuchrono::Duration::from_ms) | gpuchrono::summarize`.
#pragma once

#include <gpuchrono/core/duration.hpp>

#include <range/v3/functional/pipeable.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <iomanip>
#include <iterator>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpuchrono {

namespace detail {

inline constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
inline constexpr Duration not_a_duration = Duration::from_ns(not_a_number);

}  // namespace detail

struct Stats;
inline std::string to_string(const Stats& stats);

// Summary of a set of durations. Definitions, for the n finite samples x_1..x_n and their ascending order
// x_(0) <= ... <= x_(n-1) (0-based):
//
//   count                number of finite samples the statistics below were computed from (n).
//   rejected_non_finite  number of NaN or infinite samples in the input. They are excluded from every
//                        statistic, and counted here so that a caller can tell that (and how many) were left out.
//   min, max             x_(0) and x_(n-1).
//   mean                 the arithmetic mean, sum(x_i) / n.
//   stddev               the SAMPLE standard deviation, with Bessel's correction:
//                        sqrt( sum (x_i - mean)^2 / (n - 1) ).
//   cv                   coefficient of variation, stddev / |mean|, a plain ratio (0.01 means 1 %).
//                        |mean| rather than mean so that it stays a non-negative spread measure if
//                        durations come out negative after an overhead subtraction.
//   percentiles          p5, p25, median (= p50), p75, p95, p99, all with linear interpolation between the
//                        closest ranks: the "R-7" / Hyndman-Fan type 7 definition that numpy.percentile and
//                        Excel PERCENTILE.INC use by default. For p in [0, 100]:
//                            h = (n - 1) * p / 100,   value = x_(floor h) + (h - floor h) * (x_(floor h + 1) - x_(floor h))
//                        so p0 = min, p100 = max, and the median of an even count is the mean of the two middle values.
//   mad                  median absolute deviation, UNSCALED: the median (as above) of |x_i - median|.
//                        scaled_mad() multiplies it by 1.482602218505602 (= 1 / Phi^-1(3/4)), which makes it
//                        estimate the standard deviation when the data are normal.
//
// Degenerate input (each case is tested):
//   no finite sample (empty input, or only NaN/inf)  count 0; every Duration field and cv are NaN.
//   one sample                   min = max = mean = median = every percentile = the sample; mad 0;
//                                stddev and cv NaN: with n - 1 = 0 there is no estimate of the spread, and 0
//                                would claim a perfect repeatability that one sample cannot show.
//   all samples equal (n >= 2)   stddev, mad and cv exactly 0 (also when the value is 0, where stddev/|mean|
//                                would be 0/0: no variation is a relative variation of 0).
//   mean 0 and stddev > 0        cv is +inf.
//
// Accuracy: min, max and percentiles at an integral rank are exact; an interpolated percentile is within a
// few ulp. The mean is accumulated as offsets from the median and the spread is scaled before squaring, so a
// large common offset (1e15 ns with a spread of 1 ns) loses no digits, all-equal input gives exactly 0, and
// squares neither overflow nor underflow for magnitudes between about 1e-300 and 1e300.
struct Stats {
    std::size_t count = 0;
    Duration min = detail::not_a_duration;
    Duration max = detail::not_a_duration;
    Duration mean = detail::not_a_duration;
    Duration median = detail::not_a_duration;
    Duration stddev = detail::not_a_duration;
    Duration mad = detail::not_a_duration;
    double cv = detail::not_a_number;
    Duration p5 = detail::not_a_duration;
    Duration p25 = detail::not_a_duration;
    Duration p75 = detail::not_a_duration;
    Duration p95 = detail::not_a_duration;
    Duration p99 = detail::not_a_duration;
    std::size_t rejected_non_finite = 0;

    // Interquartile range, p75 - p25: the spread of the middle half, insensitive to the tail.
    Duration iqr() const noexcept { return p75 - p25; }

    // The MAD scaled to estimate the standard deviation of normal data (see above).
    Duration scaled_mad() const noexcept { return mad * 1.482602218505602; }

    // One line, every Duration in its natural unit, e.g.
    // "n=100  median 12.5 us  mean 12.6 us  sd 310 ns  cv 2.45%  min 12.0 us  p5 12.1 us  ...  mad 110 ns".
    // A hidden friend so that argument-dependent lookup finds it in code that imports the module.
    friend std::ostream& operator<<(std::ostream& os, const Stats& stats) { return os << to_string(stats); }
};

namespace detail {

// Elements must convert to Duration (Duration itself, std::chrono durations); plain numbers are refused
// because they carry no unit (see the top of this file).
template <class Range>
concept duration_range =
    ranges::input_range<Range> && std::convertible_to<ranges::range_reference_t<Range>, Duration>;

// The shortest text that reads back as exactly `value`: "got 100" for 100 + 1e-14 would mislead, and
// "1.0000000000000001e+300" for the 1e300 the caller wrote would be noise.
inline std::string exact_number(double value) {
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

inline void require_percentile_in_range(double p) {
    if (!(p >= 0.0 && p <= 100.0))  // written so that NaN is refused too
        throw std::invalid_argument("gpuchrono::percentile: p must be in [0, 100], got " + exact_number(p));
}

struct FiniteSamples {
    std::vector<double> ns;
    std::size_t rejected_non_finite = 0;
};

template <duration_range Range>
FiniteSamples finite_samples_ns(Range&& samples) {
    FiniteSamples finite;
    if constexpr (ranges::sized_range<Range>)
        finite.ns.reserve(static_cast<std::size_t>(ranges::size(samples)));
    for (auto&& sample : samples) {
        const double ns = Duration(sample).ns();
        if (std::isfinite(ns))
            finite.ns.push_back(ns);
        else
            ++finite.rejected_non_finite;
    }
    return finite;
}

// The R-7 rank h = (n - 1) p / 100, split into the lower closest rank and the weight of the next one.
// Why not floor(h) and h - floor(h): the fraction would carry the absolute rounding error of h, an ulp of
// a number up to n, so p99 of 1000 samples would be off by ~1e-13 of the gap between the two ranks. Here
// (n - 1) p is formed first (exact for integral p), its whole hundreds are split off exactly, and only the
// remainder is divided, so the weight is correct to half an ulp and integral ranks have weight exactly 0.
struct ClosestRanks {
    std::size_t lower;
    double upper_weight;
};

inline ClosestRanks closest_ranks(std::size_t n, double p) {
    const double rank_times_100 = static_cast<double>(n - 1) * p;
    double lower = std::floor(rank_times_100 / 100.0);
    double hundredths = rank_times_100 - 100.0 * lower;  // exact (Sterbenz): within a factor 2 of each other, or 0
    // The quotient may have rounded across an integer; move the split to where the remainder says.
    if (hundredths < 0.0) {
        lower -= 1.0;
        hundredths += 100.0;
    } else if (hundredths >= 100.0) {
        lower += 1.0;
        hundredths -= 100.0;
    }
    const auto lower_rank = std::min(static_cast<std::size_t>(lower), n - 1);
    return {lower_rank, lower_rank == n - 1 ? 0.0 : hundredths / 100.0};
}

// std::lerp rather than a + t (b - a): it returns a exactly when a == b, is monotonic in t, and does not
// overflow when b - a would.
inline double interpolate(double lower_value, double upper_value, double upper_weight) {
    return upper_weight == 0.0 ? lower_value : std::lerp(lower_value, upper_value, upper_weight);
}

// R-7 percentile of ascending, non-empty, finite values; p already checked.
inline double percentile_of_sorted(const std::vector<double>& sorted, double p) {
    const auto [lower, upper_weight] = closest_ranks(sorted.size(), p);
    if (lower + 1 >= sorted.size()) return sorted[lower];
    return interpolate(sorted[lower], sorted[lower + 1], upper_weight);
}

// The same value as percentile_of_sorted in O(n): only the two closest ranks are put in place.
inline double percentile_of_unsorted(std::vector<double>& values, double p) {
    const auto [lower, upper_weight] = closest_ranks(values.size(), p);
    const auto lower_it = values.begin() + static_cast<std::ptrdiff_t>(lower);
    std::nth_element(values.begin(), lower_it, values.end());
    if (lower + 1 >= values.size() || upper_weight == 0.0) return *lower_it;
    const double upper_value = *std::min_element(lower_it + 1, values.end());  // everything after is >= lower
    return interpolate(*lower_it, upper_value, upper_weight);
}

// Mean accumulated as offsets from a central value: with a large common offset the offsets are small and
// exact, and when all values are equal every offset is 0 and the mean is that value exactly (a plain sum of
// ten 0.1s divided by 10 is not 0.1).
// A sum that does not depend on the order of its terms, so the summary of the same samples in any order is
// the same to the bit without sorting them first (a sort of 10 million samples cost 4x the selection that
// replaced it). Each term is rounded to a fixed grid of 2^-62 of `bound` (>= every |term|), and the integers
// are summed exactly in 128 bits: the result is the exact sum of the rounded terms, whatever their order.
// Its error is at most n 2^-63 bound, far below the n eps of a plain running sum. A non-finite bound falls
// back to a plain sum (the result is then inf or NaN anyway).
class FixedPointSum {
public:
    explicit FixedPointSum(double bound) noexcept
        : exponent_(bound > 0.0 && std::isfinite(bound) ? std::ilogb(bound) + 1 : 0), plain_(!std::isfinite(bound)) {
        // Scaling by 2^(62 - exponent) in two exact steps: one power of two that large could overflow.
        const int shift = grid_bits - exponent_;
        scale_low_ = std::ldexp(1.0, shift / 2);
        scale_high_ = std::ldexp(1.0, shift - shift / 2);
    }

    void add(double x) noexcept {
        if (plain_) {
            plain_sum_ += x;
            return;
        }
        sum_ += static_cast<int128>(std::llrint(x * scale_low_ * scale_high_));
    }

    double value() const noexcept {
        if (plain_) return plain_sum_;
        return std::ldexp(static_cast<double>(sum_), exponent_ - grid_bits);
    }

private:
    __extension__ using int128 = __int128;  // a GCC/Clang extension: exact for 2^64 terms of 2^62
    static constexpr int grid_bits = 62;
    int exponent_;  // every |term| < 2^exponent_
    bool plain_;
    double scale_low_ = 1.0, scale_high_ = 1.0;
    int128 sum_ = 0;
    double plain_sum_ = 0.0;
};

inline double mean_of(const std::vector<double>& values, double centre, double min, double max) {
    FixedPointSum offset_sum(std::max(max - centre, centre - min));
    for (const double value : values) offset_sum.add(value - centre);
    return centre + offset_sum.value() / static_cast<double>(values.size());
}

// Sample standard deviation (n - 1). Deviations are divided by the largest one before squaring so that the
// squares neither overflow (1e200 ns) nor underflow (1e-200 ns); the corrected two-pass form (Chan, Golub
// and LeVeque 1983) removes most of the rounding error of the mean from the result.
inline double sample_stddev(const std::vector<double>& values, double mean) {
    const std::size_t n = values.size();
    if (n < 2) return not_a_number;
    double largest_deviation = 0.0;
    for (const double value : values) largest_deviation = std::max(largest_deviation, std::fabs(value - mean));
    if (largest_deviation == 0.0) return 0.0;
    FixedPointSum sum_acc(1.0);             // |scaled| <= 1
    FixedPointSum sum_of_squares_acc(1.0);
    for (const double value : values) {
        const double scaled = (value - mean) / largest_deviation;
        sum_acc.add(scaled);
        sum_of_squares_acc.add(scaled * scaled);
    }
    const double sum = sum_acc.value();
    const double scaled_variance =
        (sum_of_squares_acc.value() - sum * sum / static_cast<double>(n)) / static_cast<double>(n - 1);
    return largest_deviation * std::sqrt(std::max(scaled_variance, 0.0));
}

inline double coefficient_of_variation(double stddev, double mean) {
    if (std::isnan(stddev)) return not_a_number;
    if (stddev == 0.0) return 0.0;
    return stddev / std::fabs(mean);  // +inf for mean 0
}

// Puts the values of the ascending ranks [first, last) in place within values[begin, end) (ranks are absolute
// indices), each as nth_element would, splitting the range at the middle rank and recursing into each side.
inline void select_ranks(std::vector<double>& values, const std::size_t* first, const std::size_t* last, std::size_t begin,
                         std::size_t end) {
    while (first != last && begin < end) {
        const std::size_t* middle = first + (last - first) / 2;
        const auto at = values.begin() + static_cast<std::ptrdiff_t>(*middle);
        std::nth_element(values.begin() + static_cast<std::ptrdiff_t>(begin), at,
                         values.begin() + static_cast<std::ptrdiff_t>(end));
        select_ranks(values, first, std::lower_bound(first, middle, *middle), begin, *middle);
        // Equal ranks on the right are already in place.
        first = middle + 1;
        while (first != last && *first == *middle) ++first;
        begin = *middle + 1;
    }
}

inline Stats summarize_finite(std::vector<double> ns, std::size_t rejected_non_finite) {
    Stats stats;
    stats.count = ns.size();
    stats.rejected_non_finite = rejected_non_finite;
    if (ns.empty()) return stats;

    // Selection instead of a sort: the percentiles' lower closest ranks are put in place by one multi-select
    // (O(n) expected, where a sort of 10 million samples took 4x as long), and the rank after each is the
    // smallest value between it and the next selected rank.
    const double ps[] = {5, 25, 50, 75, 95, 99};
    std::size_t ranks[std::size(ps)];
    for (std::size_t i = 0; i < std::size(ps); ++i) ranks[i] = closest_ranks(ns.size(), ps[i]).lower;
    select_ranks(ns, ranks, ranks + std::size(ps), 0, ns.size());
    const auto at_percentile = [&](std::size_t i) {
        const auto [lower, upper_weight] = closest_ranks(ns.size(), ps[i]);
        if (upper_weight == 0.0 || lower + 1 >= ns.size()) return Duration::from_ns(ns[lower]);
        std::size_t segment_end = ns.size();  // everything from lower + 1 on is >= ns[lower]; the next selected rank bounds it
        for (const std::size_t r : ranks)
            if (r > lower) segment_end = std::min(segment_end, r + 1);
        const double upper_value = *std::min_element(ns.begin() + static_cast<std::ptrdiff_t>(lower + 1),
                                                     ns.begin() + static_cast<std::ptrdiff_t>(segment_end));
        return Duration::from_ns(interpolate(ns[lower], upper_value, upper_weight));
    };
    const auto [min_it, max_it] = std::minmax_element(ns.begin(), ns.end());
    stats.min = Duration::from_ns(*min_it);
    stats.max = Duration::from_ns(*max_it);
    stats.p5 = at_percentile(0);
    stats.p25 = at_percentile(1);
    stats.median = at_percentile(2);
    stats.p75 = at_percentile(3);
    stats.p95 = at_percentile(4);
    stats.p99 = at_percentile(5);

    const double median = stats.median.ns();
    // Rounding could put the mean an ulp outside [min, max]; a mean outside the data would look like a bug.
    const double mean = std::clamp(mean_of(ns, median, stats.min.ns(), stats.max.ns()), stats.min.ns(), stats.max.ns());
    const double stddev = sample_stddev(ns, mean);
    stats.mean = Duration::from_ns(mean);
    stats.stddev = Duration::from_ns(stddev);
    stats.cv = coefficient_of_variation(stddev, mean);

    std::vector<double> absolute_deviations;
    absolute_deviations.reserve(ns.size());
    for (const double value : ns) absolute_deviations.push_back(std::fabs(value - median));
    stats.mad = Duration::from_ns(percentile_of_unsorted(absolute_deviations, 50));
    return stats;
}

// "2.45%", "0%", "nan"; three significant digits like the durations beside it.
inline std::string percent(double ratio) {
    if (!std::isfinite(ratio)) return std::isnan(ratio) ? "nan" : ratio > 0 ? "inf" : "-inf";
    std::ostringstream out;
    out << std::setprecision(3) << ratio * 100.0 << '%';
    return out.str();
}

}  // namespace detail

// summarize(range) or `range | summarize`: the Stats of a range of durations (see Stats for definitions).
struct summarize_fn : ranges::pipeable_base {
    template <detail::duration_range Range>
    Stats operator()(Range&& samples) const {
        auto finite = detail::finite_samples_ns(std::forward<Range>(samples));
        return detail::summarize_finite(std::move(finite.ns), finite.rejected_non_finite);
    }
};
inline constexpr summarize_fn summarize{};

// The R-7 percentile (see Stats) of the finite samples, for any p in [0, 100]; NaN if there is none.
// Throws std::invalid_argument naming p if p is outside [0, 100] or NaN, before reading any sample.
template <detail::duration_range Range>
Duration percentile(Range&& samples, double p) {
    detail::require_percentile_in_range(p);
    auto finite = detail::finite_samples_ns(std::forward<Range>(samples));
    if (finite.ns.empty()) return detail::not_a_duration;
    return Duration::from_ns(detail::percentile_of_unsorted(finite.ns, p));
}

// `range | percentile(p)`: the same, at the end of a pipe. p is checked here, where the pipe is built.
struct percentile_of : ranges::pipeable_base {
    double p;

    template <detail::duration_range Range>
    Duration operator()(Range&& samples) const {
        return percentile(std::forward<Range>(samples), p);
    }
};

inline percentile_of percentile(double p) {
    detail::require_percentile_in_range(p);
    return percentile_of{{}, p};
}

inline std::string to_string(const Stats& stats) {
    std::string line = "n=" + std::to_string(stats.count);
    if (stats.count == 0) {
        line += " (no finite samples)";
    } else {
        const auto field = [&line](const char* name, Duration value) {
            line += "  ";
            line += name;
            line += ' ';
            line += to_string(value);
        };
        field("median", stats.median);
        field("mean", stats.mean);
        field("sd", stats.stddev);
        line += "  cv " + detail::percent(stats.cv);
        field("min", stats.min);
        field("p5", stats.p5);
        field("p25", stats.p25);
        field("p75", stats.p75);
        field("p95", stats.p95);
        field("p99", stats.p99);
        field("max", stats.max);
        field("mad", stats.mad);
    }
    if (stats.rejected_non_finite != 0)
        line += "  (" + std::to_string(stats.rejected_non_finite) + " non-finite rejected)";
    return line;
}

}  // namespace gpuchrono
