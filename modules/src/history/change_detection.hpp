// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Change points in a performance history: one series' runs, one per commit and oldest first, in; the commits
// where its level moved, out. Pure functions, no database and no GPU, so the CPU tests replay real and simulated
// histories through them.
//
// Between processes the median of a GPU series moves by more than each run's own confidence interval says (the
// clocks, the placement in memory, the event floor's grain), so a test built on the runs' CIs alone would fire on
// almost every commit. The detector weighs each run by its own CI and by the spread between processes that the
// series' own recent history shows, estimated robustly (from successive differences, so a step or an outlier
// barely moves it). docs/history.md ("How a change is found") names the method and its sources.
//
// The scan runs forward as the commits came: a change point found when commit k arrived stays found, at the same
// place, whatever commits come after, so a CI gate that runs detection after each commit never takes an alert back.
// A change of the machine's fingerprint (GPU, driver, clocks) starts a new baseline: each fingerprint's segment is
// analysed on its own, and the switch itself is reported with new_baseline set, never as a regression.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace gpuchrono::history {

// One run of one series at one commit, as the detector sees it.
struct SeriesPoint {
    std::string commit;       // commit hash (or a label)
    std::string fingerprint;  // the machine fingerprint's id: a change of it starts a new baseline
    double median = 0;        // in the series' unit; > 0
    double ci_low = 0;        // the run's own CI of its median; both 0: unknown (then from samples if any)
    double ci_high = 0;
    std::size_t n = 0;              // samples behind the median
    std::vector<double> samples;    // may be empty (then only median and CI are used)
};

struct DetectionOptions {
    // Evidence one series needs for a change, before the many-series correction: the p-value of the scan's
    // statistic must be at most this. In (0, 1).
    double significance = 0.005;
    // correct_for_many_series: the Benjamini-Hochberg false-discovery rate over all series tested. In (0, 1).
    double false_discovery_rate = 0.05;
    // The number of series tested together (the m of the correction); 0: the number of distinct series among the
    // candidates, which only holds when every series tested has a candidate.
    std::size_t series_tested = 0;
    // A baseline holds at least this many runs at one level before anything is judged against it. >= 3.
    std::size_t min_points_before = 6;
    // A change is confirmed by at least this many runs at the new level (one run alone may be an outlier). The
    // newest 2 to 4 runs are tested at each look, so 1 to 4.
    std::size_t min_points_after = 2;
    // The newest runs of a baseline that give its level and spread (a level drifts; older runs say less). At least
    // min_points_before.
    std::size_t baseline_window = 30;
    // 0: the whole series is scanned; else only its newest `window` runs (the gate on the newest commits of a long
    // history: cost O(window), and change points older than the window are not reported). At least
    // min_points_before + min_points_after.
    std::size_t window = 0;
    // The smallest spread between runs the detector assumes, relative to the level: a floor for series whose
    // runs happen to agree exactly (timestamps in steps of a grain). In [0, 1).
    double min_relative_spread = 0.0001;

    void validate() const;  // std::invalid_argument naming the field
};

enum class ChangeDirection { slower, faster };

struct ChangePoint {
    std::size_t last_before = 0;  // index of the last point surely at the old level
    std::size_t first_after = 0;  // of the first surely at the new level: it came in (last_before, first_after]
    std::size_t confirmed_at = 0;  // index of the point whose arrival made the change certain enough to report
    ChangeDirection direction = ChangeDirection::slower;
    double level_before = 0;       // the series' level before and after, in its unit; the level after (and with it
    double level_after = 0;        // the change and its CI) from every run at the new level so far, up to
                                   // baseline_window: a later commit refines them, never the place of the change
    double relative_change = 0;    // (new level - old level) / old level
    double change_ci_low = 0;      // CI of relative_change (95%)
    double change_ci_high = 0;
    double p_value = 1;            // evidence before the many-series correction (1 for a new baseline)
    bool new_baseline = false;     // the fingerprint changed within the range: a new baseline, never a regression
    std::string evidence;          // one sentence: levels, spreads, test statistic
};

// All change points of one series, oldest first. Throws std::invalid_argument naming the point and field when a
// point is unusable (a median that is not positive and finite, a CI that does not hold its median).
std::vector<ChangePoint> detect_changes(std::span<const SeriesPoint> points, const DetectionOptions& options = {});

// The correction for testing many series at once: the Benjamini-Hochberg step-up procedure at
// options.false_discovery_rate, each change point one hypothesis, m the larger of options.series_tested and the
// number of candidates (distinct series, change points). Given every series' change points, the ones that
// survive, in the order given. New baselines are not tests: they always survive. Throws std::invalid_argument
// naming the series when a p-value is not in [0, 1].
struct SeriesChange {
    std::string series;
    ChangePoint change;
};
std::vector<SeriesChange> correct_for_many_series(std::vector<SeriesChange> candidates,
                                                  const DetectionOptions& options = {});

}  // namespace gpuchrono::history
