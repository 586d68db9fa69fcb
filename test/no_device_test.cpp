// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a user sees on a machine without a GPU: a CudaError that names the CUDA error and the call, never a
// crash. These cases only make sense without a device, so on a GPU machine they are skipped visibly.
#include <boost/test/unit_test.hpp>

#include "no_device.hpp"

#include <cuda_runtime_api.h>

#include <string>

// Internals the module does not export, reached through their headers.
#include <gpuchrono/core/device.hpp>
#include <gpuchrono/gpu/event_pool.hpp>

#include <gpuchrono/api.hpp>

// g++ 12 at -O2 reports boost::function's copy of this suite decorator's (empty) functor buffer as uninitialized
// (-Wuninitialized inside boost/function/function_template.hpp, reached through the static initialiser): a false
// positive, and this file-level decorator is the only place it fires.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
BOOST_AUTO_TEST_SUITE(no_device, *boost::unit_test::precondition(without_device()))

BOOST_AUTO_TEST_CASE(device_queries_answer_zero_and_say_why) {
    BOOST_TEST(gpuchrono::device_count() == 0);
    const auto why = gpuchrono::no_device_reason();
    BOOST_REQUIRE(why.has_value());
    BOOST_TEST(names_a_no_device_error(*why), *why);
}

BOOST_AUTO_TEST_CASE(event_timer_throws_a_named_cuda_error) {
    const int line = __LINE__ + 2;
    try {
        gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(cudaStream_t{});
        BOOST_FAIL("an EventPolicy timer cannot start without a device");
    } catch (const gpuchrono::CudaError& e) {
        BOOST_TEST(names_a_no_device_error(e.what()), e.what());
        // The user's call comes first, then what the library asked CUDA: the first CUDA call of a timer asks
        // whether the stream is being captured (see stream_device()).
        const std::string what = e.what();
        BOOST_TEST(what.starts_with("gpuchrono: no usable CUDA device (" + std::string(e.name()) + ": "), what);
        // The user's line, and no file of the library's.
        BOOST_TEST(what.find(") in ScopedTimer<EventPolicy> at no_device_test.cpp:" + std::to_string(line) + "; ") !=
                       std::string::npos,
                   what);
        BOOST_TEST(what.find("cudaStreamIsCapturing") != std::string::npos, what);
        BOOST_TEST(what.find(".cpp:") == what.find("no_device_test.cpp:") + std::string("no_device_test").size(), what);
        BOOST_TEST(e.entry_point() == "ScopedTimer<EventPolicy>");
        BOOST_TEST(e.no_usable_device());
        BOOST_TEST(names_a_no_device_error(e.name()));
    }
}

BOOST_AUTO_TEST_CASE(host_sync_timer_throws_a_named_cuda_error) {
    try {
        gpuchrono::ScopedTimer<gpuchrono::HostSyncPolicy> t(cudaStream_t{}, gpuchrono::SyncScope::device);
        BOOST_FAIL("a HostSyncPolicy timer cannot start without a device");
    } catch (const gpuchrono::CudaError& e) {
        BOOST_TEST(names_a_no_device_error(e.what()), e.what());
        BOOST_TEST(std::string(e.what()).find(" in ScopedTimer<HostSyncPolicy>") != std::string::npos, e.what());
    }
}

// measure() takes the caller's std::source_location: the message ends with the user's file and line.
BOOST_AUTO_TEST_CASE(measure_names_the_callers_line) {
    const auto line = __LINE__ + 2;
    try {
        (void)gpuchrono::measure("saxpy", cudaStream_t{}, [](cudaStream_t) {});
        BOOST_FAIL("measure() cannot run without a device");
    } catch (const gpuchrono::CudaError& e) {
        const std::string what = e.what();
        BOOST_TEST(what.starts_with("gpuchrono: no usable CUDA device ("), what);
        BOOST_TEST(what.find(" in measure(\"saxpy\") at no_device_test.cpp:" + std::to_string(line) + ";") !=
                       std::string::npos,
                   what);
    }
}

BOOST_AUTO_TEST_CASE(prepare_throws_a_named_cuda_error) {
    BOOST_CHECK_EXCEPTION(gpuchrono::prepare(cudaStream_t{}), gpuchrono::CudaError, [](const gpuchrono::CudaError& e) {
        return names_a_no_device_error(e.what()) && e.entry_point() == "prepare()";
    });
}

BOOST_AUTO_TEST_CASE(event_pool_throws_a_named_cuda_error) {
    BOOST_CHECK_EXCEPTION((void)gpuchrono::EventPool::instance().acquire(0), gpuchrono::CudaError,
                          [](const gpuchrono::CudaError& e) { return names_a_no_device_error(e.what()); });
}

// The pools hold nothing when no device could be used: releasing them makes no CUDA call and cannot fail, and
// the failed acquisitions above left nothing behind.
BOOST_AUTO_TEST_CASE(releasing_the_pools_without_a_device_is_a_no_op) {
    BOOST_CHECK_NO_THROW(gpuchrono::release_pools());
    BOOST_TEST(gpuchrono::EventPool::instance().available(0) == 0u);
    BOOST_TEST(gpuchrono::EventPool::instance().destroyed(0) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
