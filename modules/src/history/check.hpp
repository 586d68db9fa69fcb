// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The CI gate over a history: did the newest commit(s) bring a regression, on a machine with earlier comparable
// runs, beyond the series' own noise? Every series measured at the newest commits is scanned for change points
// (change_detection.hpp), the candidates of all series corrected for testing many at once, and a slower change
// that the newest commits introduced (its range holds one of them) or confirmed (their runs made it certain) is a
// regression. A change of fingerprint is a new baseline, never a regression. When no series can be judged (too
// few earlier runs, none on a comparable machine) the answer is "cannot judge", never a pass.
#pragma once

#include "history/change_detection.hpp"
#include "history/store.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::history {

struct CheckOptions {
    // The newest commits are those after this one (a hash or a hash's prefix); empty: the newest commit alone.
    std::string since;
    // With the newest commit alone, only each series' newest runs are read: enough for a baseline and the change,
    // and a check costs the same on a history of 10,000 commits as on one of 300. 0: every run.
    std::size_t newest_runs = 300;
    DetectionOptions detection;
};

// One change at the newest commits, in words and figures.
struct Alert {
    std::string series;        // "EXPERIMENT/NAME"
    std::string unit;
    std::string last_good;     // the commit of the last run at the old level
    std::string first_bad;     // the commit of the first run at the new level: the change came in after last_good, by first_bad
    ChangePoint change;
    std::string sentence;      // what changed, where, by how much with its CI, and the evidence
};

enum class CheckOutcome { pass, regression, cannot_judge };

struct CheckResult {
    CheckOutcome outcome = CheckOutcome::cannot_judge;
    std::vector<Alert> regressions;
    std::vector<Alert> improvements;
    std::vector<Alert> new_baselines;
    std::size_t series_judged = 0;
    std::vector<std::string> not_judged;  // one sentence per series measured at the newest commits but not judged
    std::string summary;                  // one sentence: the verdict and why

    // 0 pass, 1 regression, 2 cannot judge: the exit status of `gpuchrono history check`.
    int exit_code() const noexcept;
};

CheckResult check_history(Store& store, const CheckOptions& options = {});

// "EXPERIMENT/NAME", as commands name a series.
std::string series_label(const StoredSeries& s);

// The detector's view of a series' stored points: the baseline key as fingerprint, an absent CI as unknown.
std::vector<SeriesPoint> detector_points(const std::vector<StoredPoint>& points);

}  // namespace gpuchrono::history
