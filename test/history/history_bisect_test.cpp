// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `history bisect`'s judgement: a fresh run against the good commit's stored runs on the same machine is good,
// bad or skipped as `git bisect run` reads exit statuses, and the series' own noise between processes raises the
// threshold.
#include <boost/test/unit_test.hpp>

#include "history_databases.hpp"

#include "history/bisect.hpp"
#include "history/store.hpp"

#include <string>
#include <vector>

using namespace gpuchrono::history;

namespace {

// One process's run of one series: 20 samples spread +-0.5% about `median`.
RunRecord run_at(const std::string& commit, double median, const std::string& gpu = "NVIDIA H100 80GB HBM3") {
    RunRecord r;
    r.commit.hash = commit;
    r.fingerprint.gpu_name = gpu;
    r.report_path = "fresh/report.json";
    PointRecord p;
    p.experiment = "measurements";
    p.series = "spin 20us";
    p.median = median;
    p.n = 20;
    for (int i = 0; i < 20; ++i) p.samples.push_back(median * (1 + 0.0005 * (i - 10)));
    r.points.push_back(p);
    return r;
}

BisectOptions options_for(const std::string& good) {
    BisectOptions o;
    o.series = "spin 20us";
    o.good = good;
    return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(history_bisect)

BOOST_AUTO_TEST_CASE(good_bad_and_skipped) {
    history_test::TempFolder folder;
    auto store = open_store(history_test::fresh_database(history_test::Backend::sqlite, folder));
    for (double m : {20000.0, 20040.0, 20020.0}) store->add(run_at("good0001", m));
    store->add(run_at("later", 22000));

    const auto slower = judge_against_good(*store, run_at("x", 22000), options_for("good0001"));
    BOOST_TEST_MESSAGE(slower.sentence);
    BOOST_TEST(slower.exit_code() == 1);
    BOOST_TEST(slower.sentence.find("slower by +9.") != std::string::npos);
    BOOST_TEST(slower.comparison->change > 0.09);

    const auto same = judge_against_good(*store, run_at("x", 20030), options_for("good"));  // a prefix names it
    BOOST_TEST_MESSAGE(same.sentence);
    BOOST_TEST(same.exit_code() == 0);

    const auto faster = judge_against_good(*store, run_at("x", 18000), options_for("good0001"));
    BOOST_TEST(faster.exit_code() == 0);

    // Another GPU: the good commit was never measured there.
    const auto elsewhere = judge_against_good(*store, run_at("x", 22000, "NVIDIA H200"), options_for("good0001"));
    BOOST_TEST_MESSAGE(elsewhere.sentence);
    BOOST_TEST(elsewhere.exit_code() == 125);
    BOOST_TEST(elsewhere.sentence.find("fingerprint differs") != std::string::npos);

    auto without_samples = run_at("x", 22000);
    without_samples.points[0].samples.clear();
    BOOST_TEST(judge_against_good(*store, without_samples, options_for("good0001")).exit_code() == 125);

    auto other_series = run_at("x", 22000);
    other_series.points[0].series = "spin 5us";
    BOOST_TEST(judge_against_good(*store, other_series, options_for("good0001")).exit_code() == 125);

    BOOST_CHECK_THROW(judge_against_good(*store, run_at("x", 1), options_for("f00")), HistoryError);
    auto unknown = options_for("good0001");
    unknown.series = "nothing";
    BOOST_CHECK_THROW(judge_against_good(*store, run_at("x", 1), unknown), HistoryError);
}

BOOST_AUTO_TEST_CASE(noise_between_processes_raises_the_threshold) {
    // Runs of the good commit's past that differ by 2% from process to process: a 2% slower fresh run is within
    // that noise, not a regression, though compare() alone would call it slower.
    history_test::TempFolder folder;
    auto store = open_store(history_test::fresh_database(history_test::Backend::sqlite, folder));
    const std::vector<double> noisy = {20000, 20400, 20000, 20400, 20000, 20400};
    for (std::size_t i = 0; i < noisy.size(); ++i) store->add(run_at("before" + std::to_string(i), noisy[i]));
    store->add(run_at("good0001", 20200));
    const auto r = judge_against_good(*store, run_at("x", 20600), options_for("good0001"));
    BOOST_TEST_MESSAGE(r.sentence);
    BOOST_TEST(r.threshold_used > 0.03);
    BOOST_TEST(r.exit_code() != 1);
    BOOST_TEST(judge_against_good(*store, run_at("x", 23000), options_for("good0001")).exit_code() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
