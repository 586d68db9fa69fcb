// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The change detector on its own: its refusals, its new baselines, the correction over many series; the real H100
// history replayed commit by commit as a CI gate would run it; and simulated histories with the noise fitted to
// that history, for the false-alert rate and the detection delay.
#include <boost/test/unit_test.hpp>

#include "simulated_history.hpp"

#include "history/change_detection.hpp"

#include <cmath>
#include <cstddef>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gpuchrono::history;

namespace {

std::vector<SeriesPoint> flat_history(std::size_t commits, double level, double spread, unsigned seed) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<SeriesPoint> points;
    for (std::size_t i = 0; i < commits; ++i) {
        SeriesPoint point;
        point.commit = "c" + std::to_string(i);
        point.fingerprint = "H100";
        point.median = level * (1 + spread * normal(random));
        point.ci_low = point.median * 0.998;
        point.ci_high = point.median * 1.002;
        point.n = 20;
        points.push_back(point);
    }
    return points;
}

std::size_t regressions(const std::vector<ChangePoint>& changes) {
    std::size_t count = 0;
    for (const ChangePoint& change : changes) {
        count += change.new_baseline ? 0 : 1;
    }
    return count;
}

// test/data/history/h100-2026-11-27.csv (written by extract_history.py from the H100 history): per series, its
// runs in commit order.
std::map<std::string, std::vector<SeriesPoint>> h100_history() {
    const std::string path = std::string(GPUCHRONO_SOURCE_DIR) + "/test/data/history/h100-2026-11-27.csv";
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error("cannot open " + path);
    }
    std::string line;
    std::getline(in, line);
    std::map<std::string, std::vector<SeriesPoint>> history;
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::stringstream row(line);
        std::string field;
        while (std::getline(row, field, ',')) {
            fields.push_back(field);
        }
        if (fields.size() != 8) {
            throw std::runtime_error(path + ": a row without its 8 fields: " + line);
        }
        SeriesPoint point;
        point.commit = fields[0];
        point.fingerprint = fields[2];
        point.median = std::stod(fields[3]);
        point.ci_low = std::stod(fields[4]);
        point.ci_high = std::stod(fields[5]);
        point.n = std::stoul(fields[6]);
        std::istringstream samples(fields[7]);
        for (double sample = 0; samples >> sample;) {
            point.samples.push_back(sample);
        }
        history[fields[1]].push_back(std::move(point));
    }
    return history;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(history_detection)

BOOST_AUTO_TEST_CASE(a_clear_step_is_found_where_it_came_in) {
    auto points = flat_history(40, 1000, 0.002, 1);
    for (std::size_t i = 25; i < points.size(); ++i) {
        points[i].median *= 1.02;
        points[i].ci_low *= 1.02;
        points[i].ci_high *= 1.02;
    }
    const auto changes = detect_changes(points);
    BOOST_REQUIRE_EQUAL(changes.size(), 1u);
    const ChangePoint& change = changes.front();
    BOOST_TEST(change.last_before < 25u);
    BOOST_TEST(change.first_after >= 25u);
    BOOST_TEST(change.confirmed_at <= 27u);
    BOOST_TEST((change.direction == ChangeDirection::slower));
    BOOST_TEST(!change.new_baseline);
    BOOST_TEST(change.change_ci_low < 0.02);
    BOOST_TEST(change.change_ci_high > 0.02);
    BOOST_TEST(change.change_ci_low > 0.01);
    BOOST_TEST(change.p_value <= DetectionOptions{}.significance);
    BOOST_TEST(change.evidence.find("+2.") != std::string::npos, change.evidence);
}

BOOST_AUTO_TEST_CASE(a_faster_step_is_found_as_faster) {
    auto points = flat_history(40, 1000, 0.002, 2);
    for (std::size_t i = 30; i < points.size(); ++i) {
        points[i].median *= 0.97;
        points[i].ci_low *= 0.97;
        points[i].ci_high *= 0.97;
    }
    const auto changes = detect_changes(points);
    BOOST_REQUIRE_EQUAL(changes.size(), 1u);
    BOOST_TEST((changes.front().direction == ChangeDirection::faster));
    BOOST_TEST(changes.front().relative_change < -0.02);
}

