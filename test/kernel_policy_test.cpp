// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KernelPolicy's attribution and interval logic on made-up activity records: no CUPTI, no GPU.
#include <boost/test/unit_test.hpp>

#include <gpuchrono/core/finding_catalog.hpp>
#include "cupti/activity_intervals.hpp"
#include "cupti/activity_store.hpp"
#include "report/render/chrome_trace.hpp"
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/text_report.hpp>

#include "made_up_records.hpp"

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <gpuchrono/api.hpp>

using gpuchrono::ActivityKind;
using gpuchrono::KernelActivity;
namespace cupti = gpuchrono::cupti;

namespace {

KernelActivity record(std::string name, std::uint64_t start, std::uint64_t end, std::uint32_t correlation,
                      std::uint32_t stream = 7, int device = 0) {
    return gpuchrono::test::made_up_kernel(std::move(name), start, end, correlation, stream, 0, device);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_policy)

BOOST_AUTO_TEST_CASE(busy_time_is_the_union_and_span_runs_first_start_to_last_end) {
    // Two overlapping kernels (100..300, 200..400), one nested in the first (120..150), one after a gap (500..600).
    const std::vector<KernelActivity> r = {record("a", 100, 300, 1), record("b", 200, 400, 2),
                                           record("nested", 120, 150, 3), record("later", 500, 600, 4)};
    BOOST_TEST(cupti::busy_ns(r) == 400u);  // 100..400 and 500..600
    BOOST_TEST(cupti::span_ns(r) == 500u);  // 100..600
    BOOST_TEST(cupti::busy_ns({}) == 0u);
    BOOST_TEST(cupti::span_ns({}) == 0u);
    // Back to back intervals touch, and count once.
    const std::vector<KernelActivity> touching = {record("x", 0, 10, 1), record("y", 10, 30, 2)};
    BOOST_TEST(cupti::busy_ns(touching) == 30u);
}

BOOST_AUTO_TEST_CASE(an_activity_that_ends_before_it_starts_adds_no_time) {
    const std::vector<KernelActivity> r = {record("broken", 500, 400, 1), record("ok", 1000, 1100, 2)};
    BOOST_TEST(cupti::busy_ns(r) == 100u);
    BOOST_TEST(r[0].duration_ns() == 0u);
}

BOOST_AUTO_TEST_CASE(stream_mode_counts_the_timed_stream_and_lists_the_rest) {
    std::vector<KernelActivity> launched = {record("mine", 100, 200, 1, 7), record("other stream", 150, 300, 2, 9),
                                            record("mine too", 300, 350, 3, 7), record("other device", 100, 200, 4, 7, 1)};
    const cupti::Attribution a = cupti::attribute(launched, cupti::ScopeFilter{true, 7, 0});
    BOOST_REQUIRE(a.counted.size() == 2u);
    BOOST_TEST(a.counted[0].name == "mine");
    BOOST_TEST(a.counted[1].name == "mine too");
    BOOST_REQUIRE(a.elsewhere.size() == 2u);
    BOOST_TEST(cupti::busy_ns(a.counted) == 150u);
    BOOST_TEST(cupti::describe_activities(a.elsewhere).find("other stream x1 (device 0, stream 9)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(thread_mode_counts_every_stream_and_flags_another_device) {
    std::vector<KernelActivity> launched = {record("s7", 100, 200, 1, 7), record("s9", 150, 300, 2, 9),
                                            record("device 1", 400, 500, 3, 4, 1)};
    const cupti::Attribution a = cupti::attribute(launched, cupti::ScopeFilter{false, 7, 0});
    BOOST_TEST(a.counted.size() == 3u);
    BOOST_REQUIRE(a.elsewhere.size() == 1u);
    BOOST_TEST(a.elsewhere[0].name == "device 1");
    BOOST_TEST(cupti::busy_ns(a.counted) == 300u);  // 100..300 and 400..500
}

BOOST_AUTO_TEST_CASE(overlap_with_other_streams_is_measured_against_the_busy_intervals_on_the_same_device) {
    const std::vector<KernelActivity> mine = {record("mine", 100, 200, 1, 7), record("mine 2", 300, 400, 2, 7)};
    const std::vector<KernelActivity> others = {
        record("across the gap", 150, 350, 10, 9),  // 50 + 50 shared, 100 in the gap between mine
        record("before", 0, 90, 11, 9),              // no overlap
        record("inside", 310, 320, 12, 9),           // 10
        record("other device", 100, 400, 13, 9, 1),  // another device: not sharing SMs with mine
        record("mine again", 100, 200, 1, 7),        // one of mine (same correlation id): not "other"
    };
    const std::vector<cupti::Overlap> o = cupti::overlapping_work(mine, others);
    BOOST_REQUIRE(o.size() == 2u);
    BOOST_TEST(o[0].name == "across the gap");
    BOOST_TEST(o[0].overlap_ns == 100u);
    BOOST_TEST(o[0].stream == 9u);
    BOOST_TEST(o[1].name == "inside");
    BOOST_TEST(o[1].overlap_ns == 10u);
    BOOST_TEST(cupti::overlapping_work({}, others).empty());
}

// Overlap is reported as warning-level only where it could cost the reading more than about a microsecond:
// kernels that each had SMs of their own beside the scope's do not share them.
BOOST_AUTO_TEST_CASE(kernels_whose_blocks_fit_on_separate_sms_run_beside_the_scope) {
    auto kernel = [](std::string name, std::uint64_t start, std::uint64_t end, std::uint32_t corr, std::uint32_t blocks) {
        KernelActivity r = record(std::move(name), start, end, corr, 9);
        r.grid[0] = blocks;
        r.grid[1] = 1;
        r.grid[2] = 1;
        return r;
    };
    std::vector<KernelActivity> mine = {kernel("mine", 100, 200, 1, 2)};
    mine[0].stream = 7;
    const std::vector<KernelActivity> small = {kernel("a", 120, 180, 10, 1), kernel("b", 150, 250, 11, 1)};
    const std::vector<cupti::Overlap> o = cupti::overlapping_work(mine, small);
    BOOST_REQUIRE(o.size() == 2u);
    BOOST_TEST(o[0].blocks == 1u);
    BOOST_TEST(cupti::fits_beside(mine, o, 132));   // 2 + 1 + 1 blocks on 132 SMs
    BOOST_TEST(cupti::fits_beside(mine, o, 16));    // the two beside hold an eighth of 16 SMs
    BOOST_TEST(!cupti::fits_beside(mine, o, 12));   // more than an eighth: they may take the memory's bandwidth
    BOOST_TEST(!cupti::fits_beside(mine, o, 3));    // one SM would hold two blocks
    BOOST_TEST(!cupti::fits_beside(mine, o, 0));    // unknown SM count: say the worse
    const std::vector<KernelActivity> big = {kernel("wide", 120, 180, 12, 200)};
    BOOST_TEST(!cupti::fits_beside(mine, cupti::overlapping_work(mine, big), 132));
    // Half the SMs beside the scope's: every block has an SM of its own, but the memory is shared.
    const std::vector<KernelActivity> half = {kernel("copy on the other half", 120, 180, 14, 66)};
    BOOST_TEST(!cupti::fits_beside(mine, cupti::overlapping_work(mine, half), 132));
    KernelActivity copy = record("memcpy DtoD", 120, 180, 13, 9);
    copy.kind = gpuchrono::ActivityKind::memcpy;
    const std::vector<cupti::Overlap> with_copy = cupti::overlapping_work(mine, std::vector<KernelActivity>{copy});
    BOOST_REQUIRE(with_copy.size() == 1u);
    BOOST_TEST(with_copy[0].blocks == 0u);
    BOOST_TEST(!cupti::fits_beside(mine, with_copy, 132));  // a copy draws on the scope's memory
    BOOST_TEST((gpuchrono::find_finding_kind(gpuchrono::codes::concurrent_work_beside)->severity == gpuchrono::Severity::info));
    BOOST_TEST((gpuchrono::find_finding_kind(gpuchrono::codes::concurrent_work_overlapped)->severity == gpuchrono::Severity::warning));
}

namespace {

KernelActivity kernel_of(std::string name, std::uint64_t start, std::uint64_t end, std::uint32_t corr,
                         std::uint32_t blocks, std::uint32_t stream) {
    KernelActivity r = record(std::move(name), start, end, corr, stream);
    r.grid[0] = blocks;
    r.grid[1] = 1;
    r.grid[2] = 1;
    return r;
}

}  // namespace

// Work beside a scope's lengthens its reading by at most the time both ran: the union of the overlaps, each
// instant once however many others ran then, and none of the time before the scope's first record started.
BOOST_AUTO_TEST_CASE(the_overlapped_time_is_the_union_of_the_overlaps_on_the_scope_s_device) {
    const std::vector<KernelActivity> mine = {kernel_of("mine", 1000, 2000, 1, 264, 7), kernel_of("mine 2", 3000, 4000, 2, 264, 7)};
    const std::vector<KernelActivity> others = {
        kernel_of("a", 1500, 2500, 10, 264, 9),        // 500 with mine, then 500 in the gap
        kernel_of("b", 1800, 3200, 11, 264, 8),        // 1800..2000 (already in a's) and 3000..3200
        kernel_of("held the SMs first", 0, 1000, 12, 264, 9),  // ended as mine started: no overlap
        kernel_of("other device", 1000, 4000, 13, 264, 9),
        kernel_of("mine again", 1000, 2000, 1, 264, 7),  // one of mine (same correlation id)
    };
    std::vector<KernelActivity> elsewhere = others;
    elsewhere[3].device = 1;
    BOOST_TEST(cupti::overlapped_ns(mine, elsewhere) == 700u);  // 1500..2000 and 3000..3200
    BOOST_TEST(cupti::overlapped_ns(mine, {}) == 0u);
    BOOST_TEST(cupti::overlapped_ns({}, elsewhere) == 0u);
    const std::vector<KernelActivity> before = {kernel_of("ended before", 0, 999, 14, 264, 9)};
    BOOST_TEST(cupti::overlapped_ns(mine, before) == 0u);
    BOOST_TEST(cupti::work_beside(mine, before, 132).overlaps.empty());
    BOOST_TEST(!cupti::work_beside(mine, before, 132).may_stretch());
}

// The warning is kept for work that shared the scope's SMs or memory long enough to matter: a memory-bound
// scope beside another stream's copies, a compute kernel beside a full device.
BOOST_AUTO_TEST_CASE(work_sharing_the_sms_for_long_enough_may_stretch_the_reading) {
    // A 50 us kernel of 2 blocks per SM beside another stream's kernels of 2 blocks per SM for 20 us of it.
    const std::vector<KernelActivity> mine = {kernel_of("scale", 100'000, 150'000, 1, 264, 7)};
    const std::vector<KernelActivity> neighbour = {kernel_of("copy", 80'000, 110'000, 10, 264, 9),
                                                   kernel_of("copy", 140'000, 170'000, 11, 264, 9)};
    const cupti::WorkBeside w = cupti::work_beside(mine, neighbour, 132);
    BOOST_REQUIRE(w.overlaps.size() == 2u);
    BOOST_TEST(w.overlapped_ns == 20'000u);
    BOOST_TEST(w.busy_ns == 50'000u);
    BOOST_TEST(!w.fits);
    BOOST_TEST(w.may_stretch());
    BOOST_TEST(w.scope_wide);  // 264 blocks on 132 SMs
    BOOST_TEST(w.stretches());
    // A copy beside a one-block kernel shares its memory: the blocks alone do not make it fit.
    KernelActivity copy = record("memcpy DtoD", 100'000, 160'000, 12, 9);
    copy.kind = ActivityKind::memcpy;
    const std::vector<KernelActivity> one_block = {kernel_of("one block", 100'000, 150'000, 2, 1, 7)};
    BOOST_TEST(cupti::work_beside(one_block, std::vector<KernelActivity>{copy}, 132).may_stretch());
    // An SM count that cannot be read: the worse is said.
    const std::vector<KernelActivity> small = {kernel_of("small", 100'000, 150'000, 13, 1, 9)};
    BOOST_TEST(cupti::work_beside(one_block, small, 0).may_stretch());
}

// Only a wide scope's reading is stretched by sharing for certain: a narrow kernel on a shared SM is slowed or not
// by what it does there (a spin waits on the clock, an FMA kernel shares the issue slots).
BOOST_AUTO_TEST_CASE(sharing_stretches_a_wide_scope_and_may_or_may_not_a_narrow_one) {
    const std::vector<KernelActivity> full = {kernel_of("full device", 100'000, 150'000, 20, 132, 9)};
    const std::vector<KernelActivity> one_block = {kernel_of("one block", 100'000, 150'000, 21, 1, 7)};
    const std::vector<KernelActivity> at_an_eighth = {kernel_of("sixteen blocks", 100'000, 150'000, 22, 16, 7)};
    const std::vector<KernelActivity> past_an_eighth = {kernel_of("seventeen blocks", 100'000, 150'000, 23, 17, 7)};
    BOOST_TEST(!cupti::wide_work(one_block, 132));
    BOOST_TEST(!cupti::wide_work(at_an_eighth, 132));  // 132 / 8 = 16 blocks
    BOOST_TEST(cupti::wide_work(past_an_eighth, 132));
    BOOST_TEST(cupti::wide_work(full, 132));
    BOOST_TEST(!cupti::wide_work(full, 0));  // the SM count unknown: no kernel is known to be wide
    KernelActivity copy = record("memcpy DtoD", 100'000, 160'000, 24, 7);
    copy.kind = ActivityKind::memcpy;
    BOOST_TEST(cupti::wide_work(std::vector<KernelActivity>{copy}, 0));  // a copy reaches the device's memory
    const cupti::WorkBeside narrow = cupti::work_beside(one_block, full, 132);
    BOOST_TEST(narrow.may_stretch());
    BOOST_TEST(!narrow.stretches());
    const cupti::WorkBeside wide = cupti::work_beside(past_an_eighth, full, 132);
    BOOST_TEST(wide.stretches());
}

BOOST_AUTO_TEST_CASE(kernels_on_separate_sms_or_a_brief_overlap_are_work_beside_not_a_warning) {
    const std::vector<KernelActivity> mine = {kernel_of("spin", 100'000, 120'000, 1, 1, 7)};
    // Three other one-block kernels for all of the scope's 20 us: every block had an SM of its own.
    const std::vector<KernelActivity> fitting = {kernel_of("a", 95'000, 125'000, 10, 1, 8),
                                                 kernel_of("b", 99'000, 121'000, 11, 1, 9),
                                                 kernel_of("c", 101'000, 119'000, 12, 1, 10)};
    const cupti::WorkBeside beside = cupti::work_beside(mine, fitting, 132);
    BOOST_TEST(beside.overlapped_ns == 20'000u);
    BOOST_TEST(beside.fits);
    BOOST_TEST(!beside.may_stretch());
    BOOST_TEST(cupti::work_beside(mine, fitting, 3).may_stretch());  // 4 blocks on 3 SMs share one
    // A full-device kernel that ended 400 ns into the scope's: it cannot have lengthened the reading by more.
    const std::vector<KernelActivity> tail = {kernel_of("wide", 50'000, 100'400, 13, 8448, 9)};
    const cupti::WorkBeside brief = cupti::work_beside(mine, tail, 132);
    BOOST_TEST(brief.overlapped_ns == 400u);
    BOOST_TEST(!brief.fits);
    BOOST_TEST(!brief.may_stretch());
    // At the floor it may: 500 ns, and 1% of a 20 us reading is 200 ns.
    const std::vector<KernelActivity> at_floor = {kernel_of("wide", 50'000, 100'000 + cupti::stretch_floor_ns, 13, 8448, 9)};
    BOOST_TEST(cupti::work_beside(mine, at_floor, 132).may_stretch());
    // On a 10 ms kernel, 50 us beside it is under 1% of the reading: beside, not a warning.
    const std::vector<KernelActivity> long_one = {kernel_of("long", 0, 10'000'000, 2, 264, 7)};
    const std::vector<KernelActivity> fifty = {kernel_of("wide", 5'000'000, 5'050'000, 14, 8448, 9)};
    BOOST_TEST(!cupti::work_beside(long_one, fifty, 132).may_stretch());
    const std::vector<KernelActivity> two_hundred = {kernel_of("wide", 5'000'000, 5'200'000, 14, 8448, 9)};
    BOOST_TEST(cupti::work_beside(long_one, two_hundred, 132).may_stretch());
}

BOOST_AUTO_TEST_CASE(the_store_keeps_records_that_arrive_after_stop_until_the_scope_collects) {
    cupti::ActivityStore store;
    const auto w = store.open_window(1000);
    // The scope stopped; CUPTI delivers later, out of order, in two buffers.
    store.add({record("second", 1500, 1600, 2)});
    store.add({record("first", 1100, 1400, 1), record("someone else's", 1200, 1300, 99, 9)});
    const std::vector<std::uint32_t> mine = {1, 2};
    const cupti::ActivityStore::Collected got = store.collect(mine, 1000);
    BOOST_TEST(got.launched.size() == 2u);
    BOOST_REQUIRE(got.others.size() == 1u);
    BOOST_TEST(got.others[0].name == "someone else's");
    store.close_window(w);
    BOOST_TEST(store.size() == 0u);  // no scope wants anything now
}

BOOST_AUTO_TEST_CASE(with_no_scope_open_arriving_records_are_dropped_at_once) {
    cupti::ActivityStore store;
    store.add({record("nobody's", 100, 200, 1)});
    BOOST_TEST(store.size() == 0u);
}

BOOST_AUTO_TEST_CASE(records_ending_before_every_open_window_are_pruned) {
    cupti::ActivityStore store;
    const auto early = store.open_window(100);
    const auto late = store.open_window(1000);
    store.add({record("old", 150, 200, 1), record("new", 1100, 1200, 2)});
    BOOST_TEST(store.size() == 2u);  // the early window still wants "old"
    store.close_window(early);
    BOOST_TEST(store.size() == 1u);
    store.close_window(late);
    BOOST_TEST(store.size() == 0u);
}

BOOST_AUTO_TEST_CASE(nested_scopes_share_records) {
    cupti::ActivityStore store;
    const auto outer = store.open_window(0);
    const auto inner = store.open_window(100);
    store.add({record("before inner", 10, 50, 1), record("in both", 150, 250, 2)});
    const std::vector<std::uint32_t> inner_ids = {2}, outer_ids = {1, 2};
    BOOST_TEST(store.collect(inner_ids, 100).launched.size() == 1u);
    store.close_window(inner);
    const auto got = store.collect(outer_ids, 0);
    BOOST_TEST(got.launched.size() == 2u);
    BOOST_TEST(cupti::busy_ns(got.launched) == 140u);
    store.close_window(outer);
}

BOOST_AUTO_TEST_CASE(a_stream_mode_scope_takes_its_marks_and_only_the_records_they_can_bound) {
    cupti::ActivityStore store;
    const auto w = store.open_window(1000);
    KernelActivity start_mark = record("gpuchrono_stream_marker", 1010, 1020, 10);
    start_mark.block[0] = 5;
    start_mark.block[1] = 1;
    KernelActivity stop_mark = record("gpuchrono_stream_marker", 1500, 1510, 14);
    stop_mark.block[0] = 5;
    stop_mark.block[1] = 2;
    KernelActivity later_mark = record("gpuchrono_stream_marker", 1600, 1610, 20);
    later_mark.block[0] = 6;
    store.add({start_mark, record("mine", 1030, 1400, 12), stop_mark, later_mark,
               record("beside, ended before the start", 900, 990, 3, 9),
               record("beside, overlapping", 1300, 1700, 11, 9),
               record("launched between the marks, ran late elsewhere", 2000, 2100, 13, 9),
               record("a later scope's work", 1620, 1900, 21)});
    const std::vector<KernelActivity> marks = store.marks(5, 1000);
    BOOST_TEST(marks.size() == 2u);  // not the other token's, not the user's kernels
    const std::vector<KernelActivity> held = store.collect_bounded(1000, stop_mark.end_ns, 10, 14);
    std::vector<std::string> names;
    for (const KernelActivity& r : held) names.push_back(r.name);
    const std::vector<std::string> expected = {"gpuchrono_stream_marker", "mine", "gpuchrono_stream_marker",
                                               "beside, overlapping", "launched between the marks, ran late elsewhere"};
    BOOST_TEST(names == expected, boost::test_tools::per_element());
    store.close_window(w);
}

BOOST_AUTO_TEST_CASE(two_threads_collect_their_own_launches_while_records_arrive_from_a_third) {
    cupti::ActivityStore store;
    const auto w1 = store.open_window(0);
    const auto w2 = store.open_window(0);
    std::thread cupti_thread([&] {
        for (std::uint32_t i = 0; i < 1000; ++i)
            store.add({record(i % 2 ? "odd" : "even", 10 * i, 10 * i + 5, i, i % 2 ? 9 : 7)});
    });
    cupti_thread.join();
    std::vector<std::uint32_t> even, odd;
    for (std::uint32_t i = 0; i < 1000; ++i) (i % 2 ? odd : even).push_back(i);
    std::vector<KernelActivity> got_even, got_odd;
    std::thread a([&] { got_even = store.collect(even, 0).launched; });
    std::thread b([&] { got_odd = store.collect(odd, 0).launched; });
    a.join();
    b.join();
    BOOST_TEST(got_even.size() == 500u);
    BOOST_TEST(got_odd.size() == 500u);
    for (const KernelActivity& r : got_even) BOOST_TEST(r.name == "even");
    BOOST_TEST(cupti::busy_ns(got_odd) == 2500u);
    store.close_window(w1);
    store.close_window(w2);
}

BOOST_AUTO_TEST_CASE(dropped_records_are_counted) {
    cupti::ActivityStore store;
    BOOST_TEST(store.dropped() == 0u);
    store.add_dropped(3);
    store.add_dropped(4);
    BOOST_TEST(store.dropped() == 7u);
}

BOOST_AUTO_TEST_CASE(measurements_carry_activities_and_span) {
    gpuchrono::Measurement m = gpuchrono::Measurement::completed("kernel", gpuchrono::Duration::from_ns(400), 0);
    BOOST_TEST(m.activities().empty());
    BOOST_TEST(!m.span().has_value());
    m.set_activities({record("a", 100, 300, 1), record("b", 400, 600, 2)}, gpuchrono::Duration::from_ns(500));
    BOOST_TEST(m.activities().size() == 2u);
    BOOST_TEST(m.span()->ns() == 500.0);
}

BOOST_AUTO_TEST_CASE(the_cupti_codes_are_catalogued) {
    for (std::string_view code : {gpuchrono::codes::kernel_no_activity, gpuchrono::codes::kernel_activity_elsewhere,
                                  gpuchrono::codes::kernel_records_dropped, gpuchrono::codes::kernel_records_late,
                                  gpuchrono::codes::concurrent_work_overlapped,
                                  gpuchrono::codes::cupti_unavailable}) {
        const gpuchrono::FindingKind* kind = gpuchrono::find_finding_kind(code);
        BOOST_REQUIRE(kind != nullptr);
    }
    BOOST_TEST(gpuchrono::find_finding_kind(gpuchrono::codes::concurrent_work_overlapped)->pitfall_row == 9);
}

BOOST_AUTO_TEST_CASE(reports_list_activities_in_a_table_and_as_trace_slices_per_stream) {
    gpuchrono::report::Report r = gpuchrono::report::new_report();
    gpuchrono::report::Experiment e;
    e.id = "kernels";
    e.activities = {record("reduce<float>", 1000, 3000, 1, 7), record("reduce<float>", 4000, 5000, 2, 7),
                    record("tail", 5000, 5500, 3, 9)};
    e.activities[2].kind = ActivityKind::memcpy;
    r.experiments.push_back(e);
    const std::string text = gpuchrono::report::render_text(r);
    BOOST_TEST(text.find("GPU activities") != std::string::npos);
    // One row per (kind, name): reduce<float> twice, total 3.00 us, median 1.50 us.
    const auto row = text.find("reduce<float>");
    BOOST_REQUIRE(row != std::string::npos);
    const std::string line = text.substr(row, text.find('\n', row) - row);
    BOOST_TEST(line.find(" 2 ") != std::string::npos, line);
    BOOST_TEST(line.find("3.00") != std::string::npos, line);
    BOOST_TEST(line.find("1.50") != std::string::npos, line);
    const std::string trace = gpuchrono::report::render_chrome_trace(r);
    BOOST_TEST(trace.find("GPU 0 activities") != std::string::npos);
    BOOST_TEST(trace.find("stream 9") != std::string::npos, trace.substr(0, 600));
    BOOST_TEST(trace.find("\"tail\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(available_answers_without_throwing) {
    bool answer = false;
    BOOST_CHECK_NO_THROW(answer = gpuchrono::KernelPolicy::available());
    const std::string why = gpuchrono::KernelPolicy::unavailable_reason();
    BOOST_TEST(answer == why.empty());
    BOOST_TEST_MESSAGE("KernelPolicy::available() = " << answer << (why.empty() ? "" : ": " + why));
}

BOOST_AUTO_TEST_SUITE_END()
