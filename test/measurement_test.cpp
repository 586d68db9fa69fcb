// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include "recording_sink.hpp"

#include <gpuchrono/core/measurement.hpp>  // detail::PendingInterval is not exported: tests reach it here

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// make_finding is not exported: reached through its header.
#include <gpuchrono/core/finding_catalog.hpp>

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
using gpuchrono::Measurement;

namespace {
// Stands in for an event pair whose end is still on the GPU, and whose interval checks found `found`.
class ScriptedInterval final : public gpuchrono::detail::PendingInterval {
public:
    explicit ScriptedInterval(bool fails, gpuchrono::Findings found = {}) : fails_(fails), found_(std::move(found)) {}
    int resolutions = 0;
    int takes = 0;
    Duration resolve() override {
        ++resolutions;
        if (fails_) throw gpuchrono::CudaError(cudaErrorLaunchTimeout, "cudaEventSynchronize(stop)", "a scripted test");
        return Duration::from_us(7);
    }
    gpuchrono::Findings take_findings() override {
        ++takes;
        return found_;
    }

private:
    bool fails_;
    gpuchrono::Findings found_;
};

gpuchrono::Finding near_floor() {
    gpuchrono::Finding f = gpuchrono::make_finding(gpuchrono::codes::interval_below_event_floor,
                                                   "the event interval 7.00 us is less than 10x the 1.50 us floor");
    f.where = "measurement_test+0x10";
    return f;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(measurement)

BOOST_AUTO_TEST_CASE(a_default_measurement_is_a_failure_not_a_zero) {
    Measurement m;
    BOOST_TEST(m.failed());
    BOOST_CHECK_THROW((void)m.duration(), gpuchrono::TimerError);
    BOOST_TEST(!m.error().empty());
}

BOOST_AUTO_TEST_CASE(a_pending_interval_resolves_on_first_read) {
    auto interval = std::make_shared<ScriptedInterval>(false);
    Measurement m = Measurement::pending("event", interval, 0);
    BOOST_TEST(m.pending());
    BOOST_TEST(interval->resolutions == 0);  // nothing waits until someone asks
    BOOST_TEST(m.duration().us() == 7.0);
    BOOST_TEST((m.state() == Measurement::State::ok));
    (void)m.duration();
    BOOST_TEST(interval->resolutions == 1);
}

BOOST_AUTO_TEST_CASE(a_failing_pending_interval_throws_then_stays_failed) {
    Measurement m = Measurement::pending("event", std::make_shared<ScriptedInterval>(true), 0);
    BOOST_CHECK_THROW((void)m.duration(), gpuchrono::CudaError);
    BOOST_TEST(m.failed());
    BOOST_TEST(m.error().find("cudaErrorLaunchTimeout") != std::string::npos);
    BOOST_CHECK_THROW((void)m.duration(), gpuchrono::TimerError);
    Measurement quiet = Measurement::pending("event", std::make_shared<ScriptedInterval>(true), 0);
    BOOST_TEST((quiet.resolve() == Measurement::State::failed));
}

// A lazy interval's checks run when it resolves; their findings join the Measurement then (findings
// travel with the measurement), and every copy sharing the interval gets them once.
BOOST_AUTO_TEST_CASE(a_pending_measurement_gains_its_intervals_findings_when_it_resolves) {
    gpuchrono::ScopedFindingReaction collect(gpuchrono::Reaction::collect);
    auto interval = std::make_shared<ScriptedInterval>(false, gpuchrono::Findings{near_floor()});
    Measurement m = Measurement::pending("event", interval, 0);
    m.add_finding(gpuchrono::make_finding(gpuchrono::codes::legacy_default_stream, "found at stop"));
    const Measurement copy = m;  // what a Series holds besides the timer's own
    BOOST_TEST(m.findings().size() == 1u);  // unresolved: only what stop() saw
    BOOST_TEST(interval->takes == 0);
    BOOST_TEST(m.duration().us() == 7.0);
    BOOST_REQUIRE(m.findings().size() == 2u);
    BOOST_TEST(m.findings()[0].code == "legacy-default-stream");
    BOOST_TEST(m.findings()[1].code == "interval-below-event-floor");
    BOOST_TEST(m.findings()[1].where == "measurement_test+0x10");
    (void)m.duration();
    BOOST_TEST(m.findings().size() == 2u);  // resolved once, added once
    BOOST_TEST(copy.findings().size() == 1u);
    BOOST_TEST((copy.resolve() == Measurement::State::ok));
    BOOST_TEST(copy.findings().size() == 2u);
    BOOST_TEST(interval->takes == 2);  // one per copy
    BOOST_TEST(interval->resolutions == 2);  // each copy asks the shared interval (EventPolicy's reads the GPU once)
}

BOOST_AUTO_TEST_CASE(a_failed_interval_adds_no_findings) {
    auto interval = std::make_shared<ScriptedInterval>(true, gpuchrono::Findings{near_floor()});
    Measurement m = Measurement::pending("event", interval, 0);
    BOOST_TEST((m.resolve() == Measurement::State::failed));
    BOOST_TEST(m.findings().empty());
    BOOST_TEST(interval->takes == 0);
}

BOOST_AUTO_TEST_CASE(late_findings_get_the_reaction_once_per_site) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction report(gpuchrono::Reaction::report);
    auto interval = std::make_shared<ScriptedInterval>(false, gpuchrono::Findings{near_floor()});
    Measurement m = Measurement::pending("event", interval, 0);
    const Measurement copy = m;
    BOOST_TEST(sink.got.empty());  // nothing known before the interval is read
    (void)m.duration();
    BOOST_REQUIRE(sink.got.size() == 1u);
    BOOST_TEST(sink.got[0].code == "interval-below-event-floor");
    (void)copy.duration();
    BOOST_TEST(sink.got.size() == 1u);  // same code, same site: reported once
}

BOOST_AUTO_TEST_CASE(a_thrown_late_finding_leaves_the_measurement_readable) {
    gpuchrono::ScopedFindingReaction throwing(gpuchrono::Reaction::throw_error);
    Measurement m = Measurement::pending("event", std::make_shared<ScriptedInterval>(false, gpuchrono::Findings{near_floor()}), 0);
    try {
        (void)m.duration();
        BOOST_FAIL("a warning found at resolution must throw under throw_error");
    } catch (const gpuchrono::FindingError& e) {
        BOOST_TEST(e.finding().code == "interval-below-event-floor");
        BOOST_REQUIRE(e.measurement().has_value());
        BOOST_TEST(e.measurement()->duration().us() == 7.0);
    }
    BOOST_TEST((m.state() == Measurement::State::ok));
    BOOST_TEST(m.duration().us() == 7.0);  // no second throw: the findings were handled
    BOOST_TEST(m.findings().size() == 1u);
    // resolve() never throws: the finding is attached, the state is ok.
    Measurement quiet = Measurement::pending("event", std::make_shared<ScriptedInterval>(false, gpuchrono::Findings{near_floor()}), 0);
    BOOST_TEST((quiet.resolve() == Measurement::State::ok));
    BOOST_TEST(quiet.findings().size() == 1u);
}

BOOST_AUTO_TEST_CASE(refuses_a_null_pending_interval) {
    BOOST_CHECK_THROW((void)Measurement::pending("event", nullptr, 0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(series_keep_failures_and_collect_findings_once) {
    gpuchrono::Series s("k");
    Measurement ok = Measurement::completed("event", Duration::from_us(3), 0);
    ok.add_finding({"interval-near-floor", gpuchrono::Severity::warning, "3 us is within 10x of the 1.3 us floor", "time more"});
    s.add(ok);
    s.add(ok);
    s.add(Measurement::failure("event", "cudaErrorInvalidResourceHandle at stop", 0));
    BOOST_TEST(s.size() == 3u);
    BOOST_TEST(s.durations().size() == 2u);
    BOOST_TEST(s.failed_count() == 1u);
    BOOST_TEST(s.first_error() == "cudaErrorInvalidResourceHandle at stop");
    BOOST_TEST(s.findings().size() == 1u);

    gpuchrono::SeriesSet set;
    set["a"].add(ok);
    set["a"].add(ok);
    set["b"].add(ok);
    BOOST_TEST(set.size() == 2u);
    BOOST_TEST(set.at("a").size() == 2u);
    BOOST_TEST(set.at("a").name() == "a");
    BOOST_CHECK_THROW((void)set.at("missing"), std::out_of_range);
}

// The README's usage: repeated scopes accumulate into a named series, which pipes into the statistics.
BOOST_AUTO_TEST_CASE(a_series_pipes_into_the_statistics) {
    gpuchrono::SeriesSet set;
    for (double us : {3.0, 1.0, 2.0}) set["k"].add(Measurement::completed("event", Duration::from_us(us), 0));
    set["k"].add(Measurement::failure("event", "cudaErrorLaunchFailure", 0));
    const gpuchrono::Stats s = set["k"].durations() | gpuchrono::summarize;
    BOOST_TEST(s.count == 3u);  // the failed measurement is counted by failed_count(), not summarised as a zero
    BOOST_TEST(s.median.us() == 2.0);
    BOOST_TEST(s.min.us() == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
