// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The diagnostics model without a GPU: the catalog of codes, the three reactions, deduplication per code and
// call site, and findings travelling from measurements into a Summary.
#include <boost/test/unit_test.hpp>

#include "recording_sink.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <source_location>
#include <sstream>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

// Internals the module does not export, reached through their headers.
#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/gpu/driver_probe.hpp>

#include <gpuchrono/api.hpp>

using gpuchrono::CallSite;
using gpuchrono::Duration;
using gpuchrono::Finding;
using gpuchrono::Findings;
using gpuchrono::Measurement;
using gpuchrono::Reaction;

namespace {

Finding warning_finding(std::string message = "3.10 us is within 10x of the 1.41 us floor") {
    return gpuchrono::make_finding(gpuchrono::codes::interval_below_event_floor, std::move(message),
                                   {{"interval_ns", 3100}, {"floor_ns", 1410}});
}

Finding info_finding() {
    return gpuchrono::make_finding(gpuchrono::codes::legacy_default_stream, "the timer runs on the legacy stream");
}

// Device -1: a GPU measurement would make summary() ask the CUDA runtime about module loading, and this suite
// must stay free of CUDA calls (its last case checks that no context exists).
Measurement measured(double us) { return Measurement::completed("host-clock", Duration::from_us(us), -1); }

// Every code constant of gpuchrono::codes, spelled out: the catalog must hold exactly these.
const std::vector<std::string_view> all_code_constants = {
    gpuchrono::codes::host_stop_with_pending_work,
    gpuchrono::codes::host_timer_during_capture,
    gpuchrono::codes::context_created_in_timer,
    gpuchrono::codes::blocking_sync_wait,
    gpuchrono::codes::pageable_host_memory,
    gpuchrono::codes::host_time_in_event_interval,
    gpuchrono::codes::timed_stream_idle,
    gpuchrono::codes::interval_below_event_floor,
    gpuchrono::codes::timer_in_stream_capture,
    gpuchrono::codes::timer_device_changed,
    gpuchrono::codes::legacy_default_stream,
    gpuchrono::codes::cold_first_sample,
    gpuchrono::codes::too_few_samples,
    gpuchrono::codes::high_variation,
    gpuchrono::codes::did_not_converge,
    gpuchrono::codes::device_clock_sm_changed,
    gpuchrono::codes::device_clock_records_dropped,
    gpuchrono::codes::device_clock_kernel_below_timer_resolution,
    gpuchrono::codes::device_clock_regions_below_timer_resolution,
    gpuchrono::codes::clock_went_backwards,
    gpuchrono::codes::cycles_across_sms,
    gpuchrono::codes::partial_last_wave,
    gpuchrono::codes::block_start_spread,
    gpuchrono::codes::gpu_idle_clock,
    gpuchrono::codes::gpu_clock_throttled,
    gpuchrono::codes::gpu_clock_low,
    gpuchrono::codes::gpu_shared,
    gpuchrono::codes::other_processes_on_device,
    gpuchrono::codes::nvml_unavailable,
    gpuchrono::codes::kernel_no_activity,
    gpuchrono::codes::kernel_activity_elsewhere,
    gpuchrono::codes::kernel_records_dropped,
    gpuchrono::codes::kernel_records_late,
    gpuchrono::codes::concurrent_work_overlapped,
    gpuchrono::codes::concurrent_work_beside,
    gpuchrono::codes::gpu_idle_before,
    gpuchrono::codes::cupti_unavailable,
};

}  // namespace

BOOST_AUTO_TEST_SUITE(findings)

// First in the suite, so nothing in this process has chosen a reaction yet (ctest runs each suite alone).
BOOST_AUTO_TEST_CASE(the_build_default_reaction_holds_until_something_chooses_another) {
    const std::optional<Reaction> built = gpuchrono::parse_reaction(GPUCHRONO_TEST_FINDING_REACTION);
    BOOST_REQUIRE(built.has_value());
    if (const char* env = std::getenv("GPUCHRONO_FINDINGS"); env && *env) {
        BOOST_TEST_MESSAGE("GPUCHRONO_FINDINGS=" << env << " is set: it overrides the build default");
        BOOST_TEST((gpuchrono::finding_reaction() == gpuchrono::parse_reaction(env).value_or(*built)));
    } else {
        BOOST_TEST((gpuchrono::finding_reaction() == *built));
    }
}