BOOST_AUTO_TEST_CASE(one_slow_process_is_not_a_change) {
    // The 2 us spin of the H100 history: every run at 2848 ns but one at 2880 (1.1%).
    std::vector<SeriesPoint> points(40);
    for (std::size_t i = 0; i < points.size(); ++i) {
        points[i].commit = std::to_string(i);
        points[i].median = i == 33 ? 2880 : 2848;
    }
    for (std::size_t prefix = 1; prefix <= points.size(); ++prefix) {
        BOOST_TEST(detect_changes(std::span(points.data(), prefix)).empty(), "after commit " << prefix - 1);
    }
    // Two in a row at the new level are a change.
    points[34].median = 2880;
    points[35].median = 2880;
    const auto changes = detect_changes(points);
    BOOST_REQUIRE_EQUAL(changes.size(), 1u);
    BOOST_TEST(changes.front().last_before == 32u);
}

BOOST_AUTO_TEST_CASE(a_new_fingerprint_is_a_new_baseline_not_a_regression) {
    auto points = flat_history(40, 1000, 0.002, 3);
    for (std::size_t i = 20; i < points.size(); ++i) {
        points[i].fingerprint = "H100, driver 590";
        points[i].median *= 1.05;
        points[i].ci_low *= 1.05;
        points[i].ci_high *= 1.05;
    }
    const auto changes = detect_changes(points);
    BOOST_REQUIRE_EQUAL(changes.size(), 1u);
    const ChangePoint& change = changes.front();
    BOOST_TEST(change.new_baseline);
    BOOST_TEST(change.last_before == 19u);
    BOOST_TEST(change.first_after == 20u);
    BOOST_TEST(change.relative_change > 0.04);
    BOOST_TEST(change.evidence.find("new baseline") != std::string::npos, change.evidence);
    // A step within the new machine's runs is judged against the new machine's baseline only.
    for (std::size_t i = 32; i < points.size(); ++i) {
        points[i].median *= 1.03;
        points[i].ci_low *= 1.03;
        points[i].ci_high *= 1.03;
    }
    const auto with_step = detect_changes(points);
    BOOST_REQUIRE_EQUAL(with_step.size(), 2u);
    BOOST_TEST(with_step[0].new_baseline);
    BOOST_TEST(!with_step[1].new_baseline);
    BOOST_TEST(with_step[1].last_before >= 20u);
    BOOST_TEST(with_step[1].first_after >= 32u);
}

BOOST_AUTO_TEST_CASE(short_and_constant_series_have_no_change) {
    BOOST_TEST(detect_changes({}).empty());
    const auto one = flat_history(1, 1000, 0.002, 8);
    BOOST_TEST(detect_changes(one).empty());
    // Runs that agree to the nanosecond (a spin on the timestamp grain): the spread's floor keeps them judgeable.
    std::vector<SeriesPoint> constant(30);
    for (SeriesPoint& point : constant) {
        point.median = 2848;
    }
    BOOST_TEST(detect_changes(constant).empty());
    constant[28].median = constant[29].median = 2880;
    const auto changes = detect_changes(constant);
    BOOST_REQUIRE_EQUAL(changes.size(), 1u);
    BOOST_TEST(changes.front().last_before == 27u);
    BOOST_TEST(changes.front().first_after == 28u);
}

BOOST_AUTO_TEST_CASE(a_machine_used_once_between_runs_of_another_is_two_new_baselines) {
    auto points = flat_history(31, 1000, 0.002, 9);
    points[20].fingerprint = "A100";
    points[20].median *= 1.5;
    points[20].ci_low *= 1.5;
    points[20].ci_high *= 1.5;
    const auto changes = detect_changes(points);
    BOOST_REQUIRE_EQUAL(changes.size(), 2u);
    BOOST_TEST(changes[0].new_baseline);
    BOOST_TEST(changes[0].first_after == 20u);
    BOOST_TEST(changes[0].relative_change > 0.4);
    BOOST_TEST(changes[1].new_baseline);
    BOOST_TEST(changes[1].first_after == 21u);
    BOOST_TEST(changes[1].relative_change < -0.3);
}

