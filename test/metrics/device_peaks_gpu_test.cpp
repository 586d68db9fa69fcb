// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// device_peaks() on the real device: every peak positive (or NaN with a reason, for an architecture the lane
// table lacks) and equal to the products of the attributes the driver reports, read here independently.
#include <gpuchrono/metrics/device_peaks.hpp>

#include <boost/test/unit_test.hpp>

#include <cuda_runtime_api.h>

#include <cmath>
#include <iostream>

namespace gm = gpuchrono::metrics;
namespace tt = boost::test_tools;

namespace {

int attribute(cudaDeviceAttr what, int device) {
    int v = 0;
    BOOST_REQUIRE_EQUAL(cudaDeviceGetAttribute(&v, what, device), cudaSuccess);
    return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(device_peaks_gpu)

BOOST_AUTO_TEST_CASE(peaks_match_the_attributes_of_device_0) {
    const gm::DevicePeaks p = gm::device_peaks(0);
    std::cout << "device 0: " << p.device_name << ": FP32 " << p.fp32_flops_per_second << " FLOP/s, FP64 "
              << p.fp64_flops_per_second << " FLOP/s, DRAM " << p.dram_bytes_per_second << " B/s\n  " << p.source << "\n";
    const int sms = attribute(cudaDevAttrMultiProcessorCount, 0);
    const int major = attribute(cudaDevAttrComputeCapabilityMajor, 0);
    const int minor = attribute(cudaDevAttrComputeCapabilityMinor, 0);
    const double clock_khz = attribute(cudaDevAttrClockRate, 0);
    const double mem_khz = attribute(cudaDevAttrMemoryClockRate, 0);
    const double bus = attribute(cudaDevAttrGlobalMemoryBusWidth, 0);
    BOOST_TEST(p.sm_count == sms);
    BOOST_TEST(p.compute_major == major);
    BOOST_TEST(p.compute_minor == minor);
    BOOST_TEST(p.sm_clock_mhz == clock_khz / 1000.0);
    BOOST_TEST(!p.device_name.empty());
    BOOST_TEST(p.dram_bytes_per_second > 0);
    BOOST_TEST(p.dram_bytes_per_second == 2.0 * mem_khz * 1e3 * bus / 8.0, tt::tolerance(1e-12));
    const gm::ArithmeticLanes lanes = gm::arithmetic_lanes_per_sm(major, minor);
    if (std::isnan(lanes.fp32)) {
        BOOST_TEST(std::isnan(p.fp32_flops_per_second));
        BOOST_TEST(p.source.find("not in gpuchrono's FP32/FP64 lane table") != std::string::npos, p.source);
        return;
    }
    BOOST_TEST(p.fp32_flops_per_second > 0);
    BOOST_TEST(p.fp32_flops_per_second == sms * lanes.fp32 * 2.0 * clock_khz * 1e3, tt::tolerance(1e-12));
    if (!std::isnan(lanes.fp64)) {
        BOOST_TEST(p.fp64_flops_per_second > 0);
        BOOST_TEST(p.fp64_flops_per_second <= p.fp32_flops_per_second);
    }
    // A caller's clock (e.g. the clock a run measured) scales the FLOP peaks and leaves DRAM alone.
    const gm::DevicePeaks half = gm::device_peaks(0, clock_khz / 2000.0);
    BOOST_TEST(half.fp32_flops_per_second == p.fp32_flops_per_second / 2, tt::tolerance(1e-12));
    BOOST_TEST(half.dram_bytes_per_second == p.dram_bytes_per_second);
}

BOOST_AUTO_TEST_CASE(an_absent_device_is_refused) {
    int count = 0;
    BOOST_REQUIRE_EQUAL(cudaGetDeviceCount(&count), cudaSuccess);
    BOOST_CHECK_THROW(gm::device_peaks(count), std::exception);
}

BOOST_AUTO_TEST_SUITE_END()
