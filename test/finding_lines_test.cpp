// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a user sees of a finding on stderr: one short line for warnings and errors, nothing for info findings
// unless asked, and the whole text one call away (explain). No GPU: the findings are made from the catalog.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

// Internals the module does not export, reached through their headers.
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>

#include <gpuchrono/api.hpp>

namespace {

// The message a detector writes for host time inside an event interval: long, its figure in the first clause.
gpuchrono::Finding host_time_finding() {
    gpuchrono::Finding f = gpuchrono::make_finding(
        gpuchrono::codes::host_time_in_event_interval,
        "the start event was recorded on an idle stream and the host then spent 50.2 ms before recording the stop: "
        "72% of the 70.2 ms event interval is host time (host work before the first launch, or launches slower than "
        "the GPU ran them); lazy module loading is on, so the first launch of a kernel loads it on the host first "
        "(171-430 us on an H100)",
        {{"host_time_ns", 50.2e6}, {"interval_ns", 70.2e6}});
    f.where = "saxpy_test.cpp:42";
    return f;
}

// Everything written to stderr while `body` runs.
template <class Body>
std::string stderr_of(Body&& body) {
    std::fflush(stderr);
    char path[] = "/tmp/gpuchrono-stderr-XXXXXX";
    const int file = mkstemp(path);
    BOOST_REQUIRE(file >= 0);
    const int saved = dup(2);
    dup2(file, 2);
    body();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(file);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::remove(path);
    return text.str();
}

// Resets what the tests below change, whatever they asserted.
struct DefaultPrinting {
    DefaultPrinting() { reset(); }
    ~DefaultPrinting() { reset(); }
    static void reset() {
        gpuchrono::set_finding_sink({});
        gpuchrono::set_finding_print_level(gpuchrono::Severity::warning);
        gpuchrono::forget_reported_findings();
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(finding_lines)

BOOST_AUTO_TEST_CASE(a_long_finding_prints_as_one_short_line_with_its_figure_fix_and_place) {
    const std::string line = gpuchrono::to_short_string(host_time_finding());
    BOOST_TEST_MESSAGE(line);
    BOOST_TEST(line.size() <= 200u, line.size());
    BOOST_TEST(line.starts_with("warning [host-time-in-event-interval] the start event was recorded"), line);
    BOOST_TEST(line.find("50.2 ms") != std::string::npos, line);                      // the number that matters
    BOOST_TEST(line.find("; fix: start the timer right before the first launch") != std::string::npos, line);
    BOOST_TEST(line.ends_with(" (at saxpy_test.cpp:42)"), line);
    // The whole text is still the finding's.
    BOOST_TEST(gpuchrono::to_string(host_time_finding()).size() > 300u);
}

BOOST_AUTO_TEST_CASE(a_short_finding_prints_whole) {
    gpuchrono::Finding f = gpuchrono::make_finding(gpuchrono::codes::interval_below_event_floor,
                                                   "3.10 us is within 10x of the 1.41 us floor");
    const std::string line = gpuchrono::to_short_string(f);
    BOOST_TEST(line.starts_with("warning [interval-below-event-floor] 3.10 us is within 10x of the 1.41 us floor; fix: "),
               line);
    BOOST_TEST(line.size() <= 200u);
}

BOOST_AUTO_TEST_CASE(a_figure_in_a_later_clause_is_kept) {
    gpuchrono::Finding f = gpuchrono::make_finding(
        gpuchrono::codes::host_stop_with_pending_work,
        "stream had pending work when the host timer stopped: the 6.92 us measured exclude it; synchronize the "
        "stream or use EventPolicy");
    const std::string line = gpuchrono::to_short_string(f);
    BOOST_TEST(line.find("stopped: the 6.92 us measured exclude it; fix: synchronize the stream before the timer stops") !=
                   std::string::npos,
               line);
}

BOOST_AUTO_TEST_CASE(every_catalogued_code_fits_the_width_however_long_its_text) {
    for (const gpuchrono::FindingKind& kind : gpuchrono::finding_catalog()) {
        gpuchrono::Finding f = gpuchrono::make_finding(kind.code, std::string(kind.summary) + "; " + std::string(kind.summary));
        f.where = "a_rather_long_file_name_of_a_users_benchmark.cpp:1234";
        for (std::size_t width : {200u, 120u}) {
            const std::string line = gpuchrono::to_short_string(f, width);
            BOOST_TEST(line.size() <= width, kind.code << ": " << line);
            BOOST_TEST(line.find(std::string(kind.code)) != std::string::npos, line);
        }
    }
}

BOOST_FIXTURE_TEST_CASE(the_default_sink_prints_warnings_and_keeps_info_quiet, DefaultPrinting) {
    gpuchrono::ScopedFindingReaction report(gpuchrono::Reaction::report);
    gpuchrono::Measurement m = gpuchrono::Measurement::completed("event", gpuchrono::Duration::from_ns(1000), 0);
    gpuchrono::Findings info{gpuchrono::make_finding(gpuchrono::codes::gpu_idle_before, "idle 312 us before")};
    gpuchrono::Findings warning{host_time_finding()};
    const std::string quiet = stderr_of([&] { gpuchrono::handle_findings(m, info, gpuchrono::CallSite::at()); });
    BOOST_TEST(quiet.empty(), quiet);
    BOOST_TEST(m.findings().size() == 1u);  // kept with the measurement all the same
    const std::string printed = stderr_of([&] { gpuchrono::handle_findings(m, warning, gpuchrono::CallSite::at()); });
    BOOST_TEST(printed.starts_with("gpuchrono: warning [host-time-in-event-interval] "), printed);
    BOOST_TEST(printed.size() <= std::string("gpuchrono: \n").size() + 200u, printed);
    BOOST_TEST(printed.find('\n') == printed.size() - 1, printed);  // one line
}

BOOST_FIXTURE_TEST_CASE(info_findings_print_when_asked, DefaultPrinting) {
    gpuchrono::ScopedFindingReaction report(gpuchrono::Reaction::report);
    gpuchrono::set_finding_print_level(gpuchrono::Severity::info);
    BOOST_TEST((gpuchrono::finding_print_level() == gpuchrono::Severity::info));
    gpuchrono::Measurement m = gpuchrono::Measurement::completed("event", gpuchrono::Duration::from_ns(1000), 0);
    gpuchrono::Findings info{gpuchrono::make_finding(gpuchrono::codes::gpu_idle_before, "idle 312 us before")};
    const std::string printed = stderr_of([&] { gpuchrono::handle_findings(m, info, gpuchrono::CallSite::at()); });
    BOOST_TEST(printed.starts_with("gpuchrono: info [gpu-idle-before] idle 312 us before"), printed);
}

BOOST_FIXTURE_TEST_CASE(a_users_sink_gets_every_finding, DefaultPrinting) {
    gpuchrono::ScopedFindingReaction report(gpuchrono::Reaction::report);
    std::vector<std::string> seen;
    gpuchrono::set_finding_sink([&](const gpuchrono::Finding& f) { seen.push_back(f.code); });
    gpuchrono::Measurement m = gpuchrono::Measurement::completed("event", gpuchrono::Duration::from_ns(1000), 0);
    gpuchrono::Findings found{gpuchrono::make_finding(gpuchrono::codes::gpu_idle_before, "idle 312 us before"),
                              host_time_finding()};
    gpuchrono::handle_findings(m, found, gpuchrono::CallSite::at());
    BOOST_TEST(seen.size() == 2u);
}

BOOST_AUTO_TEST_CASE(explain_gives_the_whole_text_of_a_code) {
    const std::string text = gpuchrono::explain("host-stop-with-pending-work");
    BOOST_TEST_MESSAGE(text);
    BOOST_TEST(text.starts_with("host-stop-with-pending-work (warning; pitfall #1 of docs/pitfalls-catalog.md): "), text);
    BOOST_TEST(text.find("Fix: synchronize the stream before the timer stops") != std::string::npos, text);
    BOOST_CHECK_EXCEPTION((void)gpuchrono::explain("no-such-code"), std::invalid_argument, [](const std::invalid_argument& e) {
        const std::string what = e.what();
        return what.find("\"no-such-code\" is not a finding code") != std::string::npos &&
               what.find("host-stop-with-pending-work") != std::string::npos;
    });
}

BOOST_AUTO_TEST_SUITE_END()
