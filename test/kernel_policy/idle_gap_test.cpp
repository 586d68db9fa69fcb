// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpu-idle-before on made-up records: how long a device ran none of the process's work before a scope's first
// activity (idle_gap.hpp), what the activity store keeps for it (ActivityStore::prior_work), and when the finding
// is attached (checks/check_idle_gap.hpp). No CUPTI, no GPU.
#include <boost/test/unit_test.hpp>

#include <gpuchrono/core/finding_catalog.hpp>
#include "cupti/activity_store.hpp"
#include "policies/kernel/idle_gap.hpp"
#include "checks/check_idle_gap.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gpuchrono/api.hpp>

#include "made_up_records.hpp"

using gpuchrono::KernelActivity;
namespace idle = gpuchrono::idle_gap;
namespace cupti = gpuchrono::cupti;

namespace {

constexpr std::uint64_t us = 1000;
constexpr std::uint64_t since = 1'000'000;  // when CUPTI's records began
constexpr std::uint64_t t = 10'000'000;     // the scope's first activity starts here

KernelActivity work(std::string name, std::uint64_t start, std::uint64_t end, std::uint32_t stream = 7, int device = 0) {
    return gpuchrono::test::made_up_kernel(std::move(name), start, end, 0, stream, 0, device);
}

KernelActivity mark(std::uint64_t start, std::uint64_t end, std::uint32_t stream = 7, int device = 0) {
    KernelActivity a = work("gpuchrono_stream_marker", start, end, stream, device);
    a.block[0] = 3;
    a.block[1] = 1;
    a.block[2] = 1;
    return a;
}

const KernelActivity first = work("spin_kernel", t, t + 20 * us);

idle::IdleGap gap_of(const std::vector<KernelActivity>& held, idle::Prior prior = {}) {
    return idle::idle_gap(first, {held}, prior, since);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(idle_gap)

BOOST_AUTO_TEST_CASE(the_gap_runs_from_the_latest_end_of_earlier_work_on_the_device_to_the_first_activity) {
    // Work of two streams before it; the latest ended 300 us before the first activity.
    const std::vector<KernelActivity> held = {work("early", t - 900 * us, t - 800 * us, 9),
                                              work("memcpy HtoD", t - 400 * us, t - 300 * us, 11), first};
    const idle::IdleGap g = gap_of(held);
    BOOST_TEST(g.known);
    BOOST_TEST(g.gap_ns == 300 * us);
    BOOST_TEST(g.last_work_end_ns == t - 300 * us);
    BOOST_REQUIRE(g.last_work_name.has_value());
    BOOST_TEST(*g.last_work_name == "memcpy HtoD");
    BOOST_TEST(*g.last_work_stream == 11u);
    BOOST_TEST(g.device == 0);
    BOOST_TEST(g.stream == 7u);
    BOOST_TEST(!g.mark_gap_ns.has_value());  // no mark recorded
}

BOOST_AUTO_TEST_CASE(work_still_running_when_the_first_activity_starts_leaves_no_gap) {
    // A long kernel of another stream began before and ends after the first activity's start: the device was busy.
    // (The first activity's own stream has no earlier work here; a stream idle past its threshold would attach
    // the finding on its own: a_stream_idle_past_its_threshold_attaches_the_finding_though_the_device_was_busy.)
    const std::vector<KernelActivity> held = {work("long", t - 50 * us, t + 500 * us, 9), work("old", t - 900 * us, t - 800 * us, 9)};
    const idle::IdleGap g = gap_of(held);
    BOOST_TEST(g.known);
    BOOST_TEST(g.gap_ns == 0u);
    BOOST_TEST(!idle::idle_before_finding(g).has_value());
}

BOOST_AUTO_TEST_CASE(work_that_starts_with_or_after_the_first_activity_is_not_before_it) {
    // The scope's own later kernels and another stream's kernel that starts at the same instant: none is earlier
    // work, so the gap runs from the work 200 us before.
    const std::vector<KernelActivity> held = {work("before", t - 250 * us, t - 200 * us), first,
                                              work("same instant", t, t + 5 * us, 9), work("own later", t + 30 * us, t + 50 * us)};
    const idle::IdleGap g = gap_of(held);
    BOOST_TEST(g.gap_ns == 200 * us);
    BOOST_TEST(*g.last_work_name == "before");
}

BOOST_AUTO_TEST_CASE(other_devices_work_is_not_this_devices) {
    const std::vector<KernelActivity> held = {work("device 1, just before", t - 2 * us, t - 1 * us, 7, 1),
                                              work("device 0", t - 400 * us, t - 350 * us)};
    BOOST_TEST(gap_of(held).gap_ns == 350 * us);
}

BOOST_AUTO_TEST_CASE(stream_marks_are_not_work_and_are_reported_beside_the_gap) {
    // A stream-mode scope after the device idled: its own start mark ran 3 us before its kernel, another scope's
    // mark 40 us before; the last real work ended 250 us before. The H100's stretched readings had exactly this
    // shape, so the gap must be the 250 us.
    const std::vector<KernelActivity> held = {work("previous spin", t - 270 * us, t - 250 * us, 7),
                                              mark(t - 41 * us, t - 40 * us, 9), mark(t - 5 * us, t - 3 * us, 7), first};
    const idle::IdleGap g = gap_of(held);
    BOOST_TEST(g.known);
    BOOST_TEST(g.gap_ns == 250 * us);
    BOOST_REQUIRE(g.mark_gap_ns.has_value());
    BOOST_TEST(*g.mark_gap_ns == 3 * us);
    const auto f = idle::idle_before_finding(g);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->evidence_or("mark_gap_ns", -1) == 3000.0);
    BOOST_TEST(f->message.find("stream marks there ended 3.") != std::string::npos, f->message);
}

BOOST_AUTO_TEST_CASE(what_ended_before_the_window_comes_from_the_store_and_the_later_of_the_two_wins) {
    // Held records end at or after the window's start; earlier ones are known only by their latest end.
    const idle::Prior prior{t - 150 * us, t - 140 * us};
    const idle::IdleGap only_prior = gap_of({first}, prior);
    BOOST_TEST(only_prior.known);
    BOOST_TEST(only_prior.gap_ns == 150 * us);
    BOOST_TEST(!only_prior.last_work_name.has_value());  // its record is not held: not named
    BOOST_TEST(*only_prior.mark_gap_ns == 140 * us);
    const idle::IdleGap held_later = gap_of({work("held", t - 120 * us, t - 110 * us), first}, prior);
    BOOST_TEST(held_later.gap_ns == 110 * us);
    BOOST_TEST(*held_later.last_work_name == "held");
    const idle::IdleGap prior_later = gap_of({work("held", t - 300 * us, t - 290 * us), first}, prior);
    BOOST_TEST(prior_later.gap_ns == 150 * us);
    BOOST_TEST(!prior_later.last_work_name.has_value());
}

BOOST_AUTO_TEST_CASE(with_no_work_recorded_the_gap_is_only_a_lower_bound_since_the_records_began) {
    const idle::IdleGap g = gap_of({first});
    BOOST_TEST(!g.known);
    BOOST_TEST(g.gap_ns == t - since);
    const auto f = idle::idle_before_finding(g);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->evidence_or("gap_known", -1) == 0.0);
    BOOST_TEST(f->message.find("no work of this process was recorded on device 0 in the 9.") != std::string::npos, f->message);
    BOOST_TEST(f->message.find("idle, or its work ran before the records began") != std::string::npos, f->message);
    BOOST_TEST(f->fix.find(" or more runs up to ~1-2 us longer") != std::string::npos, f->fix);
    // Records that began just before the scope say nothing: no finding, rather than a made-up gap.
    const KernelActivity soon = work("spin_kernel", since + 40 * us, since + 60 * us);
    const idle::IdleGap short_since = idle::idle_gap(soon, {}, {}, since);
    BOOST_TEST(!short_since.known);
    BOOST_TEST(short_since.gap_ns == 40 * us);
    BOOST_TEST(!idle::idle_before_finding(short_since).has_value());
    // Without a start of the records, nothing at all is known.
    BOOST_TEST(!idle::idle_before_finding(idle::idle_gap(first, {}, {}, 0)).has_value());
}

