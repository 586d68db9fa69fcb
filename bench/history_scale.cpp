// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How the performance history scales: a history of S series x C commits (default 1,000 x 10,000, medians and CIs,
// no samples) is written commit by commit, then the table gives the time of what CI and people do with it: `add`
// of one commit's report, `check` of the newest commit (and the part of it that reads every series' newest runs),
// `show` of one series. SQLite in a temporary folder, and PostgreSQL beside it (a server started as the history's
// tests start theirs) with --postgresql.
//
//     bench_history_scale [--series S] [--commits C] [--postgresql]
#include "history/history_databases.hpp"

#include "history/check.hpp"
#include "history/show.hpp"
#include "history/store.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace gpuchrono::history;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

RunRecord commit_run(int commit, int series, std::mt19937_64& random) {
    std::normal_distribution<double> noise(0, 0.003);
    RunRecord r;
    r.commit.hash = "commit-" + std::to_string(commit);
    r.fingerprint.gpu_name = "NVIDIA H100 80GB HBM3";
    r.fingerprint.driver = "13.0";
    r.run_time = "2026-11-27T00:00:00Z";
    r.report_path = "bench/report.json";
    r.source_format = "gpuchrono-report";
    r.points.reserve(static_cast<std::size_t>(series));
    for (int s = 0; s < series; ++s) {
        PointRecord p;
        p.experiment = "suite";
        p.series = "series " + std::to_string(s);
        p.median = (1000.0 + s) * (1 + noise(random));
        p.ci_low = p.median * 0.997;
        p.ci_high = p.median * 1.003;
        p.n = 50;
        p.method = "kernel";
        r.points.push_back(std::move(p));
    }
    return r;
}

void row(const char* what, double seconds, double target) {
    std::printf("| %-34s | %10.3f s | %8.3f s | %s |\n", what, seconds, target, seconds <= target ? "met" : "MISSED");
}

void bench(const std::string& backend, const std::string& db, int series, int commits) {
    auto store = open_store(db);
    std::mt19937_64 random(42);
    std::vector<double> adds;
    const auto filling = std::chrono::steady_clock::now();
    for (int c = 0; c < commits; ++c) {
        const auto run = commit_run(c, series, random);
        const auto start = std::chrono::steady_clock::now();
        store->add(run);
        if (c >= commits - 20) adds.push_back(seconds_since(start));
    }
    const double fill = seconds_since(filling);
    auto start = std::chrono::steady_clock::now();
    const auto verdict = check_history(*store);
    const double check = seconds_since(start);
    // Of check's time, what reading the newest runs of every series takes (the rest is the change detection).
    start = std::chrono::steady_clock::now();
    const auto read = store->points_of_every_series(CheckOptions{}.newest_runs, true);
    const double reading = seconds_since(start);
    start = std::chrono::steady_clock::now();
    const auto s = store->find_series("suite/series 7");
    const auto points = store->points(s->id);
    const auto text = render_series(*s, points, detect_changes(detector_points(points)));
    const double show = seconds_since(start);
    std::printf("\n%s, %d series x %d commits (%.0f s to write them; check said: %s)\n\n", backend.c_str(), series,
                commits, fill, verdict.summary.c_str());
    std::printf("| %-34s | %12s | %10s | %s |\n|---|---|---|---|\n", "operation", "time", "target", "");
    row("add of one commit's report (median)", median(adds), 0.5);
    row("check of the newest commit", check, 2.0);
    std::printf("| %-34s | %10.3f s | %10s | %zu series in one query |\n", "  of which: reading the newest runs", reading,
                "", read.size());
    row("show of one series", show, 0.1);
    if (text.empty()) std::printf("show printed nothing\n");
}

}  // namespace

int main(int argc, char** argv) {
    int series = 1000, commits = 10000;
    bool postgresql = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--series") && i + 1 < argc) series = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--commits") && i + 1 < argc) commits = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--postgresql")) postgresql = true;
        else {
            std::fprintf(stderr, "usage: bench_history_scale [--series S] [--commits C] [--postgresql]\n");
            return 2;
        }
    }
    if (series < 8 || commits < 10) {
        std::fprintf(stderr, "bench_history_scale: at least 8 series and 10 commits\n");
        return 2;
    }
    try {
        history_test::TempFolder folder;
        bench("SQLite", history_test::fresh_database(history_test::Backend::sqlite, folder), series, commits);
        if (postgresql)
            bench("PostgreSQL", history_test::fresh_database(history_test::Backend::postgresql, folder), series, commits);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_history_scale: %s\n", e.what());
        return 1;
    }
    return 0;
}
