// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The checks gpuchrono run calls with the figures it aggregated: each device's idle time and overlap, a program
// without CUDA work, a cold first call and a kernel under the record's floor, at and beside their thresholds.
#include <boost/test/unit_test.hpp>

#include "checks/check_run.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

using gpuchrono::Finding;
using gpuchrono::Severity;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(run_checks)

BOOST_AUTO_TEST_CASE(durations_read_in_three_significant_digits) {
    BOOST_TEST(gpuchrono::run::format_ns(812) == "812 ns");
    BOOST_TEST(gpuchrono::run::format_ns(12'345) == "12.3 us");
    BOOST_TEST(gpuchrono::run::format_ns(2.5e9) == "2.5 s");
    BOOST_TEST(gpuchrono::run::format_ns(std::numeric_limits<double>::quiet_NaN()) == "-");
}

BOOST_AUTO_TEST_CASE(a_device_idle_over_a_fifth_of_its_span_with_a_long_gap_is_reported) {
    // 30% idle with a 2 ms gap: reported, with the share and the longest gap.
    const std::optional<Finding> idle = gpuchrono::run::check_device_idle(1, 3e6, 10e6, 2e6);
    BOOST_REQUIRE(idle.has_value());
    BOOST_TEST(idle->code == "run-idle-gaps");
    BOOST_TEST((idle->severity == Severity::info));
    BOOST_TEST(idle->message == "device 1 was idle 3 ms of its 10 ms span (30%), the longest gap 2 ms", idle->message);
    // Idle exactly a fifth, or only in gaps up to 1 ms, or no span: nothing.
    BOOST_TEST(!gpuchrono::run::check_device_idle(1, 2e6, 10e6, 2e6).has_value());
    BOOST_TEST(!gpuchrono::run::check_device_idle(1, 3e6, 10e6, 1e6).has_value());
    BOOST_TEST(!gpuchrono::run::check_device_idle(1, 3e6, 0, 2e6).has_value());
}

BOOST_AUTO_TEST_CASE(activities_adding_up_to_over_their_busy_time_overlapped) {
    const std::optional<Finding> overlap = gpuchrono::run::check_device_overlap(0, 1.5e6, 1e6);
    BOOST_REQUIRE(overlap.has_value());
    BOOST_TEST(overlap->code == "run-overlap");
    BOOST_TEST(contains(overlap->message, "add up to 1.5 ms in 1 ms of busy time (1.50x)"), overlap->message);
    BOOST_TEST(!gpuchrono::run::check_device_overlap(0, 1.05e6, 1e6).has_value());
    BOOST_TEST(!gpuchrono::run::check_device_overlap(0, 1e6, 0).has_value());
}

BOOST_AUTO_TEST_CASE(a_program_without_cuda_work_says_whether_cuda_started) {
    const std::optional<Finding> never = gpuchrono::run::check_cuda_work(false, 0, 0, 0);
    BOOST_REQUIRE(never.has_value());
    BOOST_TEST(contains(never->message, "never started CUDA"));
    const std::optional<Finding> filtered = gpuchrono::run::check_cuda_work(true, 0, 0, 12);
    BOOST_REQUIRE(filtered.has_value());
    BOOST_TEST(filtered->message ==
               "CUDA started but no kernel, memcpy or memset was recorded (12 activities were left out by the filters)");
    BOOST_TEST(!gpuchrono::run::check_cuda_work(true, 5, 0, 0).has_value());
    BOOST_TEST(!gpuchrono::run::check_cuda_work(true, 0, 1, 0).has_value());
}

BOOST_AUTO_TEST_CASE(a_cold_first_call_needs_ten_times_the_median_and_twenty_us_more) {
    const std::optional<Finding> cold = gpuchrono::run::check_cold_first_call("axpy", 3, 50'000, 2'000);
    BOOST_REQUIRE(cold.has_value());
    BOOST_TEST((cold->severity == Severity::info));
    BOOST_TEST(contains(cold->message, "the first call of axpy took 50 us, 25x its median"), cold->message);
    BOOST_TEST(!gpuchrono::run::check_cold_first_call("axpy", 2, 50'000, 2'000).has_value());  // too few calls
    BOOST_TEST(!gpuchrono::run::check_cold_first_call("axpy", 3, 15'000, 1'000).has_value());  // 14 us more
    BOOST_TEST(!gpuchrono::run::check_cold_first_call("axpy", 3, 50'000, 0).has_value());
}

BOOST_AUTO_TEST_CASE(a_kernel_under_twice_the_floor_is_mostly_the_records_cost) {
    BOOST_TEST(gpuchrono::run::check_kernel_above_floor("tiny", 1'500, 1'000).has_value());
    BOOST_TEST(!gpuchrono::run::check_kernel_above_floor("tiny", 2'000, 1'000).has_value());
    BOOST_TEST(!gpuchrono::run::check_kernel_above_floor("tiny", std::nan(""), 1'000).has_value());
}

BOOST_AUTO_TEST_CASE(dropped_records_are_an_error_listing_each_kind) {
    BOOST_TEST(!gpuchrono::run::check_run_records_dropped(0, {}).has_value());
    const std::optional<Finding> dropped =
        gpuchrono::run::check_run_records_dropped(7, {{"kernel", 5}, {"memcpy", 2}});
    BOOST_REQUIRE(dropped.has_value());
    BOOST_TEST((dropped->severity == Severity::error));
    BOOST_TEST(contains(dropped->message, "7 CUPTI activity records were dropped (5 kernel, 2 memcpy)"), dropped->message);
}

BOOST_AUTO_TEST_SUITE_END()
