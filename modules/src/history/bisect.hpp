// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One step of `git bisect run`: is a fresh measurement of one series as fast as the stored runs of the known good
// commit on the same machine? The fresh run's samples are compared with the good runs' with compare_samples()
// (Hodges-Lehmann change, Mann-Whitney test); the threshold is at least the series' own spread between processes,
// as its history on this machine shows it, so that a process that ran a little slow is not called a regression.
//
//     good  (exit 0)    no difference, or faster;
//     bad   (exit 1)    slower beyond the threshold, with the test's confidence;
//     skip  (exit 125)  cannot judge: no run of the good commit on this machine, no samples, an inconclusive compare.
#pragma once

#include "history/record.hpp"
#include "history/store.hpp"
#include <gpuchrono/measure/compare.hpp>

#include <optional>
#include <string>

namespace gpuchrono::history {

struct BisectOptions {
    std::string series;        // EXPERIMENT/NAME or NAME, as `history show` takes it
    std::string good;          // the good commit: a stored hash or its prefix
    double threshold = 0.01;   // the smallest relative change that matters; raised to the series' noise
    double confidence = 0.95;  // of the compare's interval
};

enum class BisectOutcome { good, bad, skip };

struct BisectResult {
    BisectOutcome outcome = BisectOutcome::skip;
    std::string sentence;                   // the verdict with its figures, or why it cannot judge
    double threshold_used = 0;              // the options' threshold, or the series' noise where larger
    std::optional<Comparison> comparison;  // absent when it could not compare
    int exit_code() const noexcept;        // 0, 1 or 125, as `git bisect run` reads them
};

// Judges the point of options.series in `measured` (a run read with read_run, not stored) against the stored runs
// of options.good on the same machine (equal baseline keys). Throws HistoryError when the history has no such
// series or commit: a mistake in the bisect's setup that no commit can fix.
BisectResult judge_against_good(Store& store, const RunRecord& measured, const BisectOptions& options);

}  // namespace gpuchrono::history
