// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The performance history's change detector (docs/history.md, "How a change is found"), measured: per simulated
// series kind (noise fitted to the H100 history, test/history/simulated_history.hpp) the false alerts per 100
// commits and, for steps of 1, 2 and 3 times the series' spread between processes, how many commits after the
// step the alert came; per real series of the H100 history (test/data/history/h100-2026-11-27.csv), replayed
// commit by commit, every alert; and the time one detection takes on a 10,000-commit series, whole and through
// the gate's window. CPU only.
//
// Usage: bench_history_detection [HISTORY.csv]   (default: the table in the source tree)
#include "history/simulated_history.hpp"

#include "history/change_detection.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace gpuchrono::history;
using namespace gpuchrono::history::testing;

namespace {

constexpr int false_alert_histories = 500;  // of 200 commits each
constexpr int step_histories = 1000;
constexpr std::size_t step_at = 40;
constexpr std::size_t longest_delay = 10;

std::size_t regressions(const std::vector<ChangePoint>& changes) {
    std::size_t count = 0;
    for (const ChangePoint& change : changes) {
        count += change.new_baseline ? 0 : 1;
    }
    return count;
}

void simulated_table() {
    std::printf("Simulated histories, noise fitted per series of the H100 history\n");
    std::printf("  false alerts: %d histories of 200 commits; steps: %d histories, the step at commit %zu\n",
                false_alert_histories, step_histories, step_at);
    std::printf("  delay d: commits from the first one at the new level to the alert (0: alerted by that commit)\n\n");
    std::printf("%-18s %8s %10s | %5s %7s | %6s %6s %6s %6s %7s %6s\n", "series kind", "spread", "false/100",
                "step", "size", "<=1", "<=2", "<=3", "<=10", "never", "elsewh");
    for (const NoiseKind& kind : noise_kinds()) {
        const double spread = spread_between_processes(kind);
        std::mt19937_64 random(1);
        std::size_t alerts = 0;
        std::size_t commits = 0;
        for (int history = 0; history < false_alert_histories; ++history) {
            const auto points = simulate_history(kind, 200, 200, 0.0, random);
            alerts += regressions(detect_changes(points));
            commits += points.size();
        }
        const double per_hundred = 100.0 * static_cast<double>(alerts) / static_cast<double>(commits);
        for (const double multiple : {1.0, 2.0, 3.0}) {
            std::vector<int> by_delay(longest_delay + 1, 0);
            int never = 0;
            int misplaced = 0;
            for (int history = 0; history < step_histories; ++history) {
                const auto points = simulate_history(kind, step_at + longest_delay + 1, step_at, multiple * spread,
                                                     random);
                bool found = false;
                for (const ChangePoint& change : detect_changes(points)) {
                    if (!change.new_baseline && change.confirmed_at >= step_at) {
                        if (change.last_before < step_at && change.first_after >= step_at) {
                            ++by_delay[change.confirmed_at - step_at];
                        } else {
                            ++misplaced;
                        }
                        found = true;
                        break;
                    }
                }
                never += found ? 0 : 1;
            }
            const auto within = [&](std::size_t delay) {
                int count = 0;
                for (std::size_t d = 0; d <= delay; ++d) {
                    count += by_delay[d];
                }
                return 100.0 * count / step_histories;
            };
            std::printf("%-18s %7.3f%% %10.2f | %4.0fx %6.3f%% | %5.1f%% %5.1f%% %5.1f%% %5.1f%% %6.1f%% %5.1f%%\n",
                        multiple == 1.0 ? kind.series : "", 100 * spread, per_hundred, multiple,
                        100 * multiple * spread, within(1), within(2), within(3), within(longest_delay),
                        100.0 * never / step_histories, 100.0 * misplaced / step_histories);
        }
    }
    std::printf("  spread: half the width of the band holding 95%% of A/A medians, each spread over its timestamp grain\n"
                "  (at least one grain)\n");
    std::printf("  <=d: alerted within d commits with a commit range that holds the step; elsewh: the first alert\n");
    std::printf("  after the step gave a range that does not hold it; never: no alert in the 10 commits after it\n\n");
}

bool real_table(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        std::printf("H100 history: cannot open %s, skipped\n", path.c_str());
        return false;
    }
    std::map<std::string, std::vector<SeriesPoint>> history;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::stringstream row(line);
        for (std::string field; std::getline(row, field, ',');) {
            fields.push_back(field);
        }
        if (fields.size() != 8) {
            std::printf("H100 history: %s: a row without its 8 fields\n", path.c_str());
            return false;
        }
        SeriesPoint point;
        point.commit = fields[0];
        point.fingerprint = fields[2];
        point.median = std::stod(fields[3]);
        point.ci_low = std::stod(fields[4]);
        point.ci_high = std::stod(fields[5]);
        point.n = std::stoul(fields[6]);
        history[fields[1]].push_back(std::move(point));
    }
    std::printf("The H100 history replayed commit by commit (%s)\n", path.c_str());
    std::printf("%-18s %8s  %s\n", "series", "alerts", "each alert: the commit that raised it, its range, the change");
    for (const auto& [series, points] : history) {
        std::string text;
        std::size_t alerts = 0;
        for (std::size_t prefix = 1; prefix <= points.size(); ++prefix) {
            for (const ChangePoint& change : detect_changes(std::span(points.data(), prefix))) {
                if (change.confirmed_at == prefix - 1 && !change.new_baseline) {
                    char entry[160];
                    std::snprintf(entry, sizeof entry, "at %s: (%s, %s] %+.2f%% [%+.2f%%, %+.2f%%] p=%.2g; ",
                                  points[prefix - 1].commit.c_str(), points[change.last_before].commit.c_str(),
                                  points[change.first_after].commit.c_str(), 100 * change.relative_change,
                                  100 * change.change_ci_low, 100 * change.change_ci_high, change.p_value);
                    text += entry;
                    ++alerts;
                }
            }
        }
        std::printf("%-18s %8zu  %s\n", series.c_str(), alerts, alerts == 0 ? "none" : text.c_str());
    }
    std::printf("  known: spin 20us +2%% from commit 20, vscale 64MiB +1%% from commit 30, nothing else\n\n");
    return true;
}

void timing_table() {
    std::mt19937_64 random(3);
    const NoiseKind& kind = noise_kinds()[7];
    std::vector<SeriesPoint> points = simulate_history(kind, 10000, 5000, 0.02, random);
    std::printf("Time of one detection on a 10,000-commit series (one step in it)\n");
    for (const std::size_t window : {std::size_t{0}, std::size_t{200}}) {
        DetectionOptions options;
        options.window = window;
        constexpr int repeats = 20;
        std::size_t found = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < repeats; ++i) {
            found += detect_changes(points, options).size();
        }
        const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
        std::printf("  %-34s %8.3f ms (%zu change points)\n",
                    window == 0 ? "whole series" : "window = 200 newest (the gate)", elapsed.count() / repeats,
                    found / repeats);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string path =
        argc > 1 ? argv[1] : std::string(GPUCHRONO_SOURCE_DIR) + "/test/data/history/h100-2026-11-27.csv";
    simulated_table();
    real_table(path);
    timing_table();
    return 0;
}
