// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include <cuda_runtime_api.h>

#include <type_traits>

#include <gpuchrono/api.hpp>

namespace {
struct NoStop {
    static constexpr const char* name = "no-stop";
    void start() {}
};
struct WrongStopType {
    static constexpr const char* name = "wrong";
    void start() {}
    int stop() { return 0; }
};
struct Unnamed {
    void start() {}
    gpuchrono::Measurement stop() { return {}; }
};
}  // namespace

BOOST_AUTO_TEST_SUITE(concepts)

BOOST_AUTO_TEST_CASE(the_policies_model_timing_policy) {
    static_assert(gpuchrono::TimingPolicy<gpuchrono::EventPolicy>);
    static_assert(gpuchrono::TimingPolicy<gpuchrono::HostSyncPolicy>);
    static_assert(gpuchrono::TimingPolicy<gpuchrono::HostClockPolicy>);
    BOOST_TEST(gpuchrono::EventPolicy::name == "event");
    BOOST_TEST(gpuchrono::HostSyncPolicy::name == "host-sync");
}

BOOST_AUTO_TEST_CASE(incomplete_types_are_not_policies) {
    static_assert(!gpuchrono::TimingPolicy<NoStop>);
    static_assert(!gpuchrono::TimingPolicy<WrongStopType>);
    static_assert(!gpuchrono::TimingPolicy<Unnamed>);
    static_assert(!gpuchrono::TimingPolicy<int>);
    BOOST_TEST_MESSAGE("concept checks are static_asserts: this case compiling is the test");
}

BOOST_AUTO_TEST_CASE(timers_move_but_do_not_copy) {
    using T = gpuchrono::ScopedTimer<gpuchrono::EventPolicy>;
    static_assert(!std::is_copy_constructible_v<T> && !std::is_copy_assignable_v<T>);
    static_assert(std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>);
    static_assert(std::is_nothrow_destructible_v<T>);
    // A timer is built from what its policy is built from, and from nothing else.
    static_assert(std::is_constructible_v<T, cudaStream_t>);
    static_assert(std::is_constructible_v<T, gpuchrono::Series&, cudaStream_t>);
    static_assert(!std::is_constructible_v<T, int, int, int>);
    static_assert(std::is_constructible_v<gpuchrono::ScopedTimer<gpuchrono::HostClockPolicy>>);
    BOOST_TEST_MESSAGE("type traits are static_asserts: this case compiling is the test");
}

BOOST_AUTO_TEST_SUITE_END()
