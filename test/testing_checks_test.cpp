// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The performance checks for unit tests (testing/) on synthetic series: when they pass and fail, and the
// exact messages a user reads, so neither the wording nor the numbers in them can drift unnoticed. The
// Boost.Test macros are checked too: a failing check must fail the test case (expected_failures).
#include <boost/test/unit_test.hpp>

#include <gpuchrono/boost_test.hpp>
#include <gpuchrono/core/finding_catalog.hpp>  // make_finding (internal, not exported)

#include <fstream>
#include <iterator>
#include <string>

#include <gpuchrono/api.hpp>

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

namespace {

// 20 event measurements of start, start + step, ... us: a steady series with a little spread.
Series ramp(const std::string& name, double start_us, double step_us = 0.1, int n = 20) {
    Series s(name);
    for (int i = 0; i < n; ++i) s.add(Measurement::completed("event", Duration::from_us(start_us + step_us * i), 0));
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(testing_comparison_checks)

BOOST_AUTO_TEST_CASE(not_slower_fails_on_a_ten_percent_slower_candidate_with_the_verdict_and_its_figures) {
    const gpuchrono::CheckResult r = gpuchrono::check_not_slower(ramp("spin 100 us", 100), ramp("spin 110 us", 110));
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message ==
               "\"spin 110 us\" is slower than \"spin 100 us\": slower by +9.91% [+9.49%, +10.33%] at 95%, p = "
               "1.45e-11: significant and at least 1%; medians 101 us and 111 us (20 and 20 samples)");
}

BOOST_AUTO_TEST_CASE(not_slower_passes_on_a_series_against_itself) {
    const gpuchrono::CheckResult r = gpuchrono::check_not_slower(ramp("A", 100), ramp("A again", 100));
    BOOST_TEST(r.passed);
    BOOST_TEST(r.message ==
               "\"A again\" is not slower than \"A\": no difference larger than 1%: +0.00% [-0.40%, +0.40%] at "
               "95%, p = 1; medians 101 us and 101 us (20 and 20 samples)");
}

BOOST_AUTO_TEST_CASE(not_slower_passes_when_the_samples_cannot_tell) {
    // Three samples each: too few for the interval, so the verdict is inconclusive, not "slower".
    const gpuchrono::CheckResult r = gpuchrono::check_not_slower(ramp("few", 100, 0.1, 3), ramp("few, later", 110, 0.1, 3));
    BOOST_TEST(r.passed);
    BOOST_TEST(r.message ==
               "\"few, later\" is not slower than \"few\": inconclusive: +9.99% [-100.00%, +inf%] at 95%, p = 0.1 "
               "(too few samples for the interval): the interval reaches past 1% without a significant change of 1% "
               "or more; medians 100 us and 110 us (3 and 3 samples)");
}

BOOST_AUTO_TEST_CASE(faster_passes_only_on_the_verdict_faster) {
    gpuchrono::CheckResult r = gpuchrono::check_faster(ramp("chunked", 110), ramp("interleaved", 100));
    BOOST_TEST(r.passed);
    BOOST_TEST(r.message ==
               "\"interleaved\" is faster than \"chunked\": faster by -9.01% [-9.36%, -8.66%] at 95%, p = "
               "1.45e-11: significant and at least 1%; medians 111 us and 101 us (20 and 20 samples)");
    r = gpuchrono::check_faster(ramp("A", 100), ramp("A again", 100));
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message ==
               "\"A again\" is not shown faster than \"A\": no difference larger than 1%: +0.00% [-0.40%, +0.40%] "
               "at 95%, p = 1; medians 101 us and 101 us (20 and 20 samples)");
}

BOOST_AUTO_TEST_CASE(the_threshold_comes_from_the_options) {
    // 10% slower is below a 20% threshold: not "slower".
    gpuchrono::CompareOptions lenient;
    lenient.threshold = 0.2;
    BOOST_TEST(gpuchrono::check_not_slower(ramp("base", 100), ramp("candidate", 110), lenient).passed);
}

BOOST_AUTO_TEST_CASE(series_compare_refuses_fail_with_its_reason) {
    Series host("host timed");
    for (int i = 0; i < 20; ++i) host.add(Measurement::completed("host-clock", Duration::from_us(100), -1));
    const gpuchrono::CheckResult r = gpuchrono::check_not_slower(ramp("event timed", 100), host);
    BOOST_TEST(!r.passed);
    BOOST_TEST(r.message ==
               "cannot compare \"host timed\" with \"event timed\": gpuchrono::compare refused: the series were "
               "measured with different methods (event vs host-clock): each method adds its own overhead (an event "
               "pair adds microseconds a graph replay does not); set CompareOptions::allow_different_methods to "
               "compare them anyway");
    const gpuchrono::CheckResult empty = gpuchrono::check_faster(ramp("A", 100), Series("never ran"));
    BOOST_TEST(!empty.passed);
    BOOST_TEST(empty.message ==
               "cannot compare \"never ran\" with \"A\": \"never ran\" has no successful measurement");
}

BOOST_AUTO_TEST_CASE(boost_comparison_macros_pass_and_fail, *bt::expected_failures(2)) {
    const Series base = ramp("base", 100), same = ramp("same", 100), slower = ramp("slower", 110), faster = ramp("faster", 90);
    GPUCHRONO_CHECK_NOT_SLOWER(base, same);
    GPUCHRONO_REQUIRE_NOT_SLOWER(base, faster);
    GPUCHRONO_CHECK_FASTER(base, faster);
    GPUCHRONO_REQUIRE_FASTER(base, faster, {.threshold = 0.05});
    GPUCHRONO_WARN_FASTER(base, same);
    GPUCHRONO_CHECK_NOT_SLOWER(base, slower);  // fails: expected
    GPUCHRONO_CHECK_FASTER(base, same);        // fails: expected
}

BOOST_AUTO_TEST_SUITE_END()

// README.md's "Testing performance" section shows what failing checks print: the very messages of these
// series, so the README cannot drift from the library.
BOOST_AUTO_TEST_SUITE(testing_checks_readme)

BOOST_AUTO_TEST_CASE(the_readme_shows_the_messages_the_checks_print) {
    std::ifstream in(GPUCHRONO_TEST_README);
    BOOST_REQUIRE_MESSAGE(in, "cannot read " GPUCHRONO_TEST_README);
    const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const gpuchrono::CheckResult slower = gpuchrono::check_not_slower(ramp("spin 100 us", 100), ramp("spin 110 us", 110));
    BOOST_TEST(!slower.passed);
    BOOST_TEST(readme.find(": error: in \"spin/not_slower\": " + slower.message + "\n") != std::string::npos,
               "README.md does not show: " << slower.message);
    const gpuchrono::CheckResult pending = gpuchrono::check_no_findings(with_pending_work());
    BOOST_TEST(!pending.passed);
    BOOST_TEST(readme.find(": error: in \"saxpy/no_findings\": " + pending.message + "\n") != std::string::npos,
               "README.md does not show: " << pending.message);
}

BOOST_AUTO_TEST_SUITE_END()
