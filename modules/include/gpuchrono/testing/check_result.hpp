// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CheckResult: what a performance check (testing/*.hpp) returns to whichever test framework calls it: whether
// it passed, and a message that says what was measured either way, so a failing test explains itself.
//
//     gpuchrono::CheckResult r = gpuchrono::check_no_findings(series);
//     BOOST_CHECK_MESSAGE(r.passed, r.message);          // <gpuchrono/boost_test.hpp> wraps exactly this
//     EXPECT_TRUE(r.passed) << r.message;                // GoogleTest
#pragma once

#include <string>

namespace gpuchrono {

struct CheckResult {
    bool passed = false;
    std::string message;

    explicit operator bool() const noexcept { return passed; }
};

}  // namespace gpuchrono
