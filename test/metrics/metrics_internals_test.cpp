// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The collector's device-free pieces from known inputs: the unit a metric's value comes in, the name a range
// gets from a kernel symbol, and the advice a CUPTI failure carries.
#include <gpuchrono/api.hpp>

#include <boost/test/unit_test.hpp>

#include "metrics/detail/collection_plan.hpp"
#include "metrics/detail/cupti_failure.hpp"
#include "metrics/detail/range_session.hpp"

#include <string>

namespace md = gpuchrono::metrics::detail;

BOOST_AUTO_TEST_SUITE(metrics_internals)

BOOST_AUTO_TEST_CASE(units_from_dimension_and_suffix) {
    BOOST_TEST(md::metric_unit("dram__bytes_read.sum", "byte") == "byte");
    BOOST_TEST(md::metric_unit("dram__throughput.avg.pct_of_peak_sustained_elapsed", "") == "%");
    BOOST_TEST(md::metric_unit("lts__t_sector_hit_rate.pct", "") == "%");
    BOOST_TEST(md::metric_unit("dram__bytes_read.sum.per_second", "byte") == "byte/second");
    BOOST_TEST(md::metric_unit("smsp__inst_executed.avg.per_cycle_active", "instruction") == "instruction/cycle");
    BOOST_TEST(md::metric_unit("sm__cycles_active.avg.ratio", "cycle") == "");
    BOOST_TEST(md::metric_unit("gpu__time_duration.sum", "nanosecond") == "nanosecond");
}

BOOST_AUTO_TEST_CASE(range_names_demangled_without_parameters) {
    BOOST_TEST(md::kernel_name_of_range("_ZL11copy_kernelP6float4PKS_m") == "copy_kernel");
    BOOST_TEST(md::kernel_name_of_range("_ZN2ns6kernelIiEEvPT_") == "void ns::kernel<int>");
    BOOST_TEST(md::kernel_name_of_range("plain_c_kernel") == "plain_c_kernel");
    BOOST_TEST(md::kernel_name_of_range("(graph launch)") == "(graph launch)");
    BOOST_TEST(md::kernel_name_of_range(nullptr) == "(unnamed range)");
}

BOOST_AUTO_TEST_CASE(failures_say_what_to_do) {
    const std::string perm = md::explain_cupti_failure(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "cuptiRangeProfilerEnable", "x");
    BOOST_TEST(perm.find("cuptiRangeProfilerEnable failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: x.") == 0u);
    BOOST_TEST(perm.find("NVreg_RestrictProfilingToAdminUsers=0") != std::string::npos);
    BOOST_TEST(md::advice_for(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED).find("ncu") != std::string::npos);
    BOOST_TEST(md::advice_for(CUPTI_ERROR_INVALID_CONTEXT).find("reset") != std::string::npos);
    BOOST_TEST(md::advice_for(CUPTI_ERROR_INVALID_PARAMETER).empty());
    BOOST_TEST(md::explain_cupti_failure(static_cast<CUptiResult>(12345), "f", "").find("CUPTI error 12345") !=
               std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
