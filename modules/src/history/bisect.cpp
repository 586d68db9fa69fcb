// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `history bisect`'s judgement: a fresh run of one series against the stored runs of the good commit.
#include "history/bisect.hpp"

#include "history/baseline_level.hpp"
#include "measure/change_text.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace gpuchrono::history {
namespace {

using gpuchrono::detail::signed_percent;  // "+1.23%", as compare() words a change

BisectResult skip(std::string why) {
    BisectResult r;
    r.sentence = "cannot judge: " + std::move(why);
    return r;
}

// The series' spread between processes on one machine, from its runs up to the good commit; 0 when fewer than
// two runs say it.
double spread_between_processes(const std::vector<StoredPoint>& points, const std::string& baseline,
                                std::int64_t up_to_position) {
    std::vector<double> logs;
    for (const auto& p : points)
        if (p.baseline == baseline && p.commit_position <= up_to_position && p.median > 0) logs.push_back(std::log(p.median));
    if (logs.size() < 2) return 0;
    std::vector<double> differences;
    for (std::size_t i = 1; i < logs.size(); ++i) differences.push_back(std::abs(logs[i] - logs[i - 1]));
    return detail::spread_from_differences(differences, 0.0001);
}

}  // namespace

int BisectResult::exit_code() const noexcept {
    switch (outcome) {
    case BisectOutcome::good: return 0;
    case BisectOutcome::bad: return 1;
    case BisectOutcome::skip: return 125;
    }
    return 125;
}

BisectResult judge_against_good(Store& store, const RunRecord& measured, const BisectOptions& options) {
    if (!(options.threshold >= 0) || !(options.confidence > 0 && options.confidence < 1))
        throw HistoryError("bisect: the threshold must be >= 0 and the confidence between 0 and 1");
    const auto series = store.find_series(options.series);
    if (!series) throw HistoryError("the history " + store.location() + " has no series '" + options.series + "'");
    std::optional<StoredCommit> good;
    for (const auto& c : store.commits())
        if (!options.good.empty() && c.hash.starts_with(options.good)) {
            if (good && good->hash != c.hash)
                throw HistoryError("--good " + options.good + " names several commits of the history " +
                                   store.location() + ": give more of the hash");
            good = c;
        }
    if (!good) throw HistoryError("--good " + options.good + ": no such commit in the history " + store.location());

    const PointRecord* fresh = nullptr;
    for (const auto& p : measured.points) {
        const auto named = store.find_series(p.experiment + "/" + p.series);
        if (named && named->id == series->id) fresh = &p;
    }
    const std::string label = series->experiment + "/" + series->name;
    if (!fresh) return skip(measured.report_path + " holds no series " + label + " (did the command measure it?)");
    if (fresh->samples.empty()) return skip(measured.report_path + " kept no samples of " + label);

    const std::string machine = baseline_key(measured.fingerprint);
    const auto points = store.points(series->id);
    std::vector<double> good_samples;
    std::size_t good_runs = 0;
    for (const auto& p : points)
        if (p.commit == good->hash && p.baseline == machine) {
            good_samples.insert(good_samples.end(), p.samples.begin(), p.samples.end());
            ++good_runs;
        }
    const std::string good_short = good->hash.substr(0, 12);
    if (good_runs == 0)
        return skip("the history " + store.location() + " holds no run of " + label + " at the good commit " +
                    good_short + " on this machine (its fingerprint differs)");
    if (good_samples.empty()) return skip("the runs of " + label + " at the good commit " + good_short + " kept no samples");

    BisectResult r;
    const double spread = spread_between_processes(points, machine, good->position);
    // Two processes' medians differ by sqrt(2) spreads (one standard deviation); twice that covers ~95% of them.
    r.threshold_used = std::max(options.threshold, 2 * std::sqrt(2.0) * spread);
    CompareOptions compare_options;
    compare_options.threshold = r.threshold_used;
    compare_options.confidence = options.confidence;
    try {
        r.comparison = compare_samples(good_samples, fresh->samples, compare_options);
    } catch (const std::invalid_argument& e) {
        return skip(label + ": " + e.what());
    }
    const Comparison& c = *r.comparison;
    const std::string figures = signed_percent(c.change) + " (" + std::to_string(static_cast<int>(std::lround(100 * c.coverage))) +
                                "% CI " + signed_percent(c.change_low) + " .. " + signed_percent(c.change_high) + ", p = " +
                                std::to_string(c.p_value) + ") against " + std::to_string(good_runs) +
                                " run(s) of the good commit " + good_short + ", threshold " + signed_percent(r.threshold_used);
    switch (c.verdict) {
    case Verdict::slower:
        r.outcome = BisectOutcome::bad;
        r.sentence = "bad: " + label + " is slower by " + figures;
        break;
    case Verdict::faster:
    case Verdict::no_difference:
        r.outcome = BisectOutcome::good;
        r.sentence = "good: " + label + " changed by " + figures;
        break;
    case Verdict::inconclusive:
        r.outcome = BisectOutcome::skip;
        r.sentence = "cannot judge: " + label + " changed by " + figures + ", which the samples cannot tell from none";
        break;
    }
    return r;
}

}  // namespace gpuchrono::history
