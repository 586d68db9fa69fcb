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
//
// The same checks, for any other framework, are plain functions returning a CheckResult (docs/testing.md).
#pragma once

#include <boost/test/unit_test.hpp>

#include <gpuchrono/testing/check_result.hpp>
#include <gpuchrono/testing/findings_checks.hpp>

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