BOOST_AUTO_TEST_CASE(a_change_once_found_stays_found_as_commits_come) {
    auto points = flat_history(60, 1000, 0.002, 4);
    for (std::size_t i = 30; i < points.size(); ++i) {
        points[i].median *= 1.015;
    }
    for (SeriesPoint& point : points) {
        point.ci_low = point.ci_high = 0;
    }
    const auto all = detect_changes(points);
    BOOST_REQUIRE_EQUAL(all.size(), 1u);
    for (std::size_t prefix = all.front().confirmed_at + 1; prefix <= points.size(); ++prefix) {
        const auto seen = detect_changes(std::span(points.data(), prefix));
        BOOST_REQUIRE_EQUAL(seen.size(), 1u);
        BOOST_TEST(seen.front().confirmed_at == all.front().confirmed_at);
        BOOST_TEST(seen.front().last_before == all.front().last_before);
        BOOST_TEST(seen.front().first_after == all.front().first_after);
    }
    BOOST_TEST(detect_changes(std::span(points.data(), all.front().confirmed_at)).empty());
}

BOOST_AUTO_TEST_CASE(the_window_limits_the_scan_to_the_newest_runs) {
    auto points = flat_history(200, 1000, 0.002, 5);
    for (std::size_t i = 50; i < points.size(); ++i) {
        points[i].median *= i >= 190 ? 1.03 * 1.03 : 1.03;
        points[i].ci_low = points[i].ci_high = 0;
    }
    BOOST_TEST(regressions(detect_changes(points)) == 2u);
    DetectionOptions options;
    options.window = 30;
    const auto newest = detect_changes(points, options);
    BOOST_REQUIRE_EQUAL(newest.size(), 1u);
    BOOST_TEST(newest.front().first_after >= 190u);
}

BOOST_AUTO_TEST_CASE(samples_give_the_ci_when_a_run_has_none) {
    auto points = flat_history(30, 1000, 0.002, 6);
    points[10].ci_low = points[10].ci_high = 0;
    points[10].samples = {points[10].median, points[10].median * 1.01, points[10].median * 0.99,
                          points[10].median * 1.02, points[10].median * 0.98, points[10].median};
    BOOST_TEST(regressions(detect_changes(points)) == 0u);
    points[11].ci_low = points[11].ci_high = 0;
    points[11].samples = {points[11].median, -1.0, points[11].median};
    BOOST_CHECK_EXCEPTION(detect_changes(points), std::invalid_argument, [](const std::invalid_argument& error) {
        return std::string(error.what()).find("point 11 (commit c11): sample -1") != std::string::npos;
    });
}

BOOST_AUTO_TEST_CASE(unusable_points_and_options_are_refused_by_name) {
    auto points = flat_history(10, 1000, 0.002, 7);
    points[3].median = 0;
    BOOST_CHECK_EXCEPTION(detect_changes(points), std::invalid_argument, [](const std::invalid_argument& error) {
        return std::string(error.what()).find("point 3 (commit c3): median 0") != std::string::npos;
    });
    points[3].median = points[2].median;
    points[3].ci_low = points[3].ci_high = 0;
    points[4].ci_low = points[4].median * 1.01;
    BOOST_CHECK_EXCEPTION(detect_changes(points), std::invalid_argument, [](const std::invalid_argument& error) {
        return std::string(error.what()).find("point 4 (commit c4): ci_low") != std::string::npos;
    });
    const auto refuses = [](const std::string& field, auto change) {
        DetectionOptions options;
        change(options);
        try {
            options.validate();
        } catch (const std::invalid_argument& error) {
            return std::string(error.what()).find(field) != std::string::npos;
        }
        return false;
    };
    BOOST_TEST(refuses("significance", [](DetectionOptions& o) { o.significance = 0; }));
    BOOST_TEST(refuses("false_discovery_rate", [](DetectionOptions& o) { o.false_discovery_rate = 1; }));
    BOOST_TEST(refuses("min_points_before", [](DetectionOptions& o) { o.min_points_before = 2; }));
    BOOST_TEST(refuses("min_points_after", [](DetectionOptions& o) { o.min_points_after = 0; }));
    BOOST_TEST(refuses("baseline_window", [](DetectionOptions& o) { o.baseline_window = 4; }));
    BOOST_TEST(refuses("window", [](DetectionOptions& o) { o.window = 5; }));
    BOOST_TEST(refuses("min_relative_spread", [](DetectionOptions& o) { o.min_relative_spread = -0.1; }));
}