BOOST_AUTO_TEST_CASE(work_recorded_only_before_the_records_began_again_leaves_the_gap_unknown) {
    // The range profiler silenced the records from t - 5 ms until t - 400 us (recording began again then): work
    // that ran meanwhile left none, so the 5 ms since the last record is not the gap; 400 us is its lower bound.
    const KernelActivity late = work("spin_kernel", t, t + 10 * us);
    const idle::IdleGap g =
        idle::idle_gap(late, {}, idle::Prior{t - 5000 * us, 0}, t - 400 * us);
    BOOST_TEST(!g.known);
    BOOST_TEST(g.gap_ns == 400 * us);
}

BOOST_AUTO_TEST_CASE(the_finding_starts_at_the_threshold_and_carries_the_numbers_and_the_fix) {
    const std::uint64_t threshold = idle::idle_gap_threshold_ns;
    BOOST_TEST(threshold == 100 * us);
    // The device's threshold alone: the earlier work ran on another stream (9), so the first activity's stream (7)
    // has no gap of its own to count (its threshold is lower, the next case).
    const idle::IdleGap below = gap_of({work("w", t - threshold, t - threshold + 1, 9), first});
    BOOST_TEST(below.gap_ns == threshold - 1);
    BOOST_TEST(!below.stream_known);
    BOOST_TEST(!idle::idle_before_finding(below).has_value());
    const idle::IdleGap at = gap_of({work("w", t - threshold - 10, t - threshold, 9), first});
    const auto f = idle::idle_before_finding(at);
    BOOST_REQUIRE(f.has_value());
    const gpuchrono::FindingKind* kind = gpuchrono::find_finding_kind(gpuchrono::codes::gpu_idle_before);
    BOOST_REQUIRE(kind != nullptr);
    BOOST_TEST(f->code == "gpu-idle-before");
    BOOST_TEST((f->severity == gpuchrono::Severity::info));  // the reading is right; it needs its context
    BOOST_TEST(f->evidence_or("idle_gap_ns", -1) == static_cast<double>(threshold));
    BOOST_TEST(f->evidence_or("gap_known", -1) == 1.0);
    BOOST_TEST(f->evidence_or("threshold_ns", -1) == static_cast<double>(threshold));
    BOOST_TEST(f->evidence_or("device", -1) == 0.0);
    BOOST_TEST(f->evidence_or("stream", -1) == 7.0);
    BOOST_TEST(f->evidence_or("mark_gap_ns", -1) == -1.0);  // no mark recorded
    BOOST_TEST(f->message.find("device 0 had run none of this process's work for 100") != std::string::npos, f->message);
    BOOST_TEST(f->message.find("spin_kernel (stream 7)") != std::string::npos, f->message);
    BOOST_TEST(f->message.find("(the last was w on stream 9)") != std::string::npos, f->message);
    BOOST_TEST(f->message.find("another process's kernels may have kept the GPU busy") != std::string::npos, f->message);
    BOOST_TEST(f->message.find("dropped") == std::string::npos, f->message);
    BOOST_TEST(f->fix.find("warm the GPU / keep work queued: the first kernel after an idle gap of 100") == 0u, f->fix);
    BOOST_TEST(f->fix.find("docs/pitfalls.md") != std::string::npos, f->fix);
    const auto with_drops = idle::idle_before_finding(at, 12);
    BOOST_TEST(with_drops->message.find("CUPTI has dropped 12 records") != std::string::npos, with_drops->message);
}

