// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The CI gate: change points of every series measured at the newest commits, corrected for many series, sorted
// into regressions, improvements and new baselines at those commits.
#include "history/check.hpp"
#include "measure/change_text.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace gpuchrono::history {
namespace {

using gpuchrono::detail::signed_percent;  // "+1.23%", as compare() words a change

std::string short_hash(const std::string& h) { return h.size() > 12 ? h.substr(0, 12) : h; }

std::string describe(const Alert& a) {
    const auto& c = a.change;
    if (c.new_baseline)
        return a.series + ": a new baseline after " + short_hash(a.last_good) + " (the machine's fingerprint changed by " +
               short_hash(a.first_bad) + "; runs on the new machine are compared among themselves)";
    return a.series + ": " + (c.direction == ChangeDirection::slower ? "slower" : "faster") + " by " +
           signed_percent(c.relative_change) + " (95% CI " + signed_percent(c.change_ci_low) + " .. " + signed_percent(c.change_ci_high) +
           "), came in after " + short_hash(a.last_good) + ", by " + short_hash(a.first_bad) + ": " + c.evidence;
}

}  // namespace

int CheckResult::exit_code() const noexcept {
    switch (outcome) {
    case CheckOutcome::pass: return 0;
    case CheckOutcome::regression: return 1;
    case CheckOutcome::cannot_judge: return 2;
    }
    return 2;
}

std::string series_label(const StoredSeries& s) { return s.experiment + "/" + s.name; }

std::vector<SeriesPoint> detector_points(const std::vector<StoredPoint>& points) {
    std::vector<SeriesPoint> out;
    out.reserve(points.size());
    for (const auto& p : points) {
        SeriesPoint d;
        d.commit = p.commit;
        d.fingerprint = p.baseline;
        d.median = p.median;
        if (p.ci_low && p.ci_high) {
            d.ci_low = *p.ci_low;
            d.ci_high = *p.ci_high;
        }
        d.n = p.n;
        d.samples = p.samples;
        out.push_back(std::move(d));
    }
    return out;
}

CheckResult check_history(Store& store, const CheckOptions& options) {
    CheckResult result;
    const auto commits = store.commits();
    if (commits.empty()) {
        result.summary = "cannot judge: the history " + store.location() + " holds no commits";
        return result;
    }
    // The newest commits: after `since`, else the last one.
    std::set<std::string> newest;
    if (options.since.empty()) {
        newest.insert(commits.back().hash);
    } else {
        std::size_t at = commits.size();
        for (std::size_t i = 0; i < commits.size(); ++i)
            if (commits[i].hash.starts_with(options.since)) {
                if (at != commits.size())
                    throw HistoryError("--since " + options.since + " names several commits of the history " +
                                       store.location() + ": give more of the hash");
                at = i;
            }
        if (at == commits.size())
            throw HistoryError("--since " + options.since + ": no such commit in the history " + store.location());
        for (std::size_t i = at + 1; i < commits.size(); ++i) newest.insert(commits[i].hash);
        if (newest.empty()) {
            result.summary = "cannot judge: no commit of the history " + store.location() + " comes after " + options.since;
            return result;
        }
    }

    struct Judged {
        StoredSeries series;
        std::vector<StoredPoint> points;
        std::size_t first_new = 0;
    };
    std::vector<Judged> judged;
    std::vector<SeriesChange> candidates;
    const std::size_t needed = options.detection.min_points_before;
    auto every_series = store.points_of_every_series(options.since.empty() ? options.newest_runs : 0, true);
    for (const auto& s : store.series()) {
        auto points = std::move(every_series[s.id]);
        std::size_t first_new = points.size();
        for (std::size_t i = 0; i < points.size(); ++i)
            if (newest.contains(points[i].commit)) {
                first_new = i;
                break;
            }
        if (first_new == points.size()) continue;  // not measured at the newest commits
        const std::string& machine = points[first_new].baseline;
        std::size_t comparable = 0;
        for (std::size_t i = 0; i < first_new; ++i) comparable += points[i].baseline == machine;
        const std::string label = series_label(s);
        if (comparable == 0 && first_new > 0) {
            result.not_judged.push_back(label + ": no earlier run on a comparable machine (its fingerprint is new)");
            continue;
        }
        if (comparable < needed) {
            result.not_judged.push_back(label + ": too few earlier runs on this machine (" + std::to_string(comparable) +
                                        ", the detector needs " + std::to_string(needed) + ")");
            continue;
        }
        judged.push_back({s, std::move(points), first_new});
    }
    for (const auto& j : judged) {
        const auto points = detector_points(j.points);
        try {
            for (auto& c : detect_changes(points, options.detection))
                candidates.push_back({series_label(j.series), c});
        } catch (const std::invalid_argument& e) {
            throw HistoryError("series " + series_label(j.series) + " in the history " + store.location() + ": " + e.what());
        }
    }
    DetectionOptions correction = options.detection;
    if (correction.series_tested == 0) correction.series_tested = std::max<std::size_t>(judged.size(), 1);
    const auto surviving = correct_for_many_series(std::move(candidates), correction);
    result.series_judged = judged.size();

    for (const auto& sc : surviving) {
        const auto it = std::find_if(judged.begin(), judged.end(),
                                     [&](const Judged& j) { return series_label(j.series) == sc.series; });
        if (it == judged.end()) continue;
        const auto& c = sc.change;
        // Introduced (its range reaches the newest commits) or confirmed (their runs made it certain).
        if (std::max(c.first_after, c.confirmed_at) < it->first_new) continue;
        Alert a;
        a.series = sc.series;
        a.unit = it->series.unit;
        a.last_good = it->points.at(c.last_before).commit;
        a.first_bad = it->points.at(c.first_after).commit;
        a.change = c;
        a.sentence = describe(a);
        if (c.new_baseline) result.new_baselines.push_back(std::move(a));
        else if (c.direction == ChangeDirection::slower) result.regressions.push_back(std::move(a));
        else result.improvements.push_back(std::move(a));
    }

    const std::string at = options.since.empty() ? "commit " + short_hash(commits.back().hash)
                                                 : std::to_string(newest.size()) + " commit(s) after " + options.since;
    if (!result.regressions.empty()) {
        result.outcome = CheckOutcome::regression;
        result.summary = std::to_string(result.regressions.size()) + " regression(s) at " + at + " among " +
                         std::to_string(result.series_judged) + " series judged";
    } else if (result.series_judged == 0) {
        result.outcome = CheckOutcome::cannot_judge;
        result.summary = "cannot judge " + at + ": " +
                         (result.not_judged.empty() ? std::string("no series was measured there")
                                                    : std::to_string(result.not_judged.size()) +
                                                          " series measured there, none with enough comparable history");
    } else {
        result.outcome = CheckOutcome::pass;
        result.summary = "no regression at " + at + " in " + std::to_string(result.series_judged) + " series judged";
        if (!result.not_judged.empty())
            result.summary += " (" + std::to_string(result.not_judged.size()) + " not judged)";
    }
    return result;
}

}  // namespace gpuchrono::history
