// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How the performance history scales: a history of S series x C commits (default 1,000 x 10,000, medians and CIs,
// no samples), then the time of what CI and people do with it: `add` of one commit's report, `check` of the newest
// commit (and the part of it that reads every series' newest runs), `show` of one series and `page` of them all.
// SQLite in a temporary folder, and PostgreSQL beside it (a server started as the history's tests start theirs)
// with --postgresql.
//
// The history is written in bulk (many rows a statement, a few hundred commits a transaction), not by C calls of
// add(): what is timed is what a CI job does to a long history, not how long the history took to grow. The SQLite
// file is kept in --cache FOLDER (default: beside this program) and copied from there on later runs of the same
// size; PostgreSQL's is written every run, and the time it took is printed.
//
//     bench_history_scale [--series S] [--commits C] [--postgresql] [--cache FOLDER]
#include "history/history_databases.hpp"

#include "history/check.hpp"
#include "history/history_page.hpp"
#include "history/show.hpp"
#include "history/sql_connection.hpp"
#include "history/store.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace gpuchrono::history;
namespace fs = std::filesystem;

namespace {

// The relative spread of each run's median about its series' level, and the half width of each run's CI.
constexpr double run_spread = 0.003;
// Commits a bulk transaction writes: big enough to amortise the commit, small enough to keep SQLite's WAL short.
constexpr int commits_per_transaction = 500;

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

std::string hash_of(int commit) { return "commit-" + std::to_string(commit); }
std::string series_name(int s) { return "series " + std::to_string(s); }
double level_of(int s) { return 1000.0 + s; }

RunRecord commit_run(int commit, int series, std::mt19937_64& random) {
    std::normal_distribution<double> noise(0, run_spread);
    RunRecord r;
    r.commit.hash = hash_of(commit);
    r.fingerprint.gpu_name = "NVIDIA H100 80GB HBM3";
    r.fingerprint.driver = "13.0";
    r.run_time = "2026-11-27T00:00:00Z";
    r.report_path = "bench/report.json";
    r.source_format = "gpuchrono-report";
    r.points.reserve(static_cast<std::size_t>(series));
    for (int s = 0; s < series; ++s) {
        PointRecord p;
        p.experiment = "suite";
        p.series = series_name(s);
        p.median = level_of(s) * (1 + noise(random));
        p.ci_low = p.median * (1 - run_spread);
        p.ci_high = p.median * (1 + run_spread);
        p.n = 50;
        p.method = "kernel";
        r.points.push_back(std::move(p));
    }
    return r;
}

void append_number(std::string& out, double v) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, ec == std::errc{} ? end : buffer);
}

std::unique_ptr<SqlConnection> connect(const std::string& location) {
    return location.starts_with("postgresql://") ? open_postgresql(location) : open_sqlite(location);
}

// Commits 0 .. commits-1 of `series` series each: commit 0 through add(), which creates the schema, the series and
// the machine's fingerprint as the command would; the rest in bulk, in the store's own tables.
void fill(const std::string& location, int series, int commits) {
    std::mt19937_64 random(42);
    std::map<std::string, std::int64_t> series_ids;
    {
        auto store = open_store(location);
        store->add(commit_run(0, series, random));
        for (const auto& s : store->series()) series_ids[s.name] = s.id;
    }
    auto db = connect(location);
    std::normal_distribution<double> noise(0, run_spread);
    for (int first = 1; first < commits; first += commits_per_transaction) {
        const int last = std::min(commits, first + commits_per_transaction);  // this transaction: [first, last)
        db->begin(false);
        std::string sql = "INSERT INTO commits (hash, position) VALUES ";
        for (int c = first; c < last; ++c)
            sql += (c == first ? "('" : ", ('") + hash_of(c) + "', " + std::to_string(c + 1) + ")";
        db->run(sql);
        db->run("INSERT INTO runs (commit_id, fingerprint_id, run_time, added_time, report_path, source_format)"
                " SELECT c.id, f.id, '2026-11-27T00:00:00Z', '2026-11-27T00:00:00Z', 'bench/report.json',"
                " 'gpuchrono-report' FROM commits c CROSS JOIN fingerprints f WHERE c.position > " +
                std::to_string(first) + " AND c.position <= " + std::to_string(last));
        const auto runs = db->run("SELECT r.id, c.position FROM runs r JOIN commits c ON c.id = r.commit_id"
                                  " WHERE c.position > " + std::to_string(first) + " AND c.position <= " +
                                  std::to_string(last) + " ORDER BY c.position");
        for (const auto& run : runs) {
            // One statement a commit: its runs' points of every series.
            std::string points = "INSERT INTO points (run_id, series_id, position, median, ci_low, ci_high, n, method) VALUES ";
            for (int s = 0; s < series; ++s) {
                const double m = level_of(s) * (1 + noise(random));
                points += s == 0 ? "(" : ", (";
                points += *run[0] + ", " + std::to_string(series_ids.at(series_name(s))) + ", " + *run[1] + ", ";
                append_number(points, m);
                points += ", ";
                append_number(points, m * (1 - run_spread));
                points += ", ";
                append_number(points, m * (1 + run_spread));
                points += ", 50, 'kernel')";
            }
            db->run(points);
        }
        db->commit();
        if ((last - 1) % 2000 < commits_per_transaction || last == commits)
            std::fprintf(stderr, "  %d of %d commits written\n", last, commits);
    }
    // A server's autovacuum would have analysed tables this size long before: without statistics PostgreSQL's
    // planner takes the freshly written points for an empty table.
    if (location.starts_with("postgresql://")) db->run("VACUUM ANALYZE");
}