// The readings stretched on the H100 followed 100-860 us of idle on their own stream while other threads'
// streams kept the device busy until 4-121 us before: the stream's gap attaches the finding on its own.
BOOST_AUTO_TEST_CASE(a_stream_idle_past_its_threshold_attaches_the_finding_though_the_device_was_busy) {
    const std::uint64_t stream_threshold = idle::stream_idle_threshold_ns;
    BOOST_TEST(stream_threshold == 80 * us);
    // Its own stream (7) last ran 300 us before, another stream (9) until 30 us before.
    const idle::IdleGap g = gap_of({work("own", t - 400 * us, t - 300 * us, 7), work("other", t - 80 * us, t - 30 * us, 9), first});
    BOOST_TEST(g.gap_ns == 30 * us);
    BOOST_TEST(g.stream_known);
    BOOST_TEST(g.stream_gap_ns == 300 * us);
    const auto f = idle::idle_before_finding(g);
    BOOST_REQUIRE(f.has_value());
    BOOST_TEST(f->evidence_or("stream_idle_gap_ns", -1) == static_cast<double>(300 * us));
    BOOST_TEST(f->evidence_or("idle_gap_ns", -1) == static_cast<double>(30 * us));
    BOOST_TEST(f->message.find("stream 7 of device 0 had run none of this process's work for 300") != std::string::npos,
               f->message);
    BOOST_TEST(f->fix.find("an idle gap of 300") != std::string::npos, f->fix);
    // Below the stream's threshold, with the device busy: nothing.
    const idle::IdleGap short_gap = gap_of({work("own", t - 150 * us, t - stream_threshold + 1, 7),
                                            work("other", t - 80 * us, t - 30 * us, 9), first});
    BOOST_TEST(short_gap.stream_gap_ns == stream_threshold - 1);
    BOOST_TEST(!idle::idle_before_finding(short_gap).has_value());
    // Marks on the stream are not work there either.
    const idle::IdleGap marked = gap_of({work("own", t - 400 * us, t - 300 * us, 7), mark(t - 5 * us, t - 3 * us, 7),
                                         work("other", t - 80 * us, t - 30 * us, 9), first});
    BOOST_TEST(marked.stream_gap_ns == 300 * us);
    // A stream with no work since the records began says nothing beyond the device's gap.
    const idle::IdleGap fresh = gap_of({work("other", t - 80 * us, t - 30 * us, 9), first});
    BOOST_TEST(!fresh.stream_known);
    BOOST_TEST(!idle::idle_before_finding(fresh).has_value());
}