BOOST_AUTO_TEST_CASE(benjamini_hochberg_keeps_what_the_false_discovery_rate_allows) {
    const auto change = [](double p, bool new_baseline = false) {
        ChangePoint point;
        point.p_value = p;
        point.new_baseline = new_baseline;
        return point;
    };
    // m = 10, q = 0.05: the thresholds k q / m are 0.005, 0.01, 0.015, ...; the p-values sorted are 0.001, 0.008,
    // 0.012 (all under theirs: the third's 0.015 lets all three through), then 0.04 (over 0.02).
    std::vector<SeriesChange> candidates{{"a", change(0.012)}, {"b", change(0.001)}, {"c", change(0.04)},
                                         {"d", change(0.008)}, {"e", change(1.0, true)}};
    DetectionOptions options;
    options.series_tested = 10;
    const auto kept = correct_for_many_series(candidates, options);
    BOOST_REQUIRE_EQUAL(kept.size(), 4u);
    BOOST_TEST(kept[0].series == "a");
    BOOST_TEST(kept[1].series == "b");
    BOOST_TEST(kept[2].series == "d");
    BOOST_TEST(kept[3].series == "e");
    // With many more series tested the same evidence is not enough, but a new baseline is never a test.
    options.series_tested = 1000;
    const auto strict = correct_for_many_series(candidates, options);
    BOOST_REQUIRE_EQUAL(strict.size(), 1u);
    BOOST_TEST(strict[0].series == "e");
    candidates[0].change.p_value = 1.5;
    BOOST_CHECK_EXCEPTION(correct_for_many_series(candidates, options), std::invalid_argument,
                          [](const std::invalid_argument& error) {
                              return std::string(error.what()).find("series 'a'") != std::string::npos;
                          });
}

BOOST_AUTO_TEST_SUITE_END()

// The H100 history replayed as CI runs it: after each commit, detection over every run so far. Each known step
// is alerted within two commits with a range that holds it; no other alert, at any prefix, on any series.
BOOST_AUTO_TEST_SUITE(history_detection_replay)

