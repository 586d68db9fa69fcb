// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Ingestion: every format the history reads gives the runs its file holds, in nanoseconds, and a malformed or
// truncated file is refused with its name and the field, before anything is written.
#include <boost/test/unit_test.hpp>

#include "history_databases.hpp"

#include "history/export.hpp"
#include "history/ingest.hpp"
#include "history/store.hpp"
#include <gpuchrono/job/job_merge.hpp>
#include <gpuchrono/report/json/report_json.hpp>

#include "distributed/synthetic_job.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace gpuchrono;
using namespace gpuchrono::history;

namespace {

const std::filesystem::path data = std::filesystem::path(GPUCHRONO_SOURCE_DIR) / "test" / "data" / "history";

std::filesystem::path write_report(const std::filesystem::path& folder) {
    auto r = report::new_report();
    r.created_utc = "2026-11-27T18:00:00Z";
    r.device.name = "NVIDIA H100 80GB HBM3";
    r.device.sm_count = 132;
    r.device.compute_major = 9;
    r.device.driver_version = 13000;
    r.device.runtime_version = 13000;
    r.device.sm_clock_nominal_mhz = 1980;
    report::Experiment e;
    e.id = "measurements";
    e.title = "Measurements";
    std::vector<Duration> samples;
    for (double ns : {20400.0, 20432.0, 20464.0, 20400.0, 20496.0}) samples.push_back(Duration::from_ns(ns));
    auto s = report::make_series("spin 20us", "kernel", samples);
    report::MeasureSummary m;
    m.method = "kernel";
    m.cache_state = "warm";
    m.ci_low_ns = 20400;
    m.ci_high_ns = 20464;
    s.measure = m;
    e.series.push_back(s);
    r.experiments.push_back(e);
    const auto file = folder / "report.json";
    report::save_report(r, file);
    return file;
}

std::string text_of(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const std::filesystem::path& file, const std::string& text) { std::ofstream(file) << text; }

}  // namespace

BOOST_AUTO_TEST_SUITE(history_ingest)

BOOST_AUTO_TEST_CASE(gpuchrono_report) {
    history_test::TempFolder folder;
    const auto run = read_run(write_report(folder.path()), {"c01", "main"});
    BOOST_TEST(run.commit.hash == "c01");
    BOOST_TEST(run.commit.branch == "main");
    BOOST_TEST(run.source_format == "gpuchrono-report");
    BOOST_TEST_REQUIRE(run.points.size() == 1u);
    const auto& p = run.points[0];
    BOOST_TEST(p.experiment == "measurements");
    BOOST_TEST(p.series == "spin 20us");
    BOOST_TEST(p.median == 20432.0);
    BOOST_TEST(*p.ci_low == 20400.0);
    BOOST_TEST(p.n == 5u);
    BOOST_TEST(p.cache_state == "warm");
    BOOST_TEST(p.samples.size() == 5u);
    BOOST_TEST(*run.fingerprint.gpu_name == "NVIDIA H100 80GB HBM3");
    BOOST_TEST(*run.fingerprint.compute_capability == "9.0");
    BOOST_TEST(*run.fingerprint.driver == "13.0");
    // Not in the report: absent, never invented.
    BOOST_TEST(!run.fingerprint.power_limit_w.has_value());
    BOOST_TEST(!run.fingerprint.ecc.has_value());
    BOOST_TEST(!run.fingerprint.gpu_uuid.has_value());
}