BOOST_AUTO_TEST_CASE(the_catalog_lists_every_code_once_with_its_fix) {
    const auto catalog = gpuchrono::finding_catalog();
    BOOST_TEST(catalog.size() == all_code_constants.size());
    std::set<std::string_view> seen;
    const std::regex kebab("[a-z0-9]+(-[a-z0-9]+)*");
    for (const gpuchrono::FindingKind& kind : catalog) {
        BOOST_TEST(seen.insert(kind.code).second, "duplicate code " << kind.code);
        BOOST_TEST(std::regex_match(std::string(kind.code), kebab), kind.code);
        BOOST_TEST(!kind.summary.empty(), kind.code);
        BOOST_TEST(!kind.fix.empty(), kind.code);
        BOOST_TEST((kind.pitfall_row >= 0 && kind.pitfall_row <= 28), kind.code);
    }
    for (std::string_view code : all_code_constants) {
        const gpuchrono::FindingKind* kind = gpuchrono::find_finding_kind(code);
        BOOST_TEST(kind != nullptr, code);
        if (kind) BOOST_TEST(kind->code == code);
    }
    BOOST_TEST(gpuchrono::find_finding_kind("no-such-code") == nullptr);
}

struct docs_present {
    boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const {
        boost::test_tools::assertion_result r(std::filesystem::exists(GPUCHRONO_TEST_PITFALLS_DOC));
        r.message() << GPUCHRONO_TEST_PITFALLS_DOC << " is not on this machine (a binary carried elsewhere)";
        return r;
    }
};

BOOST_AUTO_TEST_CASE(the_pitfalls_document_names_every_code, *boost::unit_test::precondition(docs_present())) {
    std::ifstream in(GPUCHRONO_TEST_PITFALLS_DOC);
    std::stringstream text;
    text << in.rdbuf();
    for (const gpuchrono::FindingKind& kind : gpuchrono::finding_catalog()) {
        std::string quoted = "`";  // appended, not concatenated: g++ 12 warns (-Wrestrict) on "`" + std::string
        quoted.append(kind.code).append("`");
        BOOST_TEST(text.str().find(quoted) != std::string::npos, kind.code << " is not in docs/pitfalls.md");
    }
}

BOOST_AUTO_TEST_CASE(make_finding_takes_severity_and_fix_from_the_catalog) {
    const Finding f = warning_finding();
    const gpuchrono::FindingKind* kind = gpuchrono::find_finding_kind(gpuchrono::codes::interval_below_event_floor);
    BOOST_REQUIRE(kind != nullptr);
    BOOST_TEST(f.code == "interval-below-event-floor");
    BOOST_TEST((f.severity == kind->severity));
    BOOST_TEST(f.fix == std::string(kind->fix));
    BOOST_TEST(f.where.empty());
    BOOST_TEST(f.evidence_or("floor_ns", -1) == 1410.0);
    BOOST_TEST(f.evidence_or("missing", -1) == -1.0);
    const Finding custom = gpuchrono::make_finding(gpuchrono::codes::too_few_samples, "3 samples", {}, "take 10");
    BOOST_TEST(custom.fix == "take 10");
    BOOST_CHECK_THROW((void)gpuchrono::make_finding("made-up-code", "x"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_finding_prints_as_one_line_with_code_fix_and_place) {
    Finding f = warning_finding("interval 3.10 us");
    f.where = "bench.cpp:42";
    const std::string line = gpuchrono::to_string(f);
    BOOST_TEST(line.find("warning [interval-below-event-floor] interval 3.10 us. Fix: ") == 0u, line);
    BOOST_TEST(line.find("(at bench.cpp:42)") != std::string::npos, line);
    BOOST_TEST(line.find('\n') == std::string::npos, line);
}

BOOST_AUTO_TEST_CASE(reactions_parse_and_print) {
    for (Reaction r : {Reaction::collect, Reaction::report, Reaction::throw_error})
        BOOST_TEST((gpuchrono::parse_reaction(gpuchrono::to_string(r)) == r));
    BOOST_TEST(std::string(gpuchrono::to_string(Reaction::throw_error)) == "throw");
    BOOST_TEST(!gpuchrono::parse_reaction("THROW").has_value());
    BOOST_TEST(!gpuchrono::parse_reaction("").has_value());
}

BOOST_AUTO_TEST_CASE(collect_attaches_and_says_nothing) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction collect(Reaction::collect);
    Measurement m = measured(3.1);
    gpuchrono::handle_findings(m, {warning_finding(), info_finding()}, CallSite::at());
    BOOST_TEST(m.findings().size() == 2u);
    BOOST_TEST(sink.got.empty());
}

BOOST_AUTO_TEST_CASE(report_says_each_code_once_per_call_site) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction report(Reaction::report);
    const CallSite site_a = CallSite::at();
    const CallSite site_b = CallSite::at();
    for (int sample = 0; sample < 100; ++sample) {
        Measurement m = measured(3.0 + sample * 0.01);
        gpuchrono::handle_findings(m, {warning_finding("sample " + std::to_string(sample))}, site_a);
        BOOST_TEST(m.findings().size() == 1u);  // every measurement keeps its finding
    }
    BOOST_TEST(sink.got.size() == 1u);  // a loop of samples reports once
    BOOST_TEST(sink.got.front().message == "sample 0");
    Measurement other_site = measured(3.0);
    gpuchrono::handle_findings(other_site, {warning_finding()}, site_b);
    BOOST_TEST(sink.got.size() == 2u);  // the same code elsewhere is news
    Measurement other_code = measured(3.0);
    gpuchrono::handle_findings(other_code, {info_finding()}, site_a);
    BOOST_TEST(sink.got.size() == 3u);  // another code at the same place too
    gpuchrono::forget_reported_findings();
    Measurement again = measured(3.0);
    gpuchrono::handle_findings(again, {warning_finding()}, site_a);
    BOOST_TEST(sink.got.size() == 4u);
}

