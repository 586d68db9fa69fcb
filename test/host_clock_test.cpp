// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include <gpuchrono/api.hpp>

using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(host_clock)

// Host work of known length: a sleep cannot end early, so the measurement is at least its length.
BOOST_AUTO_TEST_CASE(measures_host_work_of_known_length) {
    gpuchrono::Series series("sleep");
    for (int i = 0; i < 3; ++i) {
        gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy> t(series);
        std::this_thread::sleep_for(20ms);
    }
    BOOST_REQUIRE(series.size() == 3u);
    for (gpuchrono::Duration d : series.durations()) {
        BOOST_TEST(d.ms() >= 20.0);
        BOOST_TEST(d.ms() < 2000.0);  // a unit error (us read as ms) would land far above this
    }
    BOOST_TEST(series.measurements()[0].device() == -1);
    BOOST_TEST(series.measurements()[0].policy() == "host-clock");
}

BOOST_AUTO_TEST_SUITE_END()