// The targets are SQLite's; PostgreSQL's are twice them (target_factor 2).
void row(const char* what, double seconds, double target, double target_factor) {
    target *= target_factor;
    std::printf("| %-34s | %10.3f s | %8.3f s | %s |\n", what, seconds, target, seconds <= target ? "met" : "MISSED");
}

void bench(const std::string& backend, const std::string& db, int series, int commits, double fill_seconds,
           const fs::path& scratch) {
    const double target_factor = backend == "PostgreSQL" ? 2.0 : 1.0;
    auto store = open_store(db);
    std::mt19937_64 random(7);
    std::vector<double> adds;
    for (int c = commits; c < commits + 5; ++c) {
        const auto run = commit_run(c, series, random);
        const auto start = std::chrono::steady_clock::now();
        store->add(run);
        adds.push_back(seconds_since(start));
    }
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
    start = std::chrono::steady_clock::now();
    const auto page = write_history_page(*store, scratch / (backend + "-page"));
    const double paging = seconds_since(start);
    char written[64];
    if (fill_seconds > 0) std::snprintf(written, sizeof written, "%.0f s to write them in bulk", fill_seconds);
    else std::snprintf(written, sizeof written, "copied from the cache");
    std::printf("\n%s, %d series x %d commits (%s; check said: %s)\n\n", backend.c_str(), series, commits + 5,
                written, verdict.summary.c_str());
    std::printf("| %-34s | %12s | %10s | %s |\n|---|---|---|---|\n", "operation", "time", "target", "");
    row("add of one commit's report (median)", median(adds), 0.5, target_factor);
    row("check of the newest commit", check, 2.0, target_factor);
    std::printf("| %-34s | %10.3f s | %10s | %zu series in one query |\n", "  of which: reading the newest runs", reading,
                "", read.size());
    row("show of one series", show, 0.1, target_factor);
    row("page of every series", paging, 30.0, target_factor);
    std::printf("\n(show: %zu runs of one series; page: %.1f MB)\n", points.size(),
                static_cast<double>(fs::file_size(page)) / 1e6);
    if (text.empty()) std::printf("show printed nothing\n");
}

// The SQLite history of this size: copied from the cache when there, else written and kept there.
std::string sqlite_history(const fs::path& cache, const history_test::TempFolder& folder, int series, int commits,
                           double& fill_seconds) {
    const fs::path kept = cache / ("history_scale_" + std::to_string(series) + "x" + std::to_string(commits) + ".db");
    const std::string db = history_test::fresh_database(history_test::Backend::sqlite, folder);
    fill_seconds = 0;
    if (!fs::exists(kept)) {
        std::fprintf(stderr, "writing %s (kept for later runs)\n", kept.string().c_str());
        const fs::path writing = kept.string() + ".writing";
        fs::remove(writing);
        const auto start = std::chrono::steady_clock::now();
        fill(writing.string(), series, commits);
        fill_seconds = seconds_since(start);
        fs::rename(writing, kept);
    }
    fs::copy_file(kept, db);
    return db;
}

}  // namespace

int main(int argc, char** argv) {
    int series = 1000, commits = 10000;
    bool postgresql = false;
    fs::path cache = fs::absolute(argv[0]).parent_path();
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--series") && i + 1 < argc) series = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--commits") && i + 1 < argc) commits = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--cache") && i + 1 < argc) cache = argv[++i];
        else if (!std::strcmp(argv[i], "--postgresql")) postgresql = true;
        else {
            std::fprintf(stderr, "usage: bench_history_scale [--series S] [--commits C] [--postgresql] [--cache FOLDER]\n");
            return 2;
        }
    }
    if (series < 8 || commits < 10) {
        std::fprintf(stderr, "bench_history_scale: at least 8 series and 10 commits\n");
        return 2;
    }
    try {
        history_test::TempFolder folder;
        double fill_seconds = 0;
        const auto sqlite = sqlite_history(cache, folder, series, commits, fill_seconds);
        bench("SQLite", sqlite, series, commits, fill_seconds, folder.path());
        if (postgresql) {
            const auto db = history_test::fresh_database(history_test::Backend::postgresql, folder);
            std::fprintf(stderr, "writing the PostgreSQL history\n");
            const auto start = std::chrono::steady_clock::now();
            fill(db, series, commits);
            bench("PostgreSQL", db, series, commits, seconds_since(start), folder.path());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_history_scale: %s\n", e.what());
        return 1;
    }
    return 0;
}
