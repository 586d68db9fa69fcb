// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// For suites that exercise what the library does on a machine without a CUDA device (CI's): a precondition that
// skips them, saying why, where a device is present, and the errors such a machine reports.
#pragma once

#include <boost/test/unit_test.hpp>

#include <gpuchrono/core/device.hpp>

#include <string>

struct without_device {
    boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const {
        boost::test_tools::assertion_result r(gpuchrono::device_count() == 0);
        r.message() << "a CUDA device is present: the no-device paths cannot be exercised here";
        return r;
    }
};

inline bool names_a_no_device_error(const std::string& what) {
    return what.find("cudaErrorNoDevice") != std::string::npos ||
           what.find("cudaErrorInsufficientDriver") != std::string::npos;
}
