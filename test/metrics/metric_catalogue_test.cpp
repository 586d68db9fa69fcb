// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Tests of the metric-name catalogue: the ready sets hold ncu's exact names, unknown names are
// refused with the nearest names suggested, and edit distance agrees with hand-counted cases. Device-free.
#include <gpuchrono/metrics/metric_catalogue.hpp>
#include <gpuchrono/metrics/roofline_points.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gm = gpuchrono::metrics;

BOOST_AUTO_TEST_SUITE(metric_catalogue)

BOOST_AUTO_TEST_CASE(edit_distance_hand_counted) {
    BOOST_TEST(gm::edit_distance("", "") == 0u);
    BOOST_TEST(gm::edit_distance("abc", "") == 3u);
    BOOST_TEST(gm::edit_distance("kitten", "sitting") == 3u);
    BOOST_TEST(gm::edit_distance("dram__bytes_read.sum", "dram__bytes_reed.sum") == 1u);
    BOOST_TEST(gm::edit_distance("flaw", "lawn") == 2u);
}

BOOST_AUTO_TEST_CASE(sets_hold_known_names) {
    for (auto set : {gm::MetricSet::memory, gm::MetricSet::compute, gm::MetricSet::speed_of_light,
                     gm::MetricSet::roofline}) {
        const auto names = gm::metric_names(set);
        BOOST_TEST(!names.empty());
        for (auto n : names) BOOST_CHECK_NO_THROW(gm::require_known_metric(n, gm::known_metric_names(), "static"));
    }
    const auto memory = gm::metric_names(gm::MetricSet::memory);
    BOOST_TEST((std::find(memory.begin(), memory.end(), "dram__bytes_read.sum") != memory.end()));
    BOOST_TEST((gm::parse_metric_set("sol") == gm::MetricSet::speed_of_light));
    BOOST_TEST((gm::parse_metric_set("memory") == gm::MetricSet::memory));
    BOOST_CHECK_THROW(gm::parse_metric_set("memroy"), std::invalid_argument);
    // The roofline set is exactly what a roofline point needs: a collection asking for it gets points.
    BOOST_TEST((gm::parse_metric_set("roofline") == gm::MetricSet::roofline));
    const auto roofline = gm::metric_names(gm::MetricSet::roofline);
    const auto needed = gm::roofline_metric_names();
    BOOST_TEST(std::vector<std::string_view>(roofline.begin(), roofline.end()) == needed,
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(unknown_name_refused_with_suggestions) {
    try {
        gm::require_known_metric("dram__bytes_raed.sum", gm::known_metric_names(), "gpuchrono's static list");
        BOOST_FAIL("a misspelt metric was accepted");
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        BOOST_TEST(what.find("unknown metric 'dram__bytes_raed.sum'") != std::string::npos);
        BOOST_TEST(what.find("gpuchrono's static list") != std::string::npos);
        BOOST_TEST(what.find("close names: dram__bytes_read.sum") != std::string::npos);
    }
    const auto close = gm::close_metric_names("sm__throughput.avg.pct_of_peak_sustained_elapse",
                                              gm::known_metric_names(), 1);
    BOOST_TEST_REQUIRE(close.size() == 1u);
    BOOST_TEST(close[0] == "sm__throughput.avg.pct_of_peak_sustained_elapsed");
}

BOOST_AUTO_TEST_SUITE_END()
