// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The precondition of the suites that need CUPTI for themselves: under compute-sanitizer, Nsight or another CUPTI
// tool wrapping the test program, CUPTI's one subscriber slot is taken and the suite is skipped with the reason
// (docs/errors.md; gpu-run --sanitize runs them so), not failed. CUPTI missing on a GPU machine is no reason to
// skip: the suite's fixture then fails, with the reason.
#pragma once

#include <boost/test/unit_test.hpp>

#include <string>

#include <gpuchrono/api.hpp>

inline boost::test_tools::assertion_result cupti_not_held_by_a_tool(boost::unit_test::test_unit_id) {
    if (gpuchrono::KernelPolicy::available()) return true;
    const std::string why = gpuchrono::KernelPolicy::unavailable_reason();
    if (why.find("taken by another tool") == std::string::npos) return true;
    boost::test_tools::assertion_result skip(false);
    skip.message() << "skipped: " << why;
    return skip;
}
