// The performance checks for unit tests (testing/) on synthetic series: when they pass and fail, and the
// exact messages a user reads, so neither the wording nor the numbers in them can drift unnoticed. The
// Boost.Test macros are checked too: a failing check must fail the test case (expected_failures).
#include <boost/test/unit_test.hpp>

#include <gpuchrono/boost_test.hpp>
#include <gpuchrono/checks/finding_catalog.hpp>  // make_finding (internal, not exported)

#include <string>

import gpuchrono;

namespace {

namespace bt = boost::unit_test;
using gpuchrono::Duration;
using gpuchrono::Finding;
using gpuchrono::Measurement;
using gpuchrono::Series;

// `n` event measurements of 100 us each (a constant series: no variation, no cold first sample).
Series steady(const std::string& name, int n = 12) {
    Series s(name);
    for (int i = 0; i < n; ++i) s.add(Measurement::completed("event", Duration::from_us(100), 0));
    return s;
}

Finding at(Finding f, const std::string& where) {
    f.where = where;
    return f;
}

// The series a host timer stopped with work pending, in 3 of its 12 measurements.
Series with_pending_work() {
    Series s("saxpy");
    for (int i = 0; i < 12; ++i) {
        Measurement m = Measurement::completed("host-clock", Duration::from_us(7.86), 0);
        if (i < 3)
            m.add_finding(at(gpuchrono::make_finding(gpuchrono::codes::host_stop_with_pending_work,
                                                     "stream had pending work when the host timer stopped: the 7.86 us "
                                                     "measured exclude it",
                                                     {{"measured_ns", 7860.0}}),
                             "saxpy_test.cpp:42"));
        s.add(m);
    }
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(testing_checks)

BOOST_AUTO_TEST_CASE(no_findings_passes_on_a_clean_series_and_says_so) {
    const gpuchrono::CheckResult r = gpuchrono::check_no_findings(steady("clean"));
    BOOST_TEST(r.passed);
    BOOST_TEST(static_cast<bool>(r));
    BOOST_TEST(r.message == "series \"clean\" (12 measurements): no warning-level finding");
}

BOOST_AUTO_TEST_CASE(no_findings_fails_listing_each_finding_with_its_numbers_fix_and_place) {
    const gpuchrono::CheckResult r = gpuchrono::check_no_findings(with_pending_work());
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message ==
               "series \"saxpy\" (12 measurements): 1 warning-level finding:\n"
               "  warning [host-stop-with-pending-work] stream had pending work when the host timer stopped: the "
               "7.86 us measured exclude it (3 of 12 measurements). Fix: synchronize the stream before the timer "
               "stops, or time GPU work with EventPolicy or HostSyncPolicy (at saxpy_test.cpp:42)");
}

BOOST_AUTO_TEST_CASE(no_findings_lists_info_findings_without_failing) {
    Series s = steady("legacy");
    Measurement m = Measurement::completed("event", Duration::from_us(100), 0);
    m.add_finding(at(gpuchrono::make_finding(gpuchrono::codes::legacy_default_stream, "the timed stream is stream 0"), "a.cpp:7"));
    s.add(m);
    const gpuchrono::CheckResult r = gpuchrono::check_no_findings(s);
    BOOST_TEST(r.passed);
    BOOST_TEST(r.message ==
               "series \"legacy\" (13 measurements): no warning-level finding; info:\n"
               "  info [legacy-default-stream] the timed stream is stream 0 (1 of 13 measurements). Fix: time on a "
               "stream created with cudaStreamNonBlocking, or on cudaStreamPerThread (a stream 0 means the legacy "
               "stream to the library even in code built with --default-stream per-thread: pass "
               "GPUCHRONO_DEFAULT_STREAM there) (at a.cpp:7)");
}

BOOST_AUTO_TEST_CASE(no_findings_fails_on_what_only_the_whole_series_shows) {
    const gpuchrono::CheckResult r = gpuchrono::check_no_findings(steady("short", 3));
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message.find("series \"short\" (3 measurements): 1 warning-level finding:\n  warning [too-few-samples]") == 0u,
               r.message);
}

