// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Boost.Test assertions over gpuchrono's performance checks (testing/). Opt-in: Boost.Test is the user's
// dependency, so this header is neither part of the module nor of <gpuchrono/gpuchrono.hpp>.
//
// Macros cannot cross `import`, so a test file that imports the module includes this header first:
//
//     #include <boost/test/unit_test.hpp>   // or the Boost.Test variant the test program uses
//     #include <gpuchrono/boost_test.hpp>   // before the import
//     import gpuchrono;
//
//     BOOST_AUTO_TEST_CASE(saxpy_is_timed_cleanly) {
//         gpuchrono::Series series("saxpy");
//         for (int i = 0; i < 20; ++i) { gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(series, stream); launch_saxpy(stream); }
//         GPUCHRONO_CHECK_NO_FINDINGS(series);
//     }
//
// Each check has three levels, as Boost.Test's own tools do: CHECK (the test fails and goes on), REQUIRE (the
// test fails and stops), WARN (a warning in the log; the test does not fail). On failure Boost.Test prints the
// check's message (what was measured, the findings with their numbers and fixes) at the macro's file and line.
//
//   GPUCHRONO_{CHECK,REQUIRE,WARN}_NO_FINDINGS(series)        no warning-level finding, no failed measurement
//   GPUCHRONO_{CHECK,REQUIRE,WARN}_FINDING(series, code)      the series carries that finding code
//   GPUCHRONO_{CHECK,REQUIRE,WARN}_NOT_SLOWER(base, candidate[, options])   compare()'s verdict is not "slower"
//   GPUCHRONO_{CHECK,REQUIRE,WARN}_FASTER(base, candidate[, options])       compare()'s verdict is "faster"
//       base and candidate: two Series, or two callables run interleaved (testing/sequential_checks.hpp)
//   GPUCHRONO_{CHECK,REQUIRE,WARN}_METRIC(source, "metric.name", bound, limit[, "kernel"])
//       every launch of the kernel has the hardware metric within the bound; source is a metrics::MetricsResult
//       or a Series measure() took with MeasureOptions::metrics; bound is less_than, less_equal, greater_than or
//       greater_equal; e.g. GPUCHRONO_CHECK_METRIC(series, "dram__bytes_read.sum", less_than, 300e6).
// The comparisons use compare()'s verdict with its confidence interval, never a ratio of two medians; options
// are a CompareOptions, e.g. GPUCHRONO_CHECK_NOT_SLOWER(before, after, {.threshold = 0.05}).
//
// The same checks, for any other framework, are plain functions returning a CheckResult (docs/testing.md).
#pragma once

#include <boost/test/unit_test.hpp>

#include <gpuchrono/testing/check_result.hpp>
#include <gpuchrono/testing/comparison_checks.hpp>
#include <gpuchrono/testing/findings_checks.hpp>
#include <gpuchrono/testing/metric_checks.hpp>
#include <gpuchrono/testing/sequential_checks.hpp>

// Evaluates the check once, then hands its verdict and message to the Boost.Test tool.
#define GPUCHRONO_DETAIL_BOOST_TOOL(tool, ...)                                          \
    do {                                                                                \
        const ::gpuchrono::CheckResult gpuchrono_check_result_ = (__VA_ARGS__);         \
        tool(gpuchrono_check_result_.passed, gpuchrono_check_result_.message);          \
    } while (false)

#define GPUCHRONO_CHECK_NO_FINDINGS(series) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_CHECK_MESSAGE, ::gpuchrono::check_no_findings(series))
#define GPUCHRONO_REQUIRE_NO_FINDINGS(series) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_REQUIRE_MESSAGE, ::gpuchrono::check_no_findings(series))
#define GPUCHRONO_WARN_NO_FINDINGS(series) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_WARN_MESSAGE, ::gpuchrono::check_no_findings(series))

#define GPUCHRONO_CHECK_FINDING(series, code) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_CHECK_MESSAGE, ::gpuchrono::check_finding(series, code))
#define GPUCHRONO_REQUIRE_FINDING(series, code) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_REQUIRE_MESSAGE, ::gpuchrono::check_finding(series, code))
#define GPUCHRONO_WARN_FINDING(series, code) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_WARN_MESSAGE, ::gpuchrono::check_finding(series, code))

#define GPUCHRONO_CHECK_NOT_SLOWER(...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_CHECK_MESSAGE, ::gpuchrono::check_not_slower(__VA_ARGS__))
#define GPUCHRONO_REQUIRE_NOT_SLOWER(...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_REQUIRE_MESSAGE, ::gpuchrono::check_not_slower(__VA_ARGS__))
#define GPUCHRONO_WARN_NOT_SLOWER(...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_WARN_MESSAGE, ::gpuchrono::check_not_slower(__VA_ARGS__))

#define GPUCHRONO_CHECK_FASTER(...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_CHECK_MESSAGE, ::gpuchrono::check_faster(__VA_ARGS__))
#define GPUCHRONO_REQUIRE_FASTER(...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_REQUIRE_MESSAGE, ::gpuchrono::check_faster(__VA_ARGS__))
#define GPUCHRONO_WARN_FASTER(...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_WARN_MESSAGE, ::gpuchrono::check_faster(__VA_ARGS__))

// The bound is a bare word (less_than, ...) so a test reads like the sentence it checks.
#define GPUCHRONO_CHECK_METRIC(source, metric, bound, ...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_CHECK_MESSAGE,       \
                                ::gpuchrono::check_metric(source, metric, ::gpuchrono::MetricBound::bound, __VA_ARGS__))
#define GPUCHRONO_REQUIRE_METRIC(source, metric, bound, ...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_REQUIRE_MESSAGE,       \
                                ::gpuchrono::check_metric(source, metric, ::gpuchrono::MetricBound::bound, __VA_ARGS__))
#define GPUCHRONO_WARN_METRIC(source, metric, bound, ...) \
    GPUCHRONO_DETAIL_BOOST_TOOL(BOOST_WARN_MESSAGE,       \
                                ::gpuchrono::check_metric(source, metric, ::gpuchrono::MetricBound::bound, __VA_ARGS__))
