// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// check_metric and GPUCHRONO_CHECK_METRIC on synthetic results: when they pass and fail and the exact
// messages; the macros must fail the test case on a failing check (expected_failures). And make_series()
// carrying a Series' kernel metrics into the report model.
#include <boost/test/unit_test.hpp>

#include <gpuchrono/boost_test.hpp>
#include <gpuchrono/measure/measure_record.hpp>
#include <gpuchrono/report/model/report.hpp>

#include <memory>

namespace gm = gpuchrono::metrics;
namespace bt = boost::unit_test;
using gpuchrono::MetricBound;

namespace {

gm::MetricsResult copy_result() {
    gm::MetricsResult r;
    r.requested = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
    gm::KernelMetrics k;
    k.kernel = "copy_kernel";
    k.values = {{"dram__bytes_read.sum", 268445184, "byte"}, {"dram__bytes_write.sum", 250056704, "byte"}};
    r.kernels.push_back(k);
    return r;
}

gpuchrono::Series measured_series(std::optional<gm::MetricsResult> metrics) {
    gpuchrono::Series s("copy");
    for (int i = 0; i < 12; ++i) s.add(gpuchrono::Measurement::completed("event", gpuchrono::Duration::from_us(180), 0));
    auto record = std::make_shared<gpuchrono::MeasureRecord>();
    record->kernel_metrics = std::move(metrics);
    s.set_measure_record(record);
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(metric_checks)

BOOST_AUTO_TEST_CASE(passes_and_fails_printing_value_unit_kernel_and_bound) {
    const gpuchrono::CheckResult pass = gpuchrono::check_metric(copy_result(), "dram__bytes_read.sum", MetricBound::less_than, 3e8);
    BOOST_TEST(pass.passed);
    BOOST_TEST(pass.message == "metric check dram__bytes_read.sum < 3e+08: passed\n"
                               "  kernel \"copy_kernel\" launch 0: dram__bytes_read.sum = 268445184 byte, < 3e+08 byte");
    const gpuchrono::CheckResult fail = gpuchrono::check_metric(copy_result(), "dram__bytes_write.sum",
                                                                MetricBound::greater_equal, 268435456, "copy_kernel");
    BOOST_TEST(!fail.passed);
    BOOST_TEST(fail.message == "metric check dram__bytes_write.sum >= 268435456: failed\n"
                               "  kernel \"copy_kernel\" launch 0: dram__bytes_write.sum = 250056704 byte, not >= "
                               "268435456 byte");
}

BOOST_AUTO_TEST_CASE(every_launch_must_pass) {
    gm::MetricsResult r = copy_result();
    gm::KernelMetrics second = r.kernels.front();
    second.launch = 1;
    second.values[0].value = 4e8;
    r.kernels.push_back(second);
    const gpuchrono::CheckResult c = gpuchrono::check_metric(r, "dram__bytes_read.sum", MetricBound::less_equal, 3e8);
    BOOST_TEST(!c.passed);
    BOOST_TEST(c.message.find("launch 0: dram__bytes_read.sum = 268445184 byte, <= 3e+08 byte") != std::string::npos, c.message);
    BOOST_TEST(c.message.find("launch 1: dram__bytes_read.sum = 4e+08 byte, not <= 3e+08 byte") != std::string::npos, c.message);
}

BOOST_AUTO_TEST_CASE(a_missing_metric_lists_what_was_collected) {
    const gpuchrono::CheckResult c = gpuchrono::check_metric(copy_result(), "lts__t_sector_hit_rate.pct", MetricBound::greater_than, 50);
    BOOST_TEST(!c.passed);
    BOOST_TEST(c.message == "metric check lts__t_sector_hit_rate.pct > 50: lts__t_sector_hit_rate.pct was not collected "
                            "for kernel \"copy_kernel\" launch 0; collected: dram__bytes_read.sum, dram__bytes_write.sum");
}

BOOST_AUTO_TEST_CASE(nan_absent_kernels_and_ambiguity_fail_with_the_reason) {
    gm::MetricsResult r = copy_result();
    r.kernels[0].values[0].value = gm::metric_not_measured;
    BOOST_TEST(gpuchrono::check_metric(r, "dram__bytes_read.sum", MetricBound::less_than, 1).message.find(
                   "is NaN (the device could not evaluate it)") != std::string::npos);
    BOOST_TEST(!gpuchrono::check_metric(r, "dram__bytes_read.sum", MetricBound::less_than, 1e12).passed);
    gm::KernelMetrics other = copy_result().kernels[0];
    other.kernel = "fma_loop";
    r.kernels.push_back(other);
    const gpuchrono::CheckResult two = gpuchrono::check_metric(r, "dram__bytes_write.sum", MetricBound::less_than, 1e12);
    BOOST_TEST(!two.passed);
    BOOST_TEST(two.message == "metric check dram__bytes_write.sum < 1e+12: the result holds 2 kernels (\"copy_kernel\", "
                              "\"fma_loop\"); name the one to check");
    BOOST_TEST(gpuchrono::check_metric(r, "dram__bytes_write.sum", MetricBound::less_than, 1e12, "fma_loop").passed);
    const gpuchrono::CheckResult absent = gpuchrono::check_metric(r, "dram__bytes_write.sum", MetricBound::less_than, 1, "gemm");
    BOOST_TEST(absent.message == "metric check dram__bytes_write.sum < 1: kernel \"gemm\" was not profiled; the result "
                                 "holds \"copy_kernel\", \"fma_loop\"");
    BOOST_TEST(!gpuchrono::check_metric(gm::MetricsResult{}, "x", MetricBound::less_than, 1).passed);
}

BOOST_AUTO_TEST_CASE(a_series_without_metrics_fails_saying_how_to_get_them) {
    BOOST_TEST(gpuchrono::check_metric(measured_series(copy_result()), "dram__bytes_read.sum", MetricBound::less_than, 3e8).passed);
    const gpuchrono::CheckResult none = gpuchrono::check_metric(measured_series(std::nullopt), "dram__bytes_read.sum",
                                                                MetricBound::less_than, 3e8);
    BOOST_TEST(!none.passed);
    BOOST_TEST(none.message.find("measured without hardware metrics (ask for them with MeasureOptions::metrics)") !=
               std::string::npos, none.message);
    gpuchrono::Series plain("plain");
    BOOST_TEST(gpuchrono::check_metric(plain, "dram__bytes_read.sum", MetricBound::less_than, 3e8).message.find(
                   "was not taken by measure()") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(boost_macros_pass) {
    const gm::MetricsResult r = copy_result();
    GPUCHRONO_CHECK_METRIC(r, "dram__bytes_read.sum", less_than, 3e8);
    GPUCHRONO_REQUIRE_METRIC(r, "dram__bytes_read.sum", greater_than, 2.6e8, "copy_kernel");
    GPUCHRONO_WARN_METRIC(measured_series(r), "dram__bytes_write.sum", less_equal, 250056704);
}

// A failing CHECK fails the test case and goes on (two failures expected); WARN only logs.
BOOST_AUTO_TEST_CASE(boost_check_macro_fails_the_test_case, *bt::expected_failures(2)) {
    const gm::MetricsResult r = copy_result();
    GPUCHRONO_CHECK_METRIC(r, "dram__bytes_read.sum", less_than, 1e8);
    GPUCHRONO_CHECK_METRIC(r, "l1tex__t_sector_hit_rate.pct", greater_equal, 0);
    GPUCHRONO_WARN_METRIC(r, "dram__bytes_read.sum", less_than, 1e8);
}

BOOST_AUTO_TEST_CASE(make_series_carries_the_kernel_metrics) {
    const gpuchrono::report::SampleSeries s = gpuchrono::report::make_series(measured_series(copy_result()));
    BOOST_TEST_REQUIRE(s.kernel_metrics.has_value());
    BOOST_TEST(s.kernel_metrics->kernels.size() == 1u);
    BOOST_TEST(s.kernel_metrics->find("", "dram__bytes_read.sum")->value == 268445184.0);
    BOOST_TEST(!gpuchrono::report::make_series(measured_series(std::nullopt)).kernel_metrics.has_value());
}

BOOST_AUTO_TEST_SUITE_END()
