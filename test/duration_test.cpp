// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

// natural_unit is not exported: reached through its header.
#include <gpuchrono/core/duration.hpp>

#include <gpuchrono/api.hpp>

using gpuchrono::Duration;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(duration)

BOOST_AUTO_TEST_CASE(converts_from_and_to_std_chrono) {
    BOOST_TEST(Duration(5ms).ns() == 5e6);
    BOOST_TEST(Duration(1s).us() == 1e6);
    BOOST_TEST(Duration(std::chrono::duration<double, std::milli>(0.0015)).ns() == 1500.0);
    BOOST_TEST(Duration::from_us(2.5).to<std::chrono::nanoseconds>().count() == 2500);
    // Rounds to nearest instead of truncating: 1.6 us is 2 us, not 1.
    BOOST_TEST(Duration::from_ns(1600).to<std::chrono::microseconds>().count() == 2);
    BOOST_TEST(Duration::from_ms(3).chrono().count() == 3e6);
}

BOOST_AUTO_TEST_CASE(arithmetic_and_ordering) {
    const Duration a = Duration::from_us(10), b = Duration::from_us(4);
    BOOST_TEST((a + b).us() == 14.0);
    BOOST_TEST((a - b).us() == 6.0);
    BOOST_TEST((a * 3.0).us() == 30.0);
    BOOST_TEST((3.0 * a).us() == 30.0);
    BOOST_TEST((a / 4.0).us() == 2.5);
    BOOST_TEST(a / b == 2.5);
    BOOST_TEST((-a).us() == -10.0);
    BOOST_TEST((a > b));
    BOOST_TEST((b < a));
    BOOST_TEST((a == Duration(10us)));
    BOOST_TEST((Duration() == Duration::from_ns(0)));
}

BOOST_AUTO_TEST_CASE(prints_in_the_natural_unit) {
    BOOST_TEST(gpuchrono::to_string(Duration::from_ns(812)) == "812 ns");
    BOOST_TEST(gpuchrono::to_string(Duration::from_ns(999)) == "999 ns");
    BOOST_TEST(gpuchrono::to_string(Duration::from_ns(1000)) == "1.00 us");
    BOOST_TEST(gpuchrono::to_string(Duration::from_ns(12'500)) == "12.5 us");
    BOOST_TEST(gpuchrono::to_string(Duration::from_us(114.5)) == "114 us");  // three significant digits
    BOOST_TEST(gpuchrono::to_string(Duration::from_ms(3.214)) == "3.21 ms");
    BOOST_TEST(gpuchrono::to_string(Duration::from_s(2)) == "2.00 s");
    BOOST_TEST(gpuchrono::to_string(Duration::from_s(125)) == "125 s");
    BOOST_TEST(gpuchrono::to_string(Duration::from_us(-68.8)) == "-68.8 us");
    BOOST_TEST(gpuchrono::natural_unit(Duration::from_ms(5)) == std::string("ms"));
    std::ostringstream os;
    os << Duration(5080us);
    BOOST_TEST(os.str() == "5.08 ms");
}

BOOST_AUTO_TEST_CASE(prints_non_finite_values_as_such) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    BOOST_TEST(gpuchrono::to_string(Duration::from_ns(nan)) == "nan");
    BOOST_TEST(gpuchrono::to_string(Duration::from_ns(inf)) == "inf");
    BOOST_TEST(gpuchrono::to_string(Duration::from_ns(-inf)) == "-inf");
    BOOST_TEST(!Duration::from_ns(nan).is_finite());
    BOOST_TEST(Duration::from_ns(1).is_finite());
}

BOOST_AUTO_TEST_CASE(prints_in_a_fixed_unit_for_tables) {
    BOOST_TEST(gpuchrono::to_string(Duration::from_ns(1234), "us", 3) == "1.234 us");
    BOOST_TEST(gpuchrono::to_string(Duration::from_ms(2), "ns", 0) == "2000000 ns");
    BOOST_CHECK_THROW((void)gpuchrono::to_string(Duration::from_ns(1), "min", 0), std::invalid_argument);
    BOOST_CHECK_THROW((void)gpuchrono::to_string(Duration::from_ns(1), "us", -1), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