BOOST_AUTO_TEST_CASE(findings_are_stamped_with_their_call_site) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction collect(Reaction::collect);
    const int line = __LINE__ + 1;
    const CallSite here = CallSite::at();
    BOOST_TEST(here.where == "findings_test.cpp:" + std::to_string(line));
    Finding placed = info_finding();
    placed.where = "elsewhere.cpp:7";
    Measurement m = measured(1);
    gpuchrono::handle_findings(m, {warning_finding(), placed}, here);
    BOOST_REQUIRE(m.findings().size() == 2u);
    BOOST_TEST(m.findings()[0].where == here.where);
    BOOST_TEST(m.findings()[1].where == "elsewhere.cpp:7");  // a finding that knows its place keeps it
}

namespace {
// A policy that finds one warning at every stop and stamps it with the location it is given, as the library's
// policies do: what ScopedTimer hands it is what the user sees.
struct WarningPolicy {
    static constexpr std::string_view name = "warning-test";
    void start() {}
    Measurement stop() { return stop(std::source_location::current()); }
    Measurement stop(std::source_location where) {
        Measurement m = measured(1);
        gpuchrono::handle_findings(m, {warning_finding()}, CallSite::located(where));
        return m;
    }
};
}  // namespace

BOOST_AUTO_TEST_CASE(a_timers_findings_name_the_line_that_made_it) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction report(Reaction::report);
    gpuchrono::Series series("located");
    const int line = __LINE__ + 2;
    for (int i = 0; i < 3; ++i) {
        gpuchrono::ScopedTimer<WarningPolicy> t(series);
    }
    BOOST_REQUIRE(series.measurements().size() == 3u);
    for (const Measurement& m : series.measurements()) {
        BOOST_REQUIRE(m.findings().size() == 1u);
        BOOST_TEST(m.findings()[0].where == "findings_test.cpp:" + std::to_string(line));
        BOOST_TEST(gpuchrono::to_string(m.findings()[0]).ends_with("(at findings_test.cpp:" + std::to_string(line) + ")"));
    }
    BOOST_TEST(sink.got.size() == 1u);  // one line, reported once: the same code at the same line
    // stop() called explicitly names the line that made the timer as well, not the line of stop().
    const int made_at = __LINE__ + 1;
    gpuchrono::ScopedTimer<WarningPolicy> t;
    const Measurement& m = t.stop();
    BOOST_REQUIRE(m.findings().size() == 1u);
    BOOST_TEST(m.findings()[0].where == "findings_test.cpp:" + std::to_string(made_at));
    BOOST_TEST(sink.got.size() == 2u);  // another line: reported
    // A library that times for its caller passes the caller's line on.
    const std::source_location callers = std::source_location::current();
    gpuchrono::ScopedTimer<WarningPolicy> on_behalf(callers);
    BOOST_TEST(on_behalf.stop().findings()[0].where == "findings_test.cpp:" + std::to_string(callers.line()));
}