BOOST_AUTO_TEST_CASE(the_h100_history_alerts_its_two_steps_and_nothing_else) {
    const auto history = h100_history();
    BOOST_REQUIRE_EQUAL(history.size(), 8u);
    const std::map<std::string, std::size_t> steps{{"spin 20us", 20}, {"vscale 64MiB", 30}};
    for (const auto& [series, points] : history) {
        BOOST_REQUIRE_EQUAL(points.size(), 40u);
        std::vector<SeriesChange> alerted;
        for (std::size_t prefix = 1; prefix <= points.size(); ++prefix) {
            for (const ChangePoint& change : detect_changes(std::span(points.data(), prefix))) {
                if (change.confirmed_at == prefix - 1) {
                    BOOST_TEST_MESSAGE(series << " after commit " << prefix - 1 << ": " << change.evidence);
                    alerted.push_back({series, change});
                }
            }
        }
        const auto step = steps.find(series);
        if (step == steps.end()) {
            BOOST_TEST(alerted.empty(), series << ": " << alerted.size() << " alerts on an A/A series");
            continue;
        }
        BOOST_REQUIRE_MESSAGE(alerted.size() == 1u, series << ": " << alerted.size() << " alerts, expected 1");
        const ChangePoint& change = alerted.front().change;
        BOOST_TEST(change.confirmed_at <= step->second + 2, series << " alerted at commit " << change.confirmed_at);
        BOOST_TEST(change.last_before < step->second, series);
        BOOST_TEST(change.first_after >= step->second, series);
        BOOST_TEST((change.direction == ChangeDirection::slower));
        BOOST_TEST(!change.new_baseline);
        // Both survive the correction over the eight series.
        DetectionOptions options;
        options.series_tested = history.size();
        BOOST_TEST(correct_for_many_series(alerted, options).size() == 1u, series);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// Simulated histories, noise fitted per series of the H100 history (simulated_history.hpp), fixed seeds.
BOOST_AUTO_TEST_SUITE(history_detection_simulated)

BOOST_AUTO_TEST_CASE(at_most_one_false_alert_per_hundred_commits) {
    using namespace gpuchrono::history::testing;
    for (const NoiseKind& kind : noise_kinds()) {
        std::mt19937_64 random(7);
        std::size_t alerts = 0;
        std::size_t commits = 0;
        for (int history = 0; history < 100; ++history) {
            const auto points = simulate_history(kind, 200, 200, 0.0, random);
            alerts += regressions(detect_changes(points));
            commits += points.size();
        }
        const double per_hundred = 100.0 * static_cast<double>(alerts) / static_cast<double>(commits);
        BOOST_TEST_MESSAGE(kind.series << ": " << per_hundred << " false alerts per 100 commits");
        BOOST_TEST(per_hundred <= 1.0, kind.series << ": " << per_hundred << " false alerts per 100 commits");
    }
}

// The yardstick of the step below: for runs with normal noise, however coarse the grain they sit on, the spread is
// 1.96 standard deviations of their medians, not the whole grain that holds 95% of them.
BOOST_AUTO_TEST_CASE(the_spread_of_runs_on_a_grain_is_their_noise_band) {
    using namespace gpuchrono::history::testing;
    for (const NoiseKind& kind : noise_kinds()) {
        if (kind.tail_degrees != 0 || kind.outlier_rate != 0) {
            continue;  // no closed form to hold the band to
        }
        std::mt19937_64 random(3);
        const auto runs = simulate_history(kind, 20000, 20000, 0.0, random);
        double sum = 0;
        double square_sum = 0;
        for (const SeriesPoint& run : runs) {
            const double relative = run.median / kind.level_ns - 1;
            sum += relative;
            square_sum += relative * relative;
        }
        const double count = static_cast<double>(runs.size());
        const double deviation = std::sqrt(square_sum / count - (sum / count) * (sum / count));
        const double ratio = spread_between_processes(kind) / (1.959963984540054 * deviation);
        BOOST_TEST_MESSAGE(kind.series << ": spread / (1.96 standard deviations) = " << ratio);
        BOOST_TEST(std::abs(ratio - 1) <= 0.1, kind.series << ": spread / (1.96 standard deviations) = " << ratio);
    }
}

BOOST_AUTO_TEST_CASE(a_step_of_twice_the_spread_is_found_within_three_commits) {
    using namespace gpuchrono::history::testing;
    constexpr std::size_t step_at = 40;
    constexpr int histories = 200;
    for (const NoiseKind& kind : noise_kinds()) {
        const double step = 2 * spread_between_processes(kind);
        std::mt19937_64 random(11);
        int found = 0;
        for (int history = 0; history < histories; ++history) {
            const auto points = simulate_history(kind, step_at + 8, step_at, step, random);
            for (const ChangePoint& change : detect_changes(points)) {
                if (change.confirmed_at >= step_at && change.confirmed_at <= step_at + 3 &&
                    change.last_before < step_at && change.first_after >= step_at) {
                    ++found;
                    break;
                }
            }
        }
        const double power = static_cast<double>(found) / histories;
        BOOST_TEST_MESSAGE(kind.series << ": a step of " << 100 * step << "% found within 3 commits in "
                                       << 100 * power << "% of histories");
        BOOST_TEST(power >= 0.95, kind.series << ": " << 100 * power << "%");
    }
}

BOOST_AUTO_TEST_SUITE_END()
