// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The history's store on SQLite and on a real PostgreSQL server, the same cases on both: what is written reads
// back, refusals leave nothing written, a newer schema is refused, eight writers at once lose nothing, a unit
// change is refused, commits keep the order given.
#include <boost/test/unit_test.hpp>

#include "history_databases.hpp"

#include "history/sql_connection.hpp"
#include "history/store.hpp"

#include <string>
#include <thread>
#include <vector>

using namespace gpuchrono::history;
using history_test::Backend;

namespace {

RunRecord made_up_run(const std::string& commit, double median, const std::string& series = "spin 20us") {
    RunRecord r;
    r.commit.hash = commit;
    r.commit.subject = "commit " + commit;
    r.fingerprint.gpu_name = "NVIDIA H100 80GB HBM3";
    r.fingerprint.sm_count = 132;
    r.fingerprint.driver = "13.0";
    r.run_time = "2026-11-27T18:00:00Z";
    r.report_path = "made-up/report.json";
    r.source_format = "gpuchrono-report";
    PointRecord p;
    p.experiment = "measurements";
    p.series = series;
    p.median = median;
    p.ci_low = median - 10;
    p.ci_high = median + 10;
    p.n = 3;
    p.method = "kernel";
    p.cache_state = "warm";
    p.findings = {"noisy-series"};
    p.samples = {median - 1, median, median + 1.5};
    r.points.push_back(p);
    return r;
}

void round_trip(Backend backend) {
    history_test::TempFolder folder;
    const auto db = history_test::fresh_database(backend, folder);
    {
        auto store = open_store(db);
        store->add(made_up_run("aaa111", 20400.5));
        store->add(made_up_run("bbb222", 20800.25));
    }
    auto store = open_store(db);  // reopened: the schema is there, no migration runs again
    const auto commits = store->commits();
    BOOST_TEST_REQUIRE(commits.size() == 2u);
    BOOST_TEST(commits[0].hash == "aaa111");
    BOOST_TEST(commits[1].subject == "commit bbb222");
    const auto s = store->find_series("spin 20us");
    BOOST_TEST_REQUIRE(s.has_value());
    BOOST_TEST(s->unit == "ns");
    BOOST_TEST(store->find_series("measurements/spin 20us")->id == s->id);
    const auto points = store->points(s->id);
    BOOST_TEST_REQUIRE(points.size() == 2u);
    BOOST_TEST(points[1].median == 20800.25);
    BOOST_TEST(*points[1].ci_low == 20790.25);
    BOOST_TEST(points[1].samples == (std::vector<double>{20799.25, 20800.25, 20801.75}), boost::test_tools::per_element());
    BOOST_TEST(points[1].findings == std::vector<std::string>{"noisy-series"}, boost::test_tools::per_element());
    BOOST_TEST(points[0].baseline == points[1].baseline);
    // What the change detection reads: samples only where a run has no CI of its own.
    BOOST_TEST(store->points(s->id, 0, true)[1].samples.empty());
    auto without_ci = made_up_run("ccc333", 20900);
    without_ci.points[0].ci_low.reset();
    without_ci.points[0].ci_high.reset();
    store->add(without_ci);
    const auto light = store->points(s->id, 2, true);
    BOOST_TEST_REQUIRE(light.size() == 2u);  // the newest two, oldest first
    BOOST_TEST(light[0].commit == "bbb222");
    BOOST_TEST(light[0].samples.empty());
    BOOST_TEST(light[1].samples.size() == 3u);
    BOOST_TEST(!light[1].ci_low.has_value());
    // Fields the report did not carry stay absent: the baseline key shows them as "-", not as a made-up value.
    BOOST_TEST(points[0].baseline.find("NVIDIA H100 80GB HBM3|-|132") == 0u);
}

void unit_change_refused(Backend backend) {
    history_test::TempFolder folder;
    auto store = open_store(history_test::fresh_database(backend, folder));
    store->add(made_up_run("aaa111", 100));
    auto changed = made_up_run("bbb222", 100);
    changed.points[0].unit = "bytes/s";
    BOOST_CHECK_EXCEPTION(store->add(changed), HistoryError, [](const HistoryError& e) {
        const std::string m = e.what();
        BOOST_TEST_MESSAGE(m);
        return m.find("made-up/report.json") != std::string::npos && m.find("bytes/s") != std::string::npos &&
               m.find("keeps it in ns") != std::string::npos;
    });
    // The refused add wrote nothing: no commit, no run.
    BOOST_TEST(store->commits().size() == 1u);
    BOOST_TEST(store->points(store->find_series("spin 20us")->id).size() == 1u);
}

void folder_added_whole_or_not_at_all(Backend backend) {
    history_test::TempFolder folder;
    auto store = open_store(history_test::fresh_database(backend, folder));
    store->add(made_up_run("aaa111", 100));
    // A folder's reports: the third is refused (its unit changed), so neither of the first two is kept.
    auto refused = made_up_run("ddd444", 100);
    refused.points[0].unit = "bytes/s";
    const std::vector<RunRecord> with_a_bad_one = {made_up_run("bbb222", 101, "spin 5us"), made_up_run("ccc333", 102),
                                                   refused};
    BOOST_CHECK_THROW(store->add_all(with_a_bad_one), HistoryError);
    BOOST_TEST(store->commits().size() == 1u);
    BOOST_TEST(!store->find_series("spin 5us").has_value());
    BOOST_TEST(store->points(store->find_series("spin 20us")->id).size() == 1u);
    // Without the bad one, all are kept.
    const auto ids = store->add_all({with_a_bad_one[0], with_a_bad_one[1]});
    BOOST_TEST(ids.size() == 2u);
    BOOST_TEST(store->commits().size() == 3u);
    BOOST_TEST(store->points(store->find_series("spin 20us")->id).size() == 2u);
}

void every_series_in_one_read(Backend backend) {
    history_test::TempFolder folder;
    auto store = open_store(history_test::fresh_database(backend, folder));
    for (int c = 0; c < 6; ++c) {
        auto run = made_up_run("commit" + std::to_string(c), 100 + c);
        if (c % 2 == 0) run.points.push_back(made_up_run("x", 200 + c, "spin 5us").points[0]);
        if (c == 5) run.points[0].ci_low.reset();  // its samples are read: it has no CI
        store->add(run);
    }
    store->add(made_up_run("commit5", 106));  // a second run of the newest commit
    // What one query of every series gives is what a query per series gives, newest window or whole.
    for (const std::size_t newest : {std::size_t{0}, std::size_t{2}, std::size_t{3}, std::size_t{50}}) {
        const auto every = store->points_of_every_series(newest, true);
        BOOST_TEST(every.size() == 2u);
        for (const auto& s : store->series()) {
            const auto one = store->points(s.id, newest, true);
            BOOST_TEST_REQUIRE(every.count(s.id) == 1u);
            const auto& together = every.at(s.id);
            BOOST_TEST_REQUIRE(together.size() == one.size());
            for (std::size_t i = 0; i < one.size(); ++i) {
                BOOST_TEST(together[i].run_id == one[i].run_id);
                BOOST_TEST(together[i].commit == one[i].commit);
                BOOST_TEST(together[i].median == one[i].median);
                BOOST_TEST(together[i].samples == one[i].samples, boost::test_tools::per_element());
            }
        }
    }
    const auto spin = store->find_series("spin 20us")->id;
    const auto newest_two = store->points_of_every_series(2, true).at(spin);
    BOOST_TEST_REQUIRE(newest_two.size() == 2u);
    BOOST_TEST(newest_two[0].commit == "commit5");
    BOOST_TEST(newest_two[0].samples.size() == 3u);
    BOOST_TEST(newest_two[1].median == 106.0);
}

void commits_out_of_time_order(Backend backend) {
    history_test::TempFolder folder;
    auto store = open_store(history_test::fresh_database(backend, folder));
    // Added newest author time first: without git the order given stands.
    auto late = made_up_run("later", 100);
    late.commit.author_time = "2026-11-27T12:00:00Z";
    auto early = made_up_run("earlier", 101);
    early.commit.author_time = "2026-11-01T12:00:00Z";
    store->add(late);
    store->add(early);
    // With the commit graph's position (git), the graph's order wins over the order added.
    auto placed = made_up_run("graph-first", 102);
    placed.commit.graph_position = 0;
    store->add(placed);
    const auto commits = store->commits();
    BOOST_TEST_REQUIRE(commits.size() == 3u);
    BOOST_TEST(commits[0].hash == "graph-first");
    BOOST_TEST(commits[1].hash == "later");
    BOOST_TEST(commits[2].hash == "earlier");
    const auto points = store->points(store->find_series("spin 20us")->id);
    BOOST_TEST(points[0].commit == "graph-first");
    BOOST_TEST(points[2].commit == "earlier");
}

void alias_keeps_history(Backend backend) {
    history_test::TempFolder folder;
    auto store = open_store(history_test::fresh_database(backend, folder));
    store->add(made_up_run("aaa111", 100, "spin 20 us"));
    store->add_alias("measurements", "spin 20us", "spin 20 us");
    store->add(made_up_run("bbb222", 101, "spin 20us"));  // written under the old name: read as the new one
    const auto s = store->find_series("spin 20us");
    BOOST_TEST_REQUIRE(s.has_value());
    BOOST_TEST(s->name == "spin 20 us");
    BOOST_TEST(store->points(s->id).size() == 2u);
    BOOST_TEST(store->series().size() == 1u);
}

void eight_writers(Backend backend) {
    history_test::TempFolder folder;
    const auto db = history_test::fresh_database(backend, folder);
    constexpr int writers = 8, runs_each = 12;
    std::vector<std::string> errors(writers);
    std::vector<std::thread> threads;
    // Each writer opens its own connection at the same time (the schema is created under the writers' race too)
    // and adds runs of the same commits and series, as eight CI jobs of one pipeline would.
    for (int w = 0; w < writers; ++w)
        threads.emplace_back([&, w] {
            try {
                auto store = open_store(db);
                for (int i = 0; i < runs_each; ++i)
                    store->add(made_up_run("commit-" + std::to_string(i), 1000 + w, "series " + std::to_string(i % 3)));
            } catch (const std::exception& e) {
                errors[static_cast<std::size_t>(w)] = e.what();
            }
        });
    for (auto& t : threads) t.join();
    for (const auto& e : errors) BOOST_TEST(e.empty(), e);
    auto store = open_store(db);
    BOOST_TEST(store->commits().size() == static_cast<std::size_t>(runs_each));
    BOOST_TEST(store->series().size() == 3u);
    std::size_t points = 0;
    for (const auto& s : store->series()) points += store->points(s.id).size();
    BOOST_TEST(points == static_cast<std::size_t>(writers * runs_each));
}

void newer_schema_refused(Backend backend) {
    history_test::TempFolder folder;
    const auto db = history_test::fresh_database(backend, folder);
    open_store(db);
    {
        // Past the store, as a newer gpuchrono's migration would have left the database.
        const auto raw = backend == Backend::sqlite ? open_sqlite(db) : open_postgresql(db);
        raw->run("UPDATE schema_version SET version = 7");
    }
    BOOST_CHECK_EXCEPTION(open_store(db), HistoryError, [](const HistoryError& e) {
        const std::string m = e.what();
        BOOST_TEST_MESSAGE(m);
        return m.find("schema version 7") != std::string::npos && m.find("version 1") != std::string::npos;
    });
}

}  // namespace

#define HISTORY_STORE_CASES(backend)                                   \
    BOOST_AUTO_TEST_CASE(round_trip_case) { round_trip(backend); }     \
    BOOST_AUTO_TEST_CASE(unit_change) { unit_change_refused(backend); } \
    BOOST_AUTO_TEST_CASE(folder_in_one_transaction) { folder_added_whole_or_not_at_all(backend); } \
    BOOST_AUTO_TEST_CASE(every_series_at_once) { every_series_in_one_read(backend); } \
    BOOST_AUTO_TEST_CASE(out_of_time_order) { commits_out_of_time_order(backend); } \
    BOOST_AUTO_TEST_CASE(alias) { alias_keeps_history(backend); }      \
    BOOST_AUTO_TEST_CASE(eight_concurrent_writers) { eight_writers(backend); } \
    BOOST_AUTO_TEST_CASE(newer_schema) { newer_schema_refused(backend); }

BOOST_AUTO_TEST_SUITE(history_store_sqlite)
HISTORY_STORE_CASES(Backend::sqlite)
BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(history_store_postgresql)
HISTORY_STORE_CASES(Backend::postgresql)
BOOST_AUTO_TEST_SUITE_END()
