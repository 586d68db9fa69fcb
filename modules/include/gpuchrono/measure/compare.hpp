// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::compare(): is B faster than A, by how much, and how sure is that?
//
//     gpuchrono::Comparison c = gpuchrono::compare(before, after);
//     std::cout << c.verdict << ' ' << c.change * 100 << "% [" << c.change_low * 100 << ", " << c.change_high * 100 << "]\n";
//
// The change of B against A is the Hodges-Lehmann estimate on log durations (hodges_lehmann.hpp): the median
// of all ratios b_j / a_i, minus 1, with its distribution-free confidence interval. Why not a bootstrap of the
// ratio of medians: GPU times step by 32 ns and tie heavily, where the bootstrap of a median is known to
// under-cover and is random from run to run; the HL interval is exact for untied small sets, deterministic,
// and is the interval that goes with the rank test, so estimate, interval and p-value cannot contradict each
// other. On logs, a kernel that got 2% slower is a shift of log(1.02) whatever its length.
// The p-value is the two-sided Mann-Whitney U test (rank_sum_test.hpp).
//
// Verdict, with threshold t (default 1%) and alpha = 1 - confidence:
//   slower / faster      p < alpha and |change| >= t: a real difference that matters;
//   no difference        otherwise, when the whole interval lies within [-t, t]: any difference is below t;
//   inconclusive         otherwise: the samples cannot tell (take more, or a narrower target width).
// Under no change, faster or slower comes out at most alpha of the time (the test's level), less with t.
//
// Series measured by different methods, cache states or devices are refused (std::invalid_argument saying
// which and why) unless CompareOptions allows it: their differences are the timer's, not the kernel's.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/series.hpp>
#include <gpuchrono/stats/verdict.hpp>

#include <cstddef>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace gpuchrono {

struct CompareOptions {
    double threshold = 0.01;   // the practical threshold on the relative change
    double confidence = 0.95;  // of the interval; the test's level is 1 - confidence
    bool allow_different_methods = false;
    bool allow_different_cache_states = false;
    bool allow_different_devices = false;

    void validate() const;  // std::invalid_argument naming the field
};

struct Comparison {
    std::string name_a, name_b;
    std::size_t samples_a = 0, samples_b = 0;
    Duration median_a{}, median_b{};
    double change = 0.0;       // relative change of B against A (0.02: B is 2% slower), Hodges-Lehmann
    double change_low = 0.0;   // its confidence interval (-1 .. +inf when the samples are too few)
    double change_high = 0.0;
    double coverage = 0.0;     // the interval's coverage
    double p_value = 1.0;      // Mann-Whitney, two-sided
    double u = 0.0;
    bool exact_test = false;
    Verdict verdict = Verdict::inconclusive;
    std::string reason;              // the verdict in words, with its numbers
    std::vector<std::string> notes;  // differences that were allowed, flagged samples, ...
};

// The verdict for these figures (see the top of this file).
Verdict verdict_for(double change, double change_low, double change_high, double p_value, const CompareOptions& options);

// Over positive sample values in ns (any order). std::invalid_argument for empty sets, NaN, or values <= 0.
Comparison compare_samples(std::span<const double> a_ns, std::span<const double> b_ns, const CompareOptions& options = {});

// Where a series came from, for the refusal checks: the method ("graph", or a timer policy such as "event"),
// the cache state ("warm", "cold", "unknown" for series not taken by measure()) and the device.
struct SeriesOrigin {
    std::string method;
    std::string cache;
    std::string device;
};
SeriesOrigin origin_of(const Series& s);

// Throws std::invalid_argument naming the difference and the option that allows it; returns notes for the
// differences that were allowed.
std::vector<std::string> check_comparable(const SeriesOrigin& a, const SeriesOrigin& b, const CompareOptions& options);

// The successful durations of two series (failed and excluded ones are not samples).
Comparison compare(const Series& a, const Series& b, const CompareOptions& options = {});

}  // namespace gpuchrono
