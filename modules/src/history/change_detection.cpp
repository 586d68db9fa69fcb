// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The forward scan (docs/history.md, "How a change is found"): at each run t, as if it were the newest, the last
// m runs (m = min_points_after .. longest_new_level) are tested against the runs before them at the current level.
// Each run counts with the larger of its own CI and the spread between processes its baseline shows, and its
// residual is bounded at residual_bound_spreads spreads. A change is reported when the best split's two-sided
// p-value, Bonferroni-corrected over the splits tried at t, is at most options.significance; the runs from the
// split on are then the new level, and nothing is judged until it holds min_points_before runs.
#include "history/change_detection.hpp"

#include "baseline_level.hpp"
#include "measure/change_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono::history {
namespace {

using gpuchrono::detail::signed_percent;  // "+1.23%", as compare() words a change

using detail::baseline_level;
using detail::BaselineLevel;

// The longest stretch of newest runs tested as a new level at one look: enough for a change of twice the spread
// to show within a few commits, few enough that the Bonferroni factor over the splits stays small.
constexpr std::size_t longest_new_level = 4;
// How far back the place of a change is looked for: further than the runs tested, because a small change may be
// certain only some runs after it came in.
constexpr std::size_t longest_located = 12;
constexpr double z95 = 1.959963984540054;
// The likelihood-ratio bound within which another place of the change is as likely (chi-square, 99%, one degree
// of freedom): the commit range of a change holds every such place.
constexpr double chi_square_99 = 6.634896601021214;

double two_sided_normal_p(double z) { return std::erfc(std::abs(z) / std::numbers::sqrt2); }

// The spread is estimated from the baseline's own runs, so the statistic is a Student t with about as many
// degrees of freedom as the baseline has differences: eight runs that happen to agree closely must not make a
// change out of the next three. Wallace's (1959) normal equivalent of t, within 0.01 of the exact quantile at
// the tails used here: sqrt(v ln(1 + t^2 / v)) (8v + 1) / (8v + 3).
double normal_equivalent(double t, double degrees_of_freedom) {
    const double v = degrees_of_freedom;
    const double z = std::sqrt(v * std::log1p(t * t / v)) * (8 * v + 1) / (8 * v + 3);
    return t < 0 ? -z : z;
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string point_name(std::span<const SeriesPoint> points, std::size_t index) {
    std::string name = "point " + std::to_string(index);
    if (!points[index].commit.empty()) {
        name += " (commit " + points[index].commit + ")";
    }
    return name;
}

// The standard error of a run's log median from its own CI, or from its samples when it gave none (the
// distribution-free interval of the median between two order statistics); 0 when neither says anything.
double run_standard_error(std::span<const SeriesPoint> points, std::size_t index) {
    const SeriesPoint& point = points[index];
    const auto refuse = [&](const std::string& what) {
        throw std::invalid_argument("detect_changes: " + point_name(points, index) + ": " + what);
    };
    if (!std::isfinite(point.median) || point.median <= 0) {
        refuse("median " + number(point.median) + " is not a positive finite time");
    }
    for (const double sample : point.samples) {
        if (!std::isfinite(sample) || sample <= 0) {
            refuse("sample " + number(sample) + " is not a positive finite time");
        }
    }
    if (point.ci_low != 0 || point.ci_high != 0) {
        if (!std::isfinite(point.ci_low) || !std::isfinite(point.ci_high) || point.ci_low <= 0 ||
            point.ci_low > point.median || point.ci_high < point.median) {
            refuse("ci_low " + number(point.ci_low) + " and ci_high " + number(point.ci_high) +
                   " do not hold the median " + number(point.median));
        }
        return (std::log(point.ci_high) - std::log(point.ci_low)) / (2 * z95);
    }
    const std::size_t count = point.samples.size();
    if (count < 5) {
        return 0;
    }
    std::vector<double> sorted = point.samples;
    std::sort(sorted.begin(), sorted.end());
    const double half = static_cast<double>(count) / 2;
    const double reach = z95 * std::sqrt(static_cast<double>(count)) / 2;
    const auto low = static_cast<std::size_t>(std::max(0.0, std::floor(half - reach)));
    const auto high = std::min(count - 1, static_cast<std::size_t>(std::ceil(half + reach)));
    return (std::log(sorted[high]) - std::log(sorted[low])) / (2 * z95);
}

// The level of runs [first, last) when there may be a single one.
BaselineLevel level_of(std::span<const double> log_medians, double min_spread) {
    if (log_medians.size() >= 2) {
        return baseline_level(log_medians, min_spread);
    }
    return {log_medians.front(), min_spread * min_spread, min_spread};
}

struct Split {
    std::size_t new_runs = 0;  // m: the newest m runs at the new level
    double z = 0;
    BaselineLevel baseline;
    std::size_t baseline_start = 0;
    std::size_t baseline_runs = 0;
};

// Where a change came in: the first runs at the new level that the runs allow.
struct Location {
    std::size_t best = 0;      // the most likely
    std::size_t earliest = 0;  // the range of those as likely (chi_square_99)
    std::size_t latest = 0;
};

// A change as the look that found it saw it.
struct Found {
    Split split;  // the test's best split
    std::size_t splits_tried = 0;
    std::size_t new_level_start = 0;  // the most likely first run at the new level
    ChangePoint point;
};

class SegmentScan {
public:
    SegmentScan(std::span<const double> log_medians, std::span<const double> standard_errors,
                const DetectionOptions& options)
        : y_(log_medians), se_(standard_errors), options_(options) {}

    // Change points within runs [first, last), all of one fingerprint; *current_level_start: where the level
    // the segment ends at began.
    std::vector<ChangePoint> scan(std::size_t first, std::size_t last, std::size_t* current_level_start) const {
        baselines_.assign(last - first, CachedBaseline{});
        level_starts_.assign(last - first, 0);
        first_ = first;
        std::vector<Found> found;
        std::size_t level_start = first;
        for (std::size_t t = first; t < last; ++t) {
            const std::size_t at_level = t - level_start + 1;
            if (at_level < options_.min_points_before + options_.min_points_after) {
                continue;
            }
            const std::size_t longest = std::min(longest_new_level, at_level - options_.min_points_before);
            std::vector<Split> splits;
            for (std::size_t m = options_.min_points_after; m <= longest; ++m) {
                splits.push_back(test_split(level_start, t, m));
            }
            const auto best = std::max_element(splits.begin(), splits.end(), [](const Split& a, const Split& b) {
                return std::abs(a.z) < std::abs(b.z);
            });
            const double p = std::min(1.0, static_cast<double>(splits.size()) * two_sided_normal_p(best->z));
            if (p > options_.significance) {
                continue;
            }
            const Location location = locate(best->baseline_start, t, best->baseline.spread);
            Found change{*best, splits.size(), location.best, {}};
            change.point.last_before = location.earliest - 1;
            change.point.first_after = location.latest;
            change.point.confirmed_at = t;
            change.point.p_value = p;
            change.point.direction = best->z > 0 ? ChangeDirection::slower : ChangeDirection::faster;
            found.push_back(std::move(change));
            level_start = found.back().new_level_start;
            level_starts_[level_start - first_] = 1;
        }
        *current_level_start = level_start;
        // Each new level is described with every run at it known so far (up to a baseline window's worth): better
        // known than at the look that found it, which saw min_points_after runs.
        std::vector<ChangePoint> changes;
        for (std::size_t i = 0; i < found.size(); ++i) {
            const std::size_t level_end = i + 1 < found.size() ? found[i + 1].new_level_start : last;
            describe(found[i], std::min(level_end, found[i].new_level_start + options_.baseline_window));
            changes.push_back(std::move(found[i].point));
        }
        return changes;
    }

private:
    Split test_split(std::size_t level_start, std::size_t t, std::size_t m) const {
        const std::size_t new_start = t - m + 1;
        const std::size_t baseline_start =
            std::max(level_start, new_start > options_.baseline_window ? new_start - options_.baseline_window : 0);
        Split split;
        split.new_runs = m;
        split.baseline_start = baseline_start;
        split.baseline_runs = new_start - baseline_start;
        split.baseline = baseline_before(level_start, baseline_start, new_start);
        double weight_sum = 0;
        double weighted_residuals = 0;
        for (std::size_t i = new_start; i <= t; ++i) {
            const double variance = std::max(split.baseline.spread * split.baseline.spread, se_[i] * se_[i]);
            const double bound = detail::residual_bound_spreads * std::sqrt(variance);
            weighted_residuals += std::clamp(y_[i] - split.baseline.level, -bound, bound) / variance;
            weight_sum += 1 / variance;
        }
        const double deviation = std::sqrt(1 / weight_sum + split.baseline.level_variance);
        split.z = normal_equivalent(weighted_residuals / weight_sum / deviation,
                                    static_cast<double>(split.baseline.differences));
        return split;
    }

    // The first run at the new level, among the newest longest_located runs up to t, by least absolute
    // deviations over runs [first, t] (each side about its median: a single stray run next to the change, common on
    // a timestamp grain, moves the answer no more than it should). A split whose two levels leave a sum of absolute
    // deviations within chi_square_99 / 2 scales of the least is as likely (the Laplace likelihood ratio), so the
    // commit range holds it. The newest run alone is a candidate too: a change that came in with it may have been
    // confirmed by a run before it that strayed.
    Location locate(std::size_t first, std::size_t t, double spread) const {
        const auto absolute_deviations = [&](std::size_t from, std::size_t to) {  // runs [from, to)
            std::vector<double> values(y_.begin() + static_cast<std::ptrdiff_t>(from),
                                       y_.begin() + static_cast<std::ptrdiff_t>(to));
            std::sort(values.begin(), values.end());
            const std::size_t middle = values.size() / 2;
            const double median =
                values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
            double sum = 0;
            for (const double value : values) {
                sum += std::abs(value - median);
            }
            return sum;
        };
        const std::size_t runs = t - first + 1;
        std::vector<std::pair<std::size_t, double>> candidates;  // first run at the new level, sum of deviations
        for (std::size_t after = 1; after <= std::min(longest_located, runs - 2); ++after) {
            const std::size_t split = first + runs - after;
            candidates.emplace_back(split, absolute_deviations(first, split) + absolute_deviations(split, t + 1));
        }
        const auto least = std::min_element(candidates.begin(), candidates.end(),
                                            [](const auto& a, const auto& b) { return a.second < b.second; });
        // The Laplace scale: the baseline's (mean absolute deviation of normal runs: spread sqrt(2 / pi)), or what
        // the two levels leave unexplained when that is more.
        const double scale = std::max(spread * std::sqrt(2 / std::numbers::pi),
                                      least->second / static_cast<double>(runs - 2));
        Location location{least->first, least->first, least->first};
        for (const auto& [start, deviations] : candidates) {
            if ((deviations - least->second) / scale <= chi_square_99 / 2) {
                location.earliest = std::min(location.earliest, start);
                location.latest = std::max(location.latest, start);
            }
        }
        return location;
    }

    // The baseline before new_start: its level from the runs at the current level, its spread from the
    // baseline_window successive differences before new_start within the segment, across earlier levels but never
    // across a change found (the spread between processes is the series', not one level's: after a change the
    // next is judged with the spread of the whole recent history, not of the few runs at the new level, which a
    // mistaken change would leave mixed). The looks at t and t + 1 share all but one of their splits' baselines,
    // so each is computed once per level.
    const BaselineLevel& baseline_before(std::size_t level_start, std::size_t baseline_start,
                                         std::size_t new_start) const {
        CachedBaseline& cached = baselines_[new_start - first_];
        if (!cached.valid || cached.level_start != level_start) {
            std::vector<double> differences;
            for (std::size_t i = new_start - 1; i > first_ && differences.size() < options_.baseline_window; --i) {
                if (level_starts_[i - first_] == 0) {
                    differences.push_back(std::abs(y_[i] - y_[i - 1]));
                }
            }
            const double spread = detail::spread_from_differences(differences, min_spread());
            cached.level = detail::level_with_spread(y_.subspan(baseline_start, new_start - baseline_start), spread,
                                                     differences.size());
            cached.level_start = level_start;
            cached.valid = true;
        }
        return cached.level;
    }

    double min_spread() const { return std::log1p(options_.min_relative_spread); }

    void describe(Found& found, std::size_t new_end) const {
        ChangePoint& change = found.point;
        const BaselineLevel& before = found.split.baseline;
        const std::size_t new_start = found.new_level_start;
        const std::size_t before_runs = found.split.baseline_runs;
        const double z = found.split.z;
        const std::size_t splits_tried = found.splits_tried;
    const BaselineLevel after = level_of(y_.subspan(new_start, new_end - new_start), min_spread());
        const double after_variance =
            std::max(after.spread, before.spread) * std::max(after.spread, before.spread) /
            static_cast<double>(new_end - new_start);
        const double log_change = after.level - before.level;
        const double reach = z95 * std::sqrt(after_variance + before.level_variance);
        change.level_before = std::exp(before.level);
        change.level_after = std::exp(after.level);
        change.relative_change = std::expm1(log_change);
        change.change_ci_low = std::expm1(log_change - reach);
        change.change_ci_high = std::expm1(log_change + reach);
        char statistic[160];
        std::snprintf(statistic, sizeof statistic, "z = %.2f, p = %.2g over %zu splits tried", z, change.p_value,
                      splits_tried);
        change.evidence = "The level moved from " + number(change.level_before) + " to " +
                          number(change.level_after) + " (" + signed_percent(change.relative_change) + ", 95% CI " +
                          signed_percent(change.change_ci_low) + " to " + signed_percent(change.change_ci_high) + ", from " +
                          std::to_string(new_end - new_start) + " runs at the new level): the " +
                          std::to_string(found.split.new_runs) +
                          " newest runs when it was found stood apart from the " +
                          std::to_string(before_runs) + " runs before them, which spread by " +
                          signed_percent(std::expm1(before.spread)).substr(1) + " between processes (" + statistic + ").";
    }

    struct CachedBaseline {
        BaselineLevel level;
        std::size_t level_start = 0;
        bool valid = false;
    };

    std::span<const double> y_;
    std::span<const double> se_;
    const DetectionOptions& options_;
    mutable std::vector<CachedBaseline> baselines_;  // by first run after the baseline, from first_
    mutable std::vector<char> level_starts_;         // 1 where a change found starts a level, from first_
    mutable std::size_t first_ = 0;
};

}  // namespace

void DetectionOptions::validate() const {
    const auto refuse = [](const std::string& what) {
        throw std::invalid_argument("DetectionOptions: " + what);
    };
    if (!(significance > 0 && significance < 1)) {
        refuse("significance " + number(significance) + " is not in (0, 1)");
    }
    if (!(false_discovery_rate > 0 && false_discovery_rate < 1)) {
        refuse("false_discovery_rate " + number(false_discovery_rate) + " is not in (0, 1)");
    }
    if (min_points_before < 3) {
        refuse("min_points_before " + std::to_string(min_points_before) + " is below 3");
    }
    if (min_points_after < 1 || min_points_after > longest_new_level) {
        refuse("min_points_after " + std::to_string(min_points_after) + " is not in [1, " +
               std::to_string(longest_new_level) + "]");
    }
    if (baseline_window < min_points_before) {
        refuse("baseline_window " + std::to_string(baseline_window) + " is below min_points_before " +
               std::to_string(min_points_before));
    }
    if (window != 0 && window < min_points_before + min_points_after) {
        refuse("window " + std::to_string(window) + " cannot hold min_points_before + min_points_after runs");
    }
    if (!(min_relative_spread >= 0 && min_relative_spread < 1)) {
        refuse("min_relative_spread " + number(min_relative_spread) + " is not in [0, 1)");
    }
}

std::vector<ChangePoint> detect_changes(std::span<const SeriesPoint> points, const DetectionOptions& options) {
    options.validate();
    const std::size_t start =
        options.window != 0 && points.size() > options.window ? points.size() - options.window : 0;
    std::vector<double> log_medians(points.size());
    std::vector<double> standard_errors(points.size());
    for (std::size_t i = start; i < points.size(); ++i) {
        standard_errors[i] = run_standard_error(points, i);
        log_medians[i] = std::log(points[i].median);
    }
    const SegmentScan scan(log_medians, standard_errors, options);
    const double min_spread = std::log1p(options.min_relative_spread);
    std::vector<ChangePoint> changes;
    std::size_t segment_start = start;
    while (segment_start < points.size()) {
        std::size_t segment_end = segment_start + 1;
        while (segment_end < points.size() && points[segment_end].fingerprint == points[segment_start].fingerprint) {
            ++segment_end;
        }
        std::size_t level_start = segment_start;
        std::vector<ChangePoint> found = scan.scan(segment_start, segment_end, &level_start);
        changes.insert(changes.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
        if (segment_end < points.size()) {
            // A new machine: its runs start a new baseline. The step is reported with the levels on both sides,
            // never judged.
            std::size_t next_end = segment_end + 1;
            while (next_end < points.size() && points[next_end].fingerprint == points[segment_end].fingerprint) {
                ++next_end;
            }
            level_start = std::max(level_start, segment_end > options.baseline_window
                                                    ? segment_end - options.baseline_window
                                                    : 0);
            const std::span<const double> all(log_medians);
            const BaselineLevel before = level_of(all.subspan(level_start, segment_end - level_start), min_spread);
            const std::size_t after_runs = std::min(next_end - segment_end, options.baseline_window);
            const BaselineLevel after = level_of(all.subspan(segment_end, after_runs), min_spread);
            ChangePoint change;
            change.last_before = segment_end - 1;
            change.first_after = segment_end;
            change.confirmed_at = segment_end;
            change.new_baseline = true;
            change.p_value = 1;
            const double log_change = after.level - before.level;
            const double reach = z95 * std::sqrt(after.level_variance + before.level_variance);
            change.direction = log_change > 0 ? ChangeDirection::slower : ChangeDirection::faster;
            change.level_before = std::exp(before.level);
            change.level_after = std::exp(after.level);
            change.relative_change = std::expm1(log_change);
            change.change_ci_low = std::expm1(log_change - reach);
            change.change_ci_high = std::expm1(log_change + reach);
            change.evidence = "The machine's fingerprint changed from '" + points[segment_end - 1].fingerprint +
                              "' to '" + points[segment_end].fingerprint + "': a new baseline, not a regression (" +
                              number(change.level_before) + " before, " + number(change.level_after) + " after, " +
                              signed_percent(change.relative_change) + ").";
            changes.push_back(std::move(change));
        }
        segment_start = segment_end;
    }
    return changes;
}

}  // namespace gpuchrono::history
