// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a metrics request stands for: sets expanded in order, repeats dropped, empty requests refused.
#include <gpuchrono/api.hpp>

#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace gm = gpuchrono::metrics;

BOOST_AUTO_TEST_SUITE(metric_request)

BOOST_AUTO_TEST_CASE(sets_expand_in_order) {
    const std::vector<std::string> asked{"memory", "smsp__inst_executed.sum"};
    const std::vector<std::string> got = gm::expand_metric_names(asked);
    BOOST_TEST_REQUIRE(got.size() == 6u);
    BOOST_TEST(got[0] == "dram__bytes_read.sum");
    BOOST_TEST(got[4] == "l1tex__t_sector_hit_rate.pct");
    BOOST_TEST(got[5] == "smsp__inst_executed.sum");
}

BOOST_AUTO_TEST_CASE(sol_is_speed_of_light_and_repeats_drop) {
    const std::vector<std::string> a = gm::expand_metric_names(std::vector<std::string>{"sol"});
    const std::vector<std::string> b =
        gm::expand_metric_names(std::vector<std::string>{"speed_of_light", "sol", "gpu__time_duration.sum"});
    BOOST_TEST(a == b);
    BOOST_TEST(a.size() == 3u);
    // compute and sol share sm__throughput: it appears once.
    const std::vector<std::string> both = gm::expand_metric_names(std::vector<std::string>{"compute", "sol"});
    BOOST_TEST(both.size() == 6u);
}

BOOST_AUTO_TEST_CASE(empty_requests_refused) {
    BOOST_CHECK_THROW(gm::expand_metric_names(std::vector<std::string>{}), std::invalid_argument);
    BOOST_CHECK_THROW(gm::expand_metric_names(std::vector<std::string>{"memory", ""}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(measure_options_carry_metrics) {
    gpuchrono::MeasureOptions o;
    BOOST_TEST(o.metrics.empty());
    o.metrics = {"memory"};
    BOOST_CHECK_NO_THROW(o.validate());
}

BOOST_AUTO_TEST_SUITE_END()
