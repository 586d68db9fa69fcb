// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// NVTX attribution as the injection does it, with a stand-in for CUPTI: threads push and pop ranges and
// "launch" (remember a correlation id), and the records, arriving later on another thread, take the innermost
// range open at their launch.
#include <boost/test/unit_test.hpp>

#include "run/aggregate.hpp"
#include "run/range_attribution.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <gpuchrono/api.hpp>

using namespace gpuchrono::run;

namespace {

// One thread of a program: what it launches, each with the range it expects.
struct Launch {
    std::uint32_t correlation;
    std::string expected;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(run_attribution)

BOOST_AUTO_TEST_CASE(innermost_range_per_thread) {
    RangeNames names;
    CorrelationMap launches;
    const std::uint32_t watched = names.intern("step");
    std::vector<std::vector<Launch>> per_thread(4);
    std::vector<std::thread> threads;
    std::atomic<std::uint32_t> next{1};
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            RangeStack stack;  // thread_local in the injection
            auto launch = [&](const std::string& expected) {
                const std::uint32_t id = next++;
                if (!stack.open.empty()) launches.remember(id, {stack.innermost(), stack.watched > 0});
                per_thread[static_cast<std::size_t>(t)].push_back({id, expected});
            };
            const std::string mine = "thread " + std::to_string(t);
            for (int i = 0; i < 200; ++i) {
                launch("");
                stack.push(names.intern("step"), names.intern("step") == watched);
                launch("step");
                stack.push(names.intern(mine), false);
                launch(mine);
                stack.push(names.intern("inner"), false);
                launch("inner");
                stack.pop();
                launch(mine);
                stack.pop();
                launch("step");
                stack.pop();
                stack.pop();  // unbalanced: ignored
                launch("");
            }
        });
    }
    for (auto& th : threads) th.join();
    // Records arrive on one thread, in any order; a graph's records share one id, so finding does not forget.
    Aggregate a;
    std::size_t checked = 0, in_step = 0;
    for (const auto& launches_of_thread : per_thread) {
        for (const Launch& l : launches_of_thread) {
            const LaunchContext c = launches.find(l.correlation);
            BOOST_TEST(names.name(c.range) == l.expected);
            in_step += c.in_watched ? 1 : 0;
            KernelLaunch k;
            k.name = "k";
            const std::string range = names.name(c.range);
            k.range = range;
            a.add_kernel(k);
            ++checked;
        }
    }
    BOOST_TEST(checked == 4u * 200u * 7u);
    BOOST_TEST(in_step == 4u * 200u * 5u);  // every launch inside "step", inner ranges included
    BOOST_TEST(launches.size() == 4u * 200u * 5u);  // only launches inside a range are remembered
    launches.forget_before(next.load());
    BOOST_TEST(launches.empty());
    BOOST_TEST(a.ranges().size() == 6u);    // step, inner, 4 thread ranges
}

BOOST_AUTO_TEST_CASE(launch_outside_every_range_is_not_remembered) {
    CorrelationMap launches;
    launches.remember(8, {3, true});
    BOOST_TEST(launches.find(8).range == 3u);
    BOOST_TEST(launches.find(8).range == 3u);  // every record of a graph launch finds it
    const LaunchContext c = launches.find(7);
    BOOST_TEST(c.range == 0u);
    BOOST_TEST(!c.in_watched);
}

BOOST_AUTO_TEST_CASE(launches_seen_twice_do_not_pile_up) {
    // Runtime and driver callbacks each remember the launch; its record carries the runtime's id only.
    CorrelationMap launches;
    for (std::uint32_t id = 1; id <= 200000; id += 2) {
        launches.remember(id, {1, false});
        launches.remember(id + 1, {1, false});
        BOOST_TEST(launches.find(id).range == 1u);
        if (id % 20000 == 1 && id > 70000) launches.forget_before(id - 65536);
    }
    // 200,000 ids without forgetting; with it, those of the last 65,536 ids and one period.
    const std::size_t left = launches.size();
    BOOST_TEST(left < 90000u);
    BOOST_TEST(launches.forget_before(200001) == left);
    BOOST_TEST(launches.empty());
}

BOOST_AUTO_TEST_SUITE_END()
