// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// write_report: one call from series to report files, without a GPU for series made by hand, and the
// series-level findings reported once, at the caller's line, however often the series is summarised.
#include <boost/test/unit_test.hpp>

#include "recording_sink.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include <gpuchrono/api.hpp>

namespace {

namespace fs = std::filesystem;
using gpuchrono::Duration;
using gpuchrono::Measurement;

// A fresh folder per test case, removed afterwards.
struct Folder {
    fs::path path = fs::temp_directory_path() /
                    ("gpuchrono-write-report-" + std::to_string(::getpid()) + "-" + std::to_string(++count()));
    Folder() { fs::remove_all(path); }
    ~Folder() { fs::remove_all(path); }
    static int& count() {
        static int n = 0;
        return n;
    }
};

std::string read(const fs::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Twelve host-clock samples of 100..111 us: enough samples, small spread, no finding at the series level.
void fill(gpuchrono::Series& s, double first_us) {
    for (int i = 0; i < 12; ++i) s.add(Measurement::completed("host-clock", Duration::from_us(first_us + i * 0.1), -1));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(write_report)

BOOST_AUTO_TEST_CASE(a_series_set_made_without_a_gpu_becomes_report_files) {
    gpuchrono::ScopedFindingReaction collect(gpuchrono::Reaction::collect);
    gpuchrono::SeriesSet set;
    fill(set["saxpy"], 100);
    fill(set["copy"], 50);
    Folder out;
    const auto written = gpuchrono::write_report(set, out.path);
    BOOST_TEST(written.size() >= 3u);
    for (const auto& f : written) BOOST_TEST(fs::is_regular_file(f.path), f.path);
    BOOST_TEST(fs::is_regular_file(out.path / "report.json"));
    BOOST_TEST(fs::is_regular_file(out.path / "report.txt"));

    const gpuchrono::report::Report back = gpuchrono::report::load_report(out.path / "report.json");
    BOOST_TEST(back.device.name == "no device");
    BOOST_REQUIRE(back.experiments.size() == 1u);
    BOOST_REQUIRE(back.experiments[0].series.size() == 2u);
    BOOST_TEST(back.experiments[0].series[0].name == "copy");  // name order
    BOOST_TEST(back.experiments[0].series[1].name == "saxpy");
    BOOST_TEST(back.experiments[0].series[1].samples.size() == 12u);
    BOOST_TEST(back.experiments[0].series[1].stats.min.us() == 100.0);
    BOOST_TEST(read(out.path / "report.txt").find("no device") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_series_becomes_report_files) {
    gpuchrono::ScopedFindingReaction collect(gpuchrono::Reaction::collect);
    gpuchrono::Series s("alone");
    fill(s, 10);
    Folder out;
    (void)gpuchrono::write_report(s, out.path);
    const gpuchrono::report::Report back = gpuchrono::report::load_report(out.path / "report.json");
    BOOST_REQUIRE(back.experiments.size() == 1u);
    BOOST_REQUIRE(back.experiments[0].series.size() == 1u);
    BOOST_TEST(back.experiments[0].series[0].name == "alone");
    BOOST_TEST(back.experiments[0].series[0].samples.size() == 12u);
}

BOOST_AUTO_TEST_CASE(series_findings_are_reported_once_at_the_callers_line) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction report(gpuchrono::Reaction::report);
    gpuchrono::Series s("three");  // three samples: too few
    for (double us : {100.0, 100.0, 100.0}) s.add(Measurement::completed("host-clock", Duration::from_us(us), -1));
    Folder out;
    const int line = __LINE__ + 1;
    (void)gpuchrono::write_report(s, out.path);
    BOOST_REQUIRE(sink.got.size() == 1u);
    BOOST_TEST(sink.got[0].code == "too-few-samples");
    BOOST_TEST(sink.got[0].where == "write_report_test.cpp:" + std::to_string(line));

    // The user's summary() of the same series, then a second report: nothing is reported again.
    (void)gpuchrono::summary(s);
    (void)gpuchrono::write_report(s, out.path);
    BOOST_TEST(sink.got.size() == 1u);

    // Another series with the same finding is news.
    gpuchrono::Series other("two");
    for (double us : {100.0, 100.0}) other.add(Measurement::completed("host-clock", Duration::from_us(us), -1));
    (void)gpuchrono::summary(other);
    BOOST_TEST(sink.got.size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