BOOST_AUTO_TEST_CASE(a_binding_names_its_callers_line_over_the_librarys) {
    gpuchrono::ScopedFindingReaction collect(Reaction::collect);
    Findings found{warning_finding()};
    {
        const gpuchrono::detail::ScopedCallerName caller("bench.py:12");
        {
            const gpuchrono::detail::ScopedCallerName inner("other.py:3");
            Findings inside{warning_finding()};
            gpuchrono::handle_findings(inside, CallSite::at());
            BOOST_TEST(inside[0].where == "other.py:3");
        }
        gpuchrono::handle_findings(found, CallSite::returning_to(reinterpret_cast<const void*>(&measured)));
    }
    BOOST_TEST(found[0].where == "bench.py:12");
    Findings after{warning_finding()};
    const int line = __LINE__ + 1;
    gpuchrono::handle_findings(after, CallSite::located(std::source_location::current()));
    BOOST_TEST(after[0].where == "findings_test.cpp:" + std::to_string(line));  // restored once it ends
}

BOOST_AUTO_TEST_CASE(a_return_address_names_the_program_and_offset) {
    gpuchrono::ScopedFindingReaction collect(Reaction::collect);
    Findings found{warning_finding()};
    gpuchrono::handle_findings(found, CallSite::returning_to(reinterpret_cast<const void*>(&measured)));
    BOOST_REQUIRE(found.size() == 1u);
    // "cpu_tests+0x1a2b3": what addr2line -e cpu_tests 0x1a2b3 resolves.
    BOOST_TEST(found[0].where.find("cpu_tests+0x") == 0u, found[0].where);
}

BOOST_AUTO_TEST_CASE(throw_raises_warnings_and_reports_info) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction raise(Reaction::throw_error);
    Measurement m = measured(3.1);
    try {
        gpuchrono::handle_findings(m, {info_finding(), warning_finding()}, CallSite::at());
        BOOST_FAIL("a warning under Reaction::throw_error must throw");
    } catch (const gpuchrono::FindingError& e) {
        BOOST_TEST(e.finding().code == "interval-below-event-floor");
        BOOST_TEST(e.findings().size() == 2u);
        BOOST_REQUIRE(e.measurement().has_value());
        BOOST_TEST(e.measurement()->duration().us() == 3.1);
        BOOST_TEST(e.measurement()->findings().size() == 2u);
        BOOST_TEST(std::string(e.what()).find("[interval-below-event-floor]") != std::string::npos, e.what());
    }
    BOOST_REQUIRE(sink.got.size() == 1u);  // the info finding went to the sink
    BOOST_TEST(sink.got[0].code == "legacy-default-stream");

    Measurement quiet = measured(1);
    BOOST_CHECK_NO_THROW(gpuchrono::handle_findings(quiet, {info_finding()}, CallSite::at()));
    Findings series_level{warning_finding()};
    BOOST_CHECK_EXCEPTION(gpuchrono::handle_findings(series_level, CallSite::at()), gpuchrono::FindingError,
                          [](const gpuchrono::FindingError& e) { return !e.measurement().has_value(); });
}

BOOST_AUTO_TEST_CASE(a_scoped_reaction_nests_and_stays_on_its_thread) {
    const Reaction process = gpuchrono::finding_reaction();
    {
        gpuchrono::ScopedFindingReaction outer(Reaction::throw_error);
        BOOST_TEST((gpuchrono::finding_reaction() == Reaction::throw_error));
        {
            gpuchrono::ScopedFindingReaction inner(Reaction::collect);
            BOOST_TEST((gpuchrono::finding_reaction() == Reaction::collect));
        }
        BOOST_TEST((gpuchrono::finding_reaction() == Reaction::throw_error));
        Reaction seen_elsewhere = Reaction::throw_error;
        std::thread([&] { seen_elsewhere = gpuchrono::finding_reaction(); }).join();
        BOOST_TEST((seen_elsewhere == process));
    }
    BOOST_TEST((gpuchrono::finding_reaction() == process));
}