BOOST_AUTO_TEST_CASE(the_store_keeps_the_latest_end_of_each_stream_before_a_window) {
    cupti::ActivityStore store;
    store.add({work("a", 100, 200, 7), work("b", 300, 400, 9)});
    const cupti::ActivityStore::Window w = store.open_window(1000);
    store.add({work("late a", 500, 600, 7), work("after", 1100, 1200, 7)});  // delivered after it opened
    BOOST_TEST(store.prior_work(w, 0, 7).stream_work_end_ns == 600u);
    BOOST_TEST(store.prior_work(w, 0, 9).stream_work_end_ns == 400u);
    BOOST_TEST(store.prior_work(w, 0, 11).stream_work_end_ns == 0u);
    BOOST_TEST(store.prior_work(w, 0, 7).work_end_ns == 600u);
    store.close_window(w);
}

BOOST_AUTO_TEST_CASE(the_store_keeps_the_latest_end_before_each_window_whatever_the_order_of_delivery) {
    cupti::ActivityStore store;
    // Delivered with no window open: the records go, their ends stay.
    store.add({work("long ago", 100, 200), work("on device 1", 100, 900, 7, 1)});
    const auto w = store.open_window(1000);
    BOOST_TEST(store.prior_work(w, 0).work_end_ns == 200u);
    BOOST_TEST(store.prior_work(w, 1).work_end_ns == 900u);
    BOOST_TEST(store.prior_work(w, 5).work_end_ns == 0u);  // a device never seen
    // Delivered while it is open, out of order: an earlier end after a later one, a mark, and work that ends after
    // the window's start (held as a record, not as a prior end).
    store.add({work("ended before the window", 700, 800), mark(850, 870)});
    store.add({work("ended earlier still", 300, 400), work("ends in the window", 900, 1100)});
    const cupti::ActivityStore::PriorWork prior = store.prior_work(w, 0);
    BOOST_TEST(prior.work_end_ns == 800u);
    BOOST_TEST(prior.mark_end_ns == 870u);
    BOOST_TEST(store.collect({}, 1000).others.size() == 1u);  // "ends in the window"
    // A window opened later inherits what was delivered so far, and only what ended before its own start counts.
    const auto later = store.open_window(2000);
    BOOST_TEST(store.prior_work(later, 0).work_end_ns == 1100u);
    store.add({work("between the two starts", 1200, 1500)});
    BOOST_TEST(store.prior_work(later, 0).work_end_ns == 1500u);
    BOOST_TEST(store.prior_work(w, 0).work_end_ns == 800u);  // ended after w's start: w holds it as a record
    store.close_window(w);
    BOOST_TEST(store.prior_work(w, 0).work_end_ns == 0u);  // closed: nothing
    BOOST_TEST(store.prior_work(later, 0).work_end_ns == 1500u);
    store.close_window(later);
    BOOST_TEST(store.size() == 0u);
    BOOST_TEST(store.open_windows() == 0u);
}

BOOST_AUTO_TEST_CASE(windows_opened_and_read_while_records_arrive_see_every_earlier_end) {
    // CUPTI's thread delivers kernels ending at 10, 20, ... 20000 in shuffled buffers, while two threads open
    // windows at fixed starts and read them after every record has come: none may miss the latest end before its
    // start. (Here records "from after" a start can come before its window opens, which a real scope cannot see:
    // a record is delivered after its work ended, so before the window opened means before the scope's first
    // kernel. Such ends count too, so a window may read a later one.)
    cupti::ActivityStore store;
    std::vector<std::vector<KernelActivity>> buffers(20);
    for (std::uint64_t i = 1; i <= 2000; ++i) buffers[(i * 7) % buffers.size()].push_back(work("k", 10 * i - 5, 10 * i));
    std::vector<cupti::ActivityStore::Window> windows(2 * 50);
    std::thread cupti_thread([&] {
        for (auto& b : buffers) store.add(std::move(b));
    });
    auto opener = [&](std::size_t first) {
        for (std::size_t k = first; k < windows.size(); k += 2) windows[k] = store.open_window(200 * (k + 1) + 3);
    };
    std::thread a(opener, 0), b(opener, 1);
    cupti_thread.join();
    a.join();
    b.join();
    for (std::size_t k = 0; k < windows.size(); ++k) {
        const std::uint64_t start = 200 * (k + 1) + 3;
        const std::uint64_t prior = store.prior_work(windows[k], 0).work_end_ns;
        BOOST_TEST(prior >= start - 3, "window at " << start << " read " << prior);
        BOOST_TEST(prior % 10 == 0u, prior);
    }
    for (const auto w : windows) store.close_window(w);
    BOOST_TEST(store.size() == 0u);
}