BOOST_AUTO_TEST_CASE(no_findings_fails_on_failed_and_on_missing_measurements) {
    Series s = steady("flaky");
    s.add(Measurement::failure("event", "cudaEventRecord: an illegal memory access was encountered", 0));
    gpuchrono::CheckResult r = gpuchrono::check_no_findings(s);
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message ==
               "series \"flaky\" (13 measurements): 1 measurement failed (the first: cudaEventRecord: an illegal "
               "memory access was encountered); 0 warning-level findings");
    r = gpuchrono::check_no_findings(Series("never ran"));
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message == "series \"never ran\" (0 measurements): no measurements to check");
}

BOOST_AUTO_TEST_CASE(finding_passes_quoting_the_finding_and_fails_listing_the_others) {
    gpuchrono::CheckResult r = gpuchrono::check_finding(with_pending_work(), gpuchrono::codes::host_stop_with_pending_work);
    BOOST_TEST(r.passed);
    BOOST_TEST(r.message.find("series \"saxpy\" (12 measurements): found\n  warning [host-stop-with-pending-work] ") == 0u,
               r.message);

    r = gpuchrono::check_finding(with_pending_work(), gpuchrono::codes::timed_stream_idle);
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message.find("series \"saxpy\" (12 measurements): no timed-stream-idle finding; its findings:\n"
                              "  warning [host-stop-with-pending-work] ") == 0u,
               r.message);

    r = gpuchrono::check_finding(steady("clean"), gpuchrono::codes::timed_stream_idle);
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message == "series \"clean\" (12 measurements): no timed-stream-idle finding; it has no findings");
}

BOOST_AUTO_TEST_CASE(finding_refuses_a_code_that_does_not_exist) {
    const gpuchrono::CheckResult r = gpuchrono::check_finding(with_pending_work(), "host-stop-with-pending-wrok");
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message == "\"host-stop-with-pending-wrok\" is not a finding code (finding_catalog() lists them all)");
}

BOOST_AUTO_TEST_CASE(the_checks_themselves_neither_print_nor_throw_the_series_findings) {
    gpuchrono::ScopedFindingReaction strict(gpuchrono::Reaction::throw_error);
    BOOST_CHECK_NO_THROW(gpuchrono::check_no_findings(steady("short", 3)));
}

// The Boost.Test macros: passing checks pass...
BOOST_AUTO_TEST_CASE(boost_macros_pass_on_passing_checks) {
    const Series clean = steady("clean");
    GPUCHRONO_CHECK_NO_FINDINGS(clean);
    GPUCHRONO_REQUIRE_NO_FINDINGS(clean);
    GPUCHRONO_WARN_NO_FINDINGS(clean);
    const Series pending = with_pending_work();
    GPUCHRONO_CHECK_FINDING(pending, gpuchrono::codes::host_stop_with_pending_work);
    GPUCHRONO_REQUIRE_FINDING(pending, gpuchrono::codes::host_stop_with_pending_work);
    GPUCHRONO_WARN_FINDING(pending, gpuchrono::codes::host_stop_with_pending_work);
}

// ...and failing CHECKs fail the test case and go on (two failures expected, each counted). A failing REQUIRE
// is not tested here: Boost.Test marks its test case aborted, which expected_failures does not excuse.
BOOST_AUTO_TEST_CASE(boost_check_macros_fail_the_test_case, *bt::expected_failures(2)) {
    const Series pending = with_pending_work();
    GPUCHRONO_CHECK_NO_FINDINGS(pending);
    GPUCHRONO_CHECK_FINDING(pending, gpuchrono::codes::timed_stream_idle);
    GPUCHRONO_WARN_NO_FINDINGS(pending);  // a warning: not a failure
}

BOOST_AUTO_TEST_SUITE_END()