BOOST_AUTO_TEST_CASE(set_finding_reaction_applies_to_every_thread) {
    const Reaction before = gpuchrono::finding_reaction();
    gpuchrono::set_finding_reaction(Reaction::collect);
    Reaction seen_elsewhere = Reaction::report;
    std::thread([&] { seen_elsewhere = gpuchrono::finding_reaction(); }).join();
    BOOST_TEST((seen_elsewhere == Reaction::collect));
    gpuchrono::set_finding_reaction(before);
    BOOST_TEST((gpuchrono::finding_reaction() == before));
}

BOOST_AUTO_TEST_CASE(a_summary_carries_each_code_once_with_its_count) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction collect(Reaction::collect);
    gpuchrono::Series series("short kernel");
    for (int i = 0; i < 12; ++i) {
        Measurement m = measured(100.0 + (i % 3));
        if (i % 4 == 0) m.add_finding(warning_finding("sample " + std::to_string(i)));
        series.add(m);
    }
    series.add(Measurement::failure("host-clock", "cudaErrorLaunchFailure at stop", -1));
    const gpuchrono::Summary s = gpuchrono::summary(series);
    BOOST_TEST(s.name == "short kernel");
    BOOST_TEST(s.stats.count == 12u);
    BOOST_TEST(s.failed == 1u);
    BOOST_TEST(s.first_error == "cudaErrorLaunchFailure at stop");
    BOOST_REQUIRE(s.findings.size() == 1u);  // 12 clean-enough samples: nothing at the series level
    const Finding& f = s.findings[0];
    BOOST_TEST(f.code == "interval-below-event-floor");
    BOOST_TEST(f.message == "sample 0 (3 of 13 measurements)");
    BOOST_TEST(f.evidence_or("measurements_affected", 0) == 3.0);
    BOOST_TEST(s.find(gpuchrono::codes::interval_below_event_floor) == &s.findings[0]);
    BOOST_TEST(s.find(gpuchrono::codes::high_variation) == nullptr);
}

BOOST_AUTO_TEST_CASE(a_summary_adds_what_only_the_series_shows) {
    RecordingSink sink;
    gpuchrono::ScopedFindingReaction report(Reaction::report);
    gpuchrono::Series series("cold");
    series.add(measured(480));  // a cold first sample
    for (double us : {100.0, 130.0, 99.0, 140.0, 101.0}) series.add(measured(us));
    const int line = __LINE__ + 1;
    const gpuchrono::Summary s = gpuchrono::summary(series);
    BOOST_TEST(s.find(gpuchrono::codes::cold_first_sample) != nullptr);
    BOOST_TEST(s.find(gpuchrono::codes::too_few_samples) != nullptr);  // 6 < 10
    BOOST_TEST(s.find(gpuchrono::codes::high_variation) != nullptr);   // MAD 16 us of the median 115.5 us
    for (const Finding& f : s.findings) {
        BOOST_TEST(f.message.find("series \"cold\": ") == 0u, f.message);
        BOOST_TEST(f.where == "findings_test.cpp:" + std::to_string(line));
        BOOST_TEST_MESSAGE(gpuchrono::to_string(f));
    }
    BOOST_TEST(sink.got.size() == 3u);  // new at the series level, so reported
}

BOOST_AUTO_TEST_CASE(a_summary_under_throw_raises_a_series_finding) {
    gpuchrono::ScopedFindingReaction raise(Reaction::throw_error);
    gpuchrono::Series series("three");
    for (double us : {100.0, 100.0, 100.0}) series.add(measured(us));
    BOOST_CHECK_EXCEPTION((void)gpuchrono::summary(series), gpuchrono::FindingError, [](const gpuchrono::FindingError& e) {
        return e.finding().code == "too-few-samples" && !e.measurement().has_value();
    });
}

BOOST_AUTO_TEST_CASE(a_host_only_timer_makes_no_finding_without_a_driver) {
    gpuchrono::ScopedFindingReaction collect(Reaction::collect);
    gpuchrono::Series series;
    { gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t(series); }
    BOOST_REQUIRE(series.size() == 1u);
    BOOST_TEST(series.measurements()[0].findings().empty());
    BOOST_TEST(!gpuchrono::HostClockPolicy().watched_stream().has_value());
    // This program made no CUDA call, so no driver is loaded and no context can exist.
    BOOST_TEST(gpuchrono::active_primary_contexts() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