BOOST_AUTO_TEST_CASE(store_and_gap_together_agree_with_every_record_in_hand_whatever_the_delivery_order) {
    // What KernelPolicy does (kernel_policy.cpp): the records held from the window's start plus the store's prior
    // ends, against the gap computed with every record in hand. Random work of two devices, marks among it; the
    // window opens at S, the first activity starts at T >= S; records ending before S may come before the window
    // opens or after, the others only after (a record comes after its work ended), in shuffled buffers.
    std::mt19937_64 random(27);
    for (int trial = 0; trial < 300; ++trial) {
        std::vector<KernelActivity> all;
        const std::size_t n = 1 + random() % 40;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t start = 1000 + random() % 100'000, length = 1 + random() % 5000;
            const std::uint32_t stream = static_cast<std::uint32_t>(random() % 3);
            const int device = static_cast<int>(random() % 2);
            all.push_back(random() % 4 == 0 ? mark(start, start + length, stream, device)
                                            : work(std::to_string(i), start, start + length, stream, device));
        }
        const std::uint64_t s = 1000 + random() % 100'000, t_first = s + random() % 20'000;
        const KernelActivity scoped = work("scoped", t_first, t_first + 100, 1, 0);
        cupti::ActivityStore store;
        std::shuffle(all.begin(), all.end(), random);
        std::vector<KernelActivity> early, late;
        for (const KernelActivity& r : all) (r.end_ns < s && random() % 2 ? early : late).push_back(r);
        store.add(early);
        const auto w = store.open_window(s);
        for (std::size_t i = 0; i < late.size(); i += 1 + random() % 5)
            store.add(std::vector<KernelActivity>(late.begin() + static_cast<std::ptrdiff_t>(i),
                                                  late.begin() + static_cast<std::ptrdiff_t>(std::min(late.size(), i + 5))));
        const std::vector<KernelActivity> held = store.collect({}, s).others;
        const idle::IdleGap g = idle::idle_gap(scoped, {held}, store.prior_work(w, 0), 500);
        std::uint64_t last = 0, last_mark = 0;
        for (const KernelActivity& r : all) {
            if (r.device != 0 || r.start_ns >= t_first) continue;
            std::uint64_t& latest = r.name == "gpuchrono_stream_marker" ? last_mark : last;
            latest = std::max(latest, r.end_ns);
        }
        BOOST_TEST(g.last_work_end_ns == last, "trial " << trial);
        BOOST_TEST(g.known == (last > 0), "trial " << trial);
        BOOST_TEST(g.gap_ns == (last == 0 ? t_first - 500 : last >= t_first ? 0 : t_first - last), "trial " << trial);
        BOOST_TEST(g.mark_gap_ns.has_value() == (last_mark > 0), "trial " << trial);
        if (g.mark_gap_ns && last_mark > 0)
            BOOST_TEST(*g.mark_gap_ns == (last_mark >= t_first ? 0 : t_first - last_mark), "trial " << trial);
        store.close_window(w);
    }
}

BOOST_AUTO_TEST_CASE(the_store_keeps_when_the_records_began) {
    cupti::ActivityStore store;
    BOOST_TEST(store.recording_since() == 0u);
    store.set_recording_since(12345);
    BOOST_TEST(store.recording_since() == 12345u);
}

BOOST_AUTO_TEST_CASE(the_code_is_catalogued_as_info_outside_the_pitfall_rows) {
    const gpuchrono::FindingKind* kind = gpuchrono::find_finding_kind(gpuchrono::codes::gpu_idle_before);
    BOOST_REQUIRE(kind != nullptr);
    BOOST_TEST((kind->severity == gpuchrono::Severity::info));
    BOOST_TEST(kind->pitfall_row == 0);
    BOOST_TEST(std::string(kind->fix).find("warm the GPU / keep work queued") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
