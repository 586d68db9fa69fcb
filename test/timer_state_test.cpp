// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include "scripted_policy.hpp"

#include <string>
#include <string_view>
#include <utility>

#include <gpuchrono/api.hpp>

using Timer = gpuchrono::ScopedTimer<ScriptedPolicy>;
using State = Timer::State;

static_assert(gpuchrono::TimingPolicy<ScriptedPolicy>);

BOOST_AUTO_TEST_SUITE(timer_state)

BOOST_AUTO_TEST_CASE(starts_in_the_constructor_and_stops_in_the_destructor) {
    PolicyScript script;
    gpuchrono::Series series("scope");
    {
        Timer t(series, script);
        BOOST_TEST(script.starts == 1);
        BOOST_TEST(script.stops == 0);
        BOOST_TEST((t.state() == State::running));
    }
    BOOST_TEST(script.stops == 1);
    BOOST_REQUIRE(series.size() == 1u);
    BOOST_TEST(series.measurements()[0].duration().ns() == 1000.0);
    BOOST_TEST(series.measurements()[0].policy() == "scripted");
}

BOOST_AUTO_TEST_CASE(a_second_stop_returns_the_same_measurement) {
    PolicyScript script;
    gpuchrono::Series series;
    Timer t(series, script);
    const double first = t.stop().duration().ns();
    script.stop_ns = 5000.0;  // a second real stop would now read 5000
    BOOST_TEST(t.stop().duration().ns() == first);
    BOOST_TEST(script.stops == 1);
    BOOST_TEST((t.state() == State::stopped));
    BOOST_TEST(series.size() == 1u);  // delivered once, not once per stop() call
}

BOOST_AUTO_TEST_CASE(result_is_refused_while_running) {
    PolicyScript script;
    Timer t(script);
    BOOST_CHECK_THROW((void)t.result(), gpuchrono::TimerError);
    t.stop();
    BOOST_TEST(t.result().duration().ns() == 1000.0);
}

BOOST_AUTO_TEST_CASE(a_failed_stop_throws_once_then_refuses) {
    PolicyScript script;
    script.throw_at_stop = true;
    gpuchrono::Series series;
    Timer t(series, script);
    BOOST_CHECK_THROW(t.stop(), gpuchrono::CudaError);
    BOOST_TEST((t.state() == State::failed));
    try {
        t.stop();
        BOOST_FAIL("stop() after a failure must throw");
    } catch (const gpuchrono::TimerError& e) {
        BOOST_TEST(std::string(e.what()).find("cudaErrorIllegalAddress") != std::string::npos);
    }
    BOOST_TEST(script.stops == 1);
    BOOST_REQUIRE(series.size() == 1u);
    BOOST_TEST(series.failed_count() == 1u);
    BOOST_CHECK_THROW((void)series.measurements()[0].duration(), gpuchrono::TimerError);
}

BOOST_AUTO_TEST_CASE(a_destructor_failure_becomes_a_failed_measurement_not_an_exception) {
    PolicyScript script;
    script.throw_at_stop = true;
    gpuchrono::Series series;
    { Timer t(series, script); }  // must not throw or terminate
    BOOST_REQUIRE(series.size() == 1u);
    const auto& m = series.measurements()[0];
    BOOST_TEST(m.failed());
    BOOST_TEST(m.error().find("scripted stop") != std::string::npos);
    BOOST_TEST(m.error().find("cudaErrorIllegalAddress") != std::string::npos);
    BOOST_TEST(series.durations().empty());
    BOOST_TEST(series.first_error() == m.error());
}

BOOST_AUTO_TEST_CASE(a_failed_start_throws_from_the_constructor) {
    PolicyScript script;
    script.throw_at_start = true;
    gpuchrono::Series series;
    BOOST_CHECK_THROW(Timer(series, script), gpuchrono::CudaError);
    BOOST_TEST(script.stops == 0);  // nothing was started, so nothing is stopped
    BOOST_TEST(series.empty());
}

BOOST_AUTO_TEST_CASE(moving_transfers_the_running_interval) {
    PolicyScript script;
    gpuchrono::Series series;
    Timer a(series, script);
    Timer b(std::move(a));
    BOOST_TEST((a.state() == State::moved_from));
    BOOST_TEST((b.state() == State::running));
    BOOST_CHECK_THROW(a.stop(), gpuchrono::TimerError);
    BOOST_CHECK_THROW((void)a.result(), gpuchrono::TimerError);
    BOOST_CHECK_THROW((void)a.policy(), gpuchrono::TimerError);
    BOOST_TEST(b.stop().duration().ns() == 1000.0);
    BOOST_TEST(script.starts == 1);
    BOOST_TEST(script.stops == 1);
    BOOST_TEST(series.size() == 1u);
}

BOOST_AUTO_TEST_CASE(move_assignment_stops_the_running_target_first) {
    PolicyScript first, second;
    gpuchrono::Series series;
    Timer a(series, first);
    Timer b(series, second);
    a = std::move(b);
    BOOST_TEST(first.stops == 1);  // a's own interval ended as its destructor would have ended it
    BOOST_TEST(second.stops == 0);
    BOOST_TEST(series.size() == 1u);
    a.stop();
    BOOST_TEST(second.stops == 1);
    BOOST_TEST(series.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_moved_from_timer_destructs_without_stopping) {
    PolicyScript script;
    {
        Timer a(script);
        Timer b(std::move(a));
        b.stop();
    }
    BOOST_TEST(script.stops == 1);
}

// A policy with Options, as EventPolicy and DeviceClockPolicy have: the braced form reaches it.
class OptionedPolicy {
public:
    struct Options {
        double stop_ns = 1000.0;
    };
    static constexpr std::string_view name = "optioned";
    OptionedPolicy(PolicyScript& script, Options options) : script_(&script), options_(options) {}
    void start() { ++script_->starts; }
    gpuchrono::Measurement stop() {
        ++script_->stops;
        return gpuchrono::Measurement::completed(name, gpuchrono::Duration::from_ns(options_.stop_ns), 0);
    }

private:
    PolicyScript* script_;
    Options options_;
};

// What the README shows, through the module: braced options after the stream, with and without a Series.
static_assert(requires(gpuchrono::Series& series, cudaStream_t stream) {
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy>(series, stream, {.wait_at_stop = false});
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy>(stream, {.wait_at_stop = false});
    gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy>(stream, {.regions = {"reduce"}, .max_blocks = 4096});
});

BOOST_AUTO_TEST_CASE(braced_options_reach_the_policy) {
    PolicyScript script;
    gpuchrono::Series series;
    {
        gpuchrono::ScopedTimer<OptionedPolicy> t(series, script, {.stop_ns = 250.0});
    }
    {
        gpuchrono::ScopedTimer<OptionedPolicy> t(script, {.stop_ns = 500.0});
        BOOST_TEST(t.stop().duration().ns() == 500.0);
    }
    BOOST_TEST(script.starts == 2);
    BOOST_TEST(script.stops == 2);
    BOOST_REQUIRE(series.size() == 1u);
    BOOST_TEST(series.measurements()[0].duration().ns() == 250.0);
}

BOOST_AUTO_TEST_SUITE_END()
