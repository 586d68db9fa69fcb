// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a profiler sees of gpuchrono: NVTX push/pop ranges named after the timers' series in the "gpuchrono"
// domain, nested as the scopes nest, exactly one pop per push however a timer ends, marks for findings, and
// nothing at all when switched off. A recording NVTX tool is compiled into cpu_tests (support/nvtx_recorder.*).
#include <boost/test/unit_test.hpp>

#include <gpuchrono/core/finding_catalog.hpp>   // make_finding (internal, not exported)
#include <gpuchrono/core/finding_reaction.hpp>  // handle_findings, CallSite (internal)
#include "core/switch_setting.hpp"      // detail::parse_switch_setting (internal)
#include <gpuchrono/core/nvtx_range.hpp>

#include "nvtx_recorder.hpp"
#include "scripted_policy.hpp"

#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gpuchrono/api.hpp>

namespace {

using Trace = std::vector<std::string>;
using Timer = gpuchrono::ScopedTimer<ScriptedPolicy>;

// Restores NVTX to on, whatever a test did.
struct NvtxOn {
    NvtxOn() { gpuchrono::set_nvtx_enabled(true); }
    ~NvtxOn() { gpuchrono::set_nvtx_enabled(true); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(nvtx)

BOOST_AUTO_TEST_CASE(ranges_are_named_after_the_series_and_nest_as_the_scopes_nest) {
    NvtxOn on;
    NvtxRecording rec;
    gpuchrono::Series outer("outer"), inner("inner");
    {
        gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> a(outer);
        {
            gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> b(inner);
        }
        gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> c(inner);
    }
    BOOST_REQUIRE(NvtxRecording::attached());
    BOOST_TEST((rec.trace() == Trace{"push:outer", "push:inner", "pop", "push:inner", "pop", "pop"}));
    for (const NvtxEvent& e : rec.events()) BOOST_TEST(e.domain == "gpuchrono");
}

BOOST_AUTO_TEST_CASE(a_timer_without_a_series_is_named_after_its_policy) {
    NvtxOn on;
    NvtxRecording rec;
    { gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t; }
    gpuchrono::Series unnamed;
    { gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t(unnamed); }
    BOOST_TEST((rec.trace() == Trace{"push:host-clock", "pop", "push:host-clock", "pop"}));
}

BOOST_AUTO_TEST_CASE(stop_pops_once_and_the_destructor_pops_nothing_more) {
    NvtxOn on;
    NvtxRecording rec;
    PolicyScript script;
    gpuchrono::Series s("stopped early");
    {
        Timer t(s, script);
        t.stop();
        BOOST_TEST((rec.trace() == Trace{"push:stopped early", "pop"}));
        t.stop();
    }
    BOOST_TEST((rec.trace() == Trace{"push:stopped early", "pop"}));
}

BOOST_AUTO_TEST_CASE(a_moved_timer_pops_once_when_the_moved_to_timer_stops) {
    NvtxOn on;
    NvtxRecording rec;
    PolicyScript script;
    gpuchrono::Series s("moved");
    {
        Timer a(s, script);
        Timer b(std::move(a));
        BOOST_TEST((rec.trace() == Trace{"push:moved"}));
    }
    BOOST_TEST((rec.trace() == Trace{"push:moved", "pop"}));
    BOOST_TEST(s.size() == 1u);
}

BOOST_AUTO_TEST_CASE(move_assignment_closes_the_left_range_and_keeps_one_pop_per_push) {
    NvtxOn on;
    NvtxRecording rec;
    PolicyScript left_script, right_script;
    gpuchrono::Series left("left"), right("right");
    {
        Timer a(left, left_script);
        Timer b(right, right_script);
        a = std::move(b);  // a's timer stops here, as its destructor would
        BOOST_TEST((rec.trace() == Trace{"push:left", "push:right", "pop"}));
    }
    BOOST_TEST((rec.trace() == Trace{"push:left", "push:right", "pop", "pop"}));
}

// The library's first-use work in a start (NVML, its warm-up launch) must stay out of the user's range: ncu
// filtering by range profiled the library's warm-up kernel as the user's when the push came first.
BOOST_AUTO_TEST_CASE(the_range_opens_after_the_policy_has_started) {
    NvtxOn on;
    NvtxRecording rec;
    std::size_t events_at_start = 99;
    PolicyScript script{.at_start = [&] { events_at_start = rec.trace().size(); }};
    gpuchrono::Series s("after");
    {
        Timer t(s, script);
        BOOST_TEST(events_at_start == 0u);
        BOOST_TEST((rec.trace() == Trace{"push:after"}));
    }
    BOOST_TEST((rec.trace() == Trace{"push:after", "pop"}));
}

// The range is pushed once the policy has started (scoped_timer.hpp), so a start that throws pushes none.
BOOST_AUTO_TEST_CASE(a_failing_stop_still_pops_its_range_and_a_failing_start_pushes_none) {
    NvtxOn on;
    NvtxRecording rec;
    PolicyScript fails_at_stop{.throw_at_stop = true};
    gpuchrono::Series s("fails");
    {
        Timer t(s, fails_at_stop);
        BOOST_CHECK_THROW(t.stop(), gpuchrono::CudaError);
    }
    PolicyScript fails_at_start{.throw_at_start = true};
    BOOST_CHECK_THROW(Timer(s, fails_at_start), gpuchrono::CudaError);
    PolicyScript fails_in_destructor{.throw_at_stop = true};
    { Timer t(s, fails_in_destructor); }
    BOOST_TEST((rec.trace() == Trace{"push:fails", "pop", "push:fails", "pop"}));
}

BOOST_AUTO_TEST_CASE(a_timer_stopped_on_another_thread_pops_nothing_there) {
    NvtxOn on;
    NvtxRecording rec;
    PolicyScript script;
    gpuchrono::Series s("wanderer");
    Timer t(s, script);
    std::thread([&] { t.stop(); }).join();
    BOOST_TEST((rec.trace() == Trace{"push:wanderer"}));
}

BOOST_AUTO_TEST_CASE(switched_off_no_range_is_pushed_and_an_open_one_is_still_popped) {
    NvtxOn on;
    NvtxRecording rec;
    gpuchrono::Series s("scope");
    {
        gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> open_before(s);
        gpuchrono::set_nvtx_enabled(false);
        BOOST_TEST(!gpuchrono::nvtx_enabled());
        { gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t(s); }
    }
    BOOST_TEST((rec.trace() == Trace{"push:scope", "pop"}));
    gpuchrono::set_nvtx_enabled(true);
    BOOST_TEST(gpuchrono::nvtx_enabled());
}

BOOST_AUTO_TEST_CASE(every_finding_handled_becomes_a_mark_named_by_its_code) {
    NvtxOn on;
    gpuchrono::ScopedFindingReaction quiet(gpuchrono::Reaction::collect);
    NvtxRecording rec;
    gpuchrono::Findings found{gpuchrono::make_finding(gpuchrono::codes::too_few_samples, "3 samples"),
                              gpuchrono::make_finding(gpuchrono::codes::legacy_default_stream, "stream 0")};
    gpuchrono::handle_findings(found, gpuchrono::CallSite::at());
    BOOST_TEST((rec.trace() == Trace{"mark:too-few-samples", "mark:legacy-default-stream"}));
    for (const NvtxEvent& e : rec.events()) BOOST_TEST(e.domain == "gpuchrono");

    gpuchrono::set_nvtx_enabled(false);
    gpuchrono::handle_findings(found, gpuchrono::CallSite::at());
    BOOST_TEST(rec.trace().size() == 2u);
}

BOOST_AUTO_TEST_CASE(the_environment_setting_is_parsed_strictly) {
    using gpuchrono::detail::parse_switch_setting;
    BOOST_TEST((parse_switch_setting("0") == std::optional<bool>(false)));
    BOOST_TEST((parse_switch_setting("off") == std::optional<bool>(false)));
    BOOST_TEST((parse_switch_setting("false") == std::optional<bool>(false)));
    BOOST_TEST((parse_switch_setting("1") == std::optional<bool>(true)));
    BOOST_TEST((parse_switch_setting("on") == std::optional<bool>(true)));
    BOOST_TEST(!parse_switch_setting("no").has_value());
    BOOST_TEST(!parse_switch_setting("").has_value());
}

BOOST_AUTO_TEST_SUITE_END()
