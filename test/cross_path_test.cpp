// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include "cross_path.hpp"

#include <type_traits>

#include <gpuchrono/api.hpp>

BOOST_AUTO_TEST_SUITE(cross_path)

// One program, both paths: a Duration produced in an nvcc TU is the module's Duration, same type and value.
BOOST_AUTO_TEST_CASE(a_duration_from_a_cu_file_is_the_module_duration) {
    static_assert(std::is_same_v<decltype(cross_path::duration_made_by_nvcc(1.0)), gpuchrono::Duration>);
    static_assert(std::is_same_v<decltype(cross_path::time_spin_in_cu(nullptr, {})), gpuchrono::Measurement>);
    const gpuchrono::Duration d = cross_path::duration_made_by_nvcc(21.0);
    BOOST_TEST(d.ns() == 42.0);
    BOOST_TEST(gpuchrono::to_string(d) == "42 ns");
    BOOST_TEST((d == gpuchrono::Duration::from_ns(42)));
}

BOOST_AUTO_TEST_SUITE_END()