BOOST_AUTO_TEST_CASE(pytest_benchmark_json) {
    const auto run = read_run(data / "pytest-benchmark.json");
    BOOST_TEST(run.source_format == "pytest-benchmark");
    // The commit pytest-benchmark wrote, when none is given.
    BOOST_TEST(run.commit.hash == "5f0c2b1d9e8a7c6b5a4f3e2d1c0b9a8f7e6d5c4b");
    BOOST_TEST(run.commit.branch == "main");
    BOOST_TEST(*run.fingerprint.host_cpu == "AMD EPYC 7763 64-Core Processor");
    BOOST_TEST(!run.fingerprint.gpu_name.has_value());
    BOOST_TEST_REQUIRE(run.points.size() == 2u);
    BOOST_TEST(run.points[0].experiment == "kernels");
    BOOST_TEST(run.points[0].series == "tests/test_kernels.py::test_saxpy[1M]");
    BOOST_TEST(run.points[0].median == 42500.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(run.points[0].samples.size() == 5u);
    BOOST_TEST(run.points[1].experiment == "pytest-benchmark");
    BOOST_TEST(run.points[1].n == 7u);
}

BOOST_AUTO_TEST_CASE(google_benchmark_json) {
    const auto run = read_run(data / "google-benchmark.json", {"c02", ""});
    BOOST_TEST(run.source_format == "google-benchmark");
    BOOST_TEST(*run.fingerprint.build_type == "release");
    BOOST_TEST_REQUIRE(run.points.size() == 2u);
    BOOST_TEST(run.points[0].experiment == "kernels_bench");
    BOOST_TEST(run.points[0].series == "BM_Scale/1024");
    BOOST_TEST(run.points[0].median == 5200.0, boost::test_tools::tolerance(1e-9));  // the median aggregate, us -> ns
    BOOST_TEST(run.points[0].n == 3u);
    BOOST_TEST(run.points[1].median == 350123.0);
}

BOOST_AUTO_TEST_CASE(merged_job) {
    history_test::TempFolder folder;
    synthetic::JobShape shape;
    shape.activities_per_rank = 100;
    std::vector<std::filesystem::path> ranks;
    for (int r = 0; r < shape.world_size; ++r) {
        ranks.push_back(folder.path() / ("rank" + std::to_string(r) + ".json"));
        report::save_report(synthetic::rank_report(shape, r, {}), ranks.back());
    }
    const auto file = folder.path() / "job.json";
    distributed::save_job(distributed::merge_rank_reports(ranks), file);
    const auto run = read_run(file, {"c03", ""});
    BOOST_TEST(run.source_format == "gpuchrono-job");
    BOOST_TEST_REQUIRE(!run.points.empty());
    for (const auto& p : run.points) {
        BOOST_TEST(p.experiment == "job");
        BOOST_TEST(std::isfinite(p.median));
        BOOST_TEST_MESSAGE(p.series << ": " << p.median << " ns");
    }
    const auto named = [&](const std::string& name) {
        return std::any_of(run.points.begin(), run.points.end(), [&](const PointRecord& p) { return p.series == name; });
    };
    BOOST_TEST(named("rank 0 compute"));
    BOOST_TEST(named("rank 3 communication"));
}

BOOST_AUTO_TEST_CASE(truncated_report_refused) {
    history_test::TempFolder folder;
    const auto file = write_report(folder.path());
    const std::string text = text_of(file);
    write_text(file, text.substr(0, text.size() / 2));
    BOOST_CHECK_EXCEPTION(read_run(file, {"c01", ""}), HistoryError, [&](const HistoryError& e) {
        const std::string m = e.what();
        BOOST_TEST_MESSAGE(m);
        return m.find(file.string()) == 0 && m.find("truncated") != std::string::npos;
    });
}

BOOST_AUTO_TEST_CASE(malformed_field_refused) {
    history_test::TempFolder folder;
    const auto file = write_report(folder.path());
    std::string text = text_of(file);
    const auto at = text.find("\"count\": 5");
    BOOST_TEST_REQUIRE(at != std::string::npos);
    text.replace(at, 10, "\"count\": \"five\"");
    write_text(file, text);
    BOOST_CHECK_EXCEPTION(read_run(file, {"c01", ""}), HistoryError, [&](const HistoryError& e) {
        const std::string m = e.what();
        BOOST_TEST_MESSAGE(m);
        return m.find(file.string()) == 0 && m.find("experiments[0].series[0].stats.count") != std::string::npos;
    });
    // The pytest-benchmark reader names its fields too.
    std::string py = text_of(data / "pytest-benchmark.json");
    const auto median = py.find("\"median\": 4.25e-05");
    BOOST_TEST_REQUIRE(median != std::string::npos);
    py.replace(median, 18, "\"median\": \"fast\"");
    const auto bad = folder.path() / "bad-pytest.json";
    write_text(bad, py);
    BOOST_CHECK_EXCEPTION(read_run(bad), HistoryError, [&](const HistoryError& e) {
        const std::string m = e.what();
        BOOST_TEST_MESSAGE(m);
        return m.find(bad.string()) == 0 && m.find("benchmarks[0].stats.median") != std::string::npos;
    });
}

BOOST_AUTO_TEST_CASE(no_commit_outside_git) {
    history_test::TempFolder folder;
    const auto file = write_report(folder.path());
    BOOST_CHECK_EXCEPTION(read_run(file), HistoryError, [&](const HistoryError& e) {
        return std::string(e.what()).find("--commit") != std::string::npos;
    });
}

BOOST_AUTO_TEST_CASE(commit_from_the_repository) {
    // The reports of a folder inside a git repository are filed under its HEAD, with the graph's position.
    history_test::TempFolder folder;
    const auto repo = folder.path();
    const std::string git = "git -C '" + repo.string() + "' -c user.name=t -c user.email=t@t ";
    BOOST_TEST_REQUIRE(std::system((git + "init -q -b trunk").c_str()) == 0);
    BOOST_TEST_REQUIRE(std::system((git + "commit -q --allow-empty -m first").c_str()) == 0);
    BOOST_TEST_REQUIRE(std::system((git + "commit -q --allow-empty -m 'the second'").c_str()) == 0);
    std::filesystem::create_directories(repo / "out");
    const auto run = read_run(write_report(repo / "out"));
    BOOST_TEST(run.commit.hash.size() == 40u);
    BOOST_TEST(run.commit.subject == "the second");
    BOOST_TEST(run.commit.branch == "trunk");
    BOOST_TEST(run.commit.graph_position.value_or(-1) == 2);
    BOOST_TEST(!run.commit.author_time.empty());
    // An older commit given with --commit: HEAD's branch is not its branch, so none is recorded.
    const auto older = read_run(repo / "out" / "report.json", {"HEAD~1", ""});
    BOOST_TEST(older.commit.subject == "first");
    BOOST_TEST(older.commit.branch.empty());
    BOOST_TEST(older.commit.graph_position.value_or(-1) == 1);
    // HEAD given by its hash is still HEAD: its branch is known.
    BOOST_TEST(read_run(repo / "out" / "report.json", {run.commit.hash, ""}).commit.branch == "trunk");
    BOOST_TEST(read_run(repo / "out" / "report.json", {run.commit.hash, "release"}).commit.branch == "release");
}

BOOST_AUTO_TEST_CASE(asv_results) {
    // asv's own file: Python's -Infinity where asv had too few runs for a CI, a parameter combination that failed
    // (null), a memory benchmark in bytes.
    const auto folder = data / "asv-results";
    const auto files = report_files(folder);
    BOOST_TEST_REQUIRE(files.size() == 1u);  // machine.json is not a result
    const auto run = read_run(files[0]);
    BOOST_TEST(run.source_format == "asv");
    BOOST_TEST(run.commit.hash == "9c1e4b7a2d3f5e6a7b8c9d0e1f2a3b4c5d6e7f80");
    BOOST_TEST(run.run_time == "2026-11-27T12:00:00Z");
    BOOST_TEST(*run.fingerprint.host_cpu == "AMD EPYC 9454 48-Core Processor");
    BOOST_TEST_REQUIRE(run.points.size() == 5u);
    const auto& small = run.points[0];
    BOOST_TEST(small.experiment == "asv");
    BOOST_TEST(small.series == "bench_kernels.Saxpy.time_saxpy(1048576)");
    BOOST_TEST(small.unit == "ns");
    BOOST_TEST(small.median == 20500.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(*small.ci_low == 20000.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(*small.ci_high == 21000.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(small.n == 5u);
    BOOST_TEST(small.samples.size() == 5u);
    BOOST_TEST(run.points[1].series == "bench_kernels.Saxpy.time_saxpy(4194304)");
    BOOST_TEST(run.points[1].median == 81000.0, boost::test_tools::tolerance(1e-9));
    const auto& sum = run.points[2];  // the 16 Mi combination failed: not kept
    BOOST_TEST(sum.series == "bench_kernels.Reduce.time_sum");
    BOOST_TEST(!sum.ci_low.has_value());  // asv's infinite CI is no CI
    BOOST_TEST(sum.n == 2u);
    BOOST_TEST(run.points[4].series == "bench_kernels.Memory.peakmem_buffers('float64')");
    BOOST_TEST(run.points[4].unit == "bytes");
    BOOST_TEST(run.points[4].median == 1610612736.0);
}

BOOST_AUTO_TEST_CASE(asv_results_malformed) {
    history_test::TempFolder folder;
    std::string text = text_of(data / "asv-results" / "h100-runner" / "9c1e4b7a-virtualenv-py3.12-cupy.json");
    const auto at = text.find("[[805306368.0, 1610612736.0]");
    BOOST_TEST_REQUIRE(at != std::string::npos);
    text.replace(at, 28, "[[805306368.0]");  // one value for two parameter combinations
    write_text(folder.path() / "result.json", text);
    BOOST_CHECK_EXCEPTION(read_run(folder.path() / "result.json"), HistoryError, [](const HistoryError& e) {
        const std::string m = e.what();
        BOOST_TEST_MESSAGE(m);
        return m.find("result.json") != std::string::npos &&
               m.find("bench_kernels.Memory.peakmem_buffers[result]") != std::string::npos &&
               m.find("2 parameter combinations") != std::string::npos;
    });
}

BOOST_AUTO_TEST_CASE(exports_read_back) {
    // What export writes for pytest-benchmark and asv is read back by add as those tools' files.
    history_test::TempFolder folder;
    auto store = open_store((folder.path() / "h.db").string());
    auto run = read_run(write_report(folder.path()), {"c0ffee", "main"});
    store->add(run);
    write_text(folder.path() / "pytest.json", export_pytest_benchmark(*store));
    const auto pytest = read_run(folder.path() / "pytest.json");
    BOOST_TEST(pytest.source_format == "pytest-benchmark");
    BOOST_TEST(pytest.commit.hash == "c0ffee");
    BOOST_TEST(pytest.commit.branch == "main");
    BOOST_TEST_REQUIRE(pytest.points.size() == 1u);
    BOOST_TEST(pytest.points[0].experiment == "measurements");
    BOOST_TEST(pytest.points[0].series == "spin 20us");
    BOOST_TEST(pytest.points[0].median == 20432.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(pytest.points[0].n == 5u);
    BOOST_TEST(pytest.points[0].samples.size() == 5u);

    std::filesystem::create_directories(folder.path() / "asv" / "box");
    write_text(folder.path() / "asv" / "box" / "machine.json", "{}");
    write_text(folder.path() / "asv" / "box" / "c0ffee-gpuchrono.json", export_asv(*store, "c0f"));
    const auto asv = read_run(report_files(folder.path() / "asv").at(0));
    BOOST_TEST(asv.source_format == "asv");
    BOOST_TEST(asv.commit.hash == "c0ffee");
    BOOST_TEST_REQUIRE(asv.points.size() == 1u);
    BOOST_TEST(asv.points[0].series == "measurements.spin 20us");
    BOOST_TEST(asv.points[0].median == 20432e-9, boost::test_tools::tolerance(1e-9));  // seconds, as asv keeps them
    BOOST_TEST(*asv.points[0].ci_high == 20464e-9, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(asv.points[0].samples.size() == 5u);
    BOOST_CHECK_THROW(export_asv(*store, "deadbeef"), HistoryError);
}

BOOST_AUTO_TEST_CASE(folder_of_reports) {
    history_test::TempFolder folder;
    std::filesystem::create_directories(folder.path() / "a");
    std::filesystem::create_directories(folder.path() / "b");
    write_report(folder.path() / "a");
    write_report(folder.path() / "b");
    write_text(folder.path() / "a" / "trace.json", "{}");  // not a report: left alone
    const auto files = report_files(folder.path());
    BOOST_TEST_REQUIRE(files.size() == 2u);
    BOOST_TEST(files[0] == folder.path() / "a" / "report.json");
    std::filesystem::create_directories(folder.path() / "empty");
    BOOST_CHECK_THROW(report_files(folder.path() / "empty"), HistoryError);
}

BOOST_AUTO_TEST_SUITE_END()
