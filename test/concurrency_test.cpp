// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The library's shared state used from many threads at once, without a GPU: the finding reaction and its
// once-per-call-site reporting, timers filling their own Series, and the process-wide pools and driver probes
// failing alike on every thread when there is no device. The tsan preset runs this suite under
// ThreadSanitizer, which is where a missing lock shows up; the assertions check that nothing was lost.
#include <boost/test/unit_test.hpp>

#include "no_device.hpp"
#include "recording_sink.hpp"

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include <gpuchrono/gpu/buffer_pool.hpp>
#include <gpuchrono/gpu/event_pool.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <gpuchrono/api.hpp>

using gpuchrono::CallSite;
using gpuchrono::Duration;
using gpuchrono::Measurement;
using gpuchrono::Reaction;

namespace {

constexpr int thread_count = 8;

void on_threads(const std::function<void(int)>& work) {
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) threads.emplace_back(work, t);
    for (std::thread& t : threads) t.join();
}

gpuchrono::Finding floor_finding(int thread) {
    return gpuchrono::make_finding(gpuchrono::codes::interval_below_event_floor,
                                   "thread " + std::to_string(thread) + ": within 10x of the floor");
}

// Two places in "the user's program" for return-address call sites (resolved with dladdr, cached under a lock).
[[gnu::noinline]] int first_place() { return 1; }
[[gnu::noinline]] int second_place() { return 2; }

}  // namespace

BOOST_AUTO_TEST_SUITE(concurrency)

BOOST_AUTO_TEST_CASE(report_says_each_code_once_per_call_site_across_threads) {
    RecordingSink sink;  // the sink runs under the library's lock, so it may push_back without one
    const std::vector<CallSite> sites = {
        CallSite{nullptr, "a.cpp:1"}, CallSite{nullptr, "b.cpp:2"},
        CallSite::returning_to(reinterpret_cast<const char*>(&first_place) + 1),
        CallSite::returning_to(reinterpret_cast<const char*>(&second_place) + 1)};
    std::atomic<int> kept{0};
    on_threads([&](int thread) {
        gpuchrono::ScopedFindingReaction report(Reaction::report);
        for (int i = 0; i < 200; ++i) {
            Measurement m = Measurement::completed("host-clock", Duration::from_us(3), -1);
            gpuchrono::handle_findings(m, {floor_finding(thread)}, sites[static_cast<std::size_t>(i) % sites.size()]);
            if (m.findings().size() == 1 && !m.findings().front().where.empty()) ++kept;
        }
    });
    BOOST_TEST(kept.load() == thread_count * 200);  // every measurement keeps its finding, stamped
    BOOST_TEST(sink.got.size() == sites.size());     // 1,600 findings at 4 places: 4 reports
}

BOOST_AUTO_TEST_CASE(a_thread_scoped_reaction_holds_while_another_thread_sets_the_process_one) {
    const Reaction before = gpuchrono::finding_reaction();
    std::atomic<bool> done{false};
    std::atomic<int> wrong{0};
    std::thread setter([&] {
        for (int i = 0; !done.load(); ++i) gpuchrono::set_finding_reaction(i % 2 ? Reaction::collect : Reaction::report);
    });
    on_threads([&](int thread) {
        const Reaction mine = thread % 2 ? Reaction::throw_error : Reaction::collect;
        gpuchrono::ScopedFindingReaction scoped(mine);
        for (int i = 0; i < 2000; ++i)
            if (gpuchrono::finding_reaction() != mine) ++wrong;
    });
    done = true;
    setter.join();
    BOOST_TEST(wrong.load() == 0);
    gpuchrono::set_finding_reaction(before);
}

BOOST_AUTO_TEST_CASE(host_timers_on_many_threads_fill_their_own_series) {
    std::vector<gpuchrono::Series> series(thread_count);
    on_threads([&](int thread) {
        gpuchrono::Series& mine = series[static_cast<std::size_t>(thread)];
        for (int i = 0; i < 500; ++i) gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t(mine);
    });
    for (const gpuchrono::Series& s : series) {
        BOOST_TEST(s.size() == 500u);
        BOOST_TEST(s.failed_count() == 0u);
        for (Duration d : s.durations()) BOOST_TEST(d.ns() >= 0.0);
    }
}

BOOST_AUTO_TEST_CASE(pools_and_policies_fail_alike_on_every_thread_without_a_device,
                     *boost::unit_test::precondition(without_device())) {
    std::atomic<int> named{0};
    std::atomic<int> other{0};
    auto expect_no_device = [&](const std::function<void()>& attempt) {
        try {
            attempt();
            ++other;
        } catch (const gpuchrono::CudaError& e) {
            (names_a_no_device_error(e.what()) ? named : other)++;
        } catch (...) {
            ++other;
        }
    };
    on_threads([&](int) {
        for (int i = 0; i < 20; ++i) {
            expect_no_device([] { (void)gpuchrono::EventPool::instance().acquire(0); });
            expect_no_device([] { (void)gpuchrono::ProbeBufferPool::instance().acquire(0, 64); });
            expect_no_device([] { gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(cudaStream_t{}); });
            expect_no_device([] {
                gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(cudaStream_t{}, gpuchrono::SyncScope::device);
            });
            expect_no_device([] { gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(cudaStream_t{}); });
        }
    });
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(named.load() == thread_count * 20 * 5);
}

BOOST_AUTO_TEST_SUITE_END()
