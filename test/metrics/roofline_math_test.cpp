// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Derived figures from known inputs (hand-computed), and their refusals. Device-free.
#include "metrics/roofline_math.hpp"

#include <boost/test/unit_test.hpp>

#include <stdexcept>

namespace gm = gpuchrono::metrics;

BOOST_AUTO_TEST_SUITE(roofline_math)

BOOST_AUTO_TEST_CASE(known_inputs) {
    BOOST_TEST(gm::flops({.add = 10, .mul = 20, .fma = 30}) == 90.0);
    BOOST_TEST(gm::arithmetic_intensity(90.0, 30.0) == 3.0);
    BOOST_TEST(gm::rate_per_second(268435456.0, 0.5) == 536870912.0);
    // 2619 MHz x 5120-bit bus (the figures the H100 reports): 2 x 2.619e9 x 640 B = 3.35232e12 B/s.
    BOOST_TEST(gm::dram_peak_bytes_per_second(2619000, 5120) == 3.35232e12, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(gm::attainable_flops_per_second(0.25, 60e12, 3e12) == 0.75e12);  // memory-bound side
    BOOST_TEST(gm::attainable_flops_per_second(100.0, 60e12, 3e12) == 60e12);   // compute-bound side
    BOOST_TEST(gm::percent_of_peak(1.5e12, 3e12) == 50.0);
}

BOOST_AUTO_TEST_CASE(refusals) {
    BOOST_CHECK_THROW(gm::arithmetic_intensity(1.0, 0.0), std::invalid_argument);
    BOOST_CHECK_THROW(gm::rate_per_second(1.0, 0.0), std::invalid_argument);
    BOOST_CHECK_THROW(gm::dram_peak_bytes_per_second(0, 5120), std::invalid_argument);
    BOOST_CHECK_THROW(gm::percent_of_peak(1.0, 0.0), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
