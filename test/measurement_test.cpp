#include <boost/test/unit_test.hpp>

#include <gpuchrono/measurement.hpp>  // detail::PendingInterval is not exported: tests reach it here

#include <memory>
#include <stdexcept>
#include <string>

import gpuchrono;

using gpuchrono::Duration;
using gpuchrono::Measurement;

namespace {
// Stands in for an event pair whose end is still on the GPU.
class ScriptedInterval final : public gpuchrono::detail::PendingInterval {
public:
    explicit ScriptedInterval(bool fails) : fails_(fails) {}
    int resolutions = 0;
    Duration resolve() override {
        ++resolutions;
        if (fails_) throw gpuchrono::CudaError(cudaErrorLaunchTimeout, "cudaEventSynchronize(stop)", "a scripted test");
        return Duration::from_us(7);
    }

private:
    bool fails_;
};
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
