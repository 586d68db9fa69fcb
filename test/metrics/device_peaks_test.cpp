// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// device_peaks() from attribute values, against figures computed by hand from the data sheets' inputs; the
// lane table's edges; the refusals. Device-free (the pure overload).
#include <gpuchrono/metrics/device_peaks.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <stdexcept>

namespace gm = gpuchrono::metrics;
namespace tt = boost::test_tools;

namespace {

// The attribute values an H100 SXM5 80GB reports: 132 SMs, clockRate 1980000 kHz, memoryClockRate 2619000 kHz,
// 5120-bit bus.
gm::DeviceAttributes h100() {
    return {.device = 0, .name = "NVIDIA H100 80GB HBM3", .compute_major = 9, .compute_minor = 0, .sm_count = 132,
            .max_sm_clock_khz = 1980000, .memory_clock_khz = 2619000, .memory_bus_bits = 5120};
}

// An A100 SXM4 40GB: 108 SMs, 1410 MHz, HBM2 at 1215 MHz on a 5120-bit bus.
gm::DeviceAttributes a100() {
    return {.device = 1, .name = "NVIDIA A100-SXM4-40GB", .compute_major = 8, .compute_minor = 0, .sm_count = 108,
            .max_sm_clock_khz = 1410000, .memory_clock_khz = 1215000, .memory_bus_bits = 5120};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(device_peaks)

BOOST_AUTO_TEST_CASE(h100_from_its_attributes) {
    const gm::DevicePeaks p = gm::device_peaks(h100());
    // 132 x 128 x 2 x 1.98e9 = 66.90816e12 FP32; 132 x 64 x 2 x 1.98e9 = 33.45408e12 FP64; 2 x 2.619e9 x 640 B.
    BOOST_TEST(p.fp32_flops_per_second == 66.90816e12, tt::tolerance(1e-12));
    BOOST_TEST(p.fp64_flops_per_second == 33.45408e12, tt::tolerance(1e-12));
    BOOST_TEST(p.dram_bytes_per_second == 3.35232e12, tt::tolerance(1e-12));
    BOOST_TEST(p.sm_clock_mhz == 1980.0);
    BOOST_TEST(p.memory_clock_mhz == 2619.0);
    BOOST_TEST(p.sm_count == 132);
    BOOST_TEST(p.memory_bus_bits == 5120);
    BOOST_TEST(p.device_name == "NVIDIA H100 80GB HBM3");
    BOOST_TEST(p.source ==
               "FP32 = 132 SMs x 128 lanes x 2 (FMA) x 1980 MHz (the maximum SM clock attribute); "
               "FP64 = 132 SMs x 64 lanes x 2 (FMA) x 1980 MHz (the maximum SM clock attribute); "
               "DRAM = 2 x 2619 MHz x 5120 bit / 8 (memory clock and bus width attributes); "
               "lanes per SM for compute 9.0 from the CUDA Programming Guide's arithmetic-instruction throughput table");
}

BOOST_AUTO_TEST_CASE(a100_from_its_attributes) {
    const gm::DevicePeaks p = gm::device_peaks(a100());
    // 108 x 64 x 2 x 1.41e9 = 19.49184e12 FP32; 108 x 32 x 2 x 1.41e9 = 9.74592e12 FP64; 2 x 1.215e9 x 640 B.
    BOOST_TEST(p.fp32_flops_per_second == 19.49184e12, tt::tolerance(1e-12));
    BOOST_TEST(p.fp64_flops_per_second == 9.74592e12, tt::tolerance(1e-12));
    BOOST_TEST(p.dram_bytes_per_second == 1.5552e12, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_given_clock_replaces_the_attribute) {
    // ncu locks the H100 at 1590 MHz while profiling: the FLOP peaks follow the clock given, DRAM does not.
    const gm::DevicePeaks p = gm::device_peaks(h100(), 1590.0);
    BOOST_TEST(p.fp32_flops_per_second == 132.0 * 128 * 2 * 1.59e9, tt::tolerance(1e-12));
    BOOST_TEST(p.dram_bytes_per_second == 3.35232e12, tt::tolerance(1e-12));
    BOOST_TEST(p.source.find("1590 MHz (the SM clock given)") != std::string::npos, p.source);
}

BOOST_AUTO_TEST_CASE(lane_table_covers_maxwell_to_blackwell) {
    const int known[][2] = {{5, 0}, {5, 2}, {5, 3}, {6, 0}, {6, 1}, {6, 2}, {7, 0}, {7, 2}, {7, 5}, {8, 0}, {8, 6},
                            {8, 7}, {8, 9}, {9, 0}, {10, 0}, {11, 0}, {12, 0}, {12, 1}};
    for (const auto& cc : known) {
        const gm::ArithmeticLanes l = gm::arithmetic_lanes_per_sm(cc[0], cc[1]);
        BOOST_TEST((l.fp32 == 64 || l.fp32 == 128), cc[0] << "." << cc[1]);
        BOOST_TEST(l.fp64 >= 2, cc[0] << "." << cc[1]);
        BOOST_TEST(l.note.empty());
    }
    BOOST_TEST(gm::arithmetic_lanes_per_sm(7, 5).fp64 == 2.0);   // the guide's footnote for Turing
    BOOST_TEST(gm::arithmetic_lanes_per_sm(8, 6).fp32 == 128.0);
    BOOST_TEST(gm::arithmetic_lanes_per_sm(6, 0).fp64 == 32.0);
}

BOOST_AUTO_TEST_CASE(an_unknown_architecture_gets_no_flop_peak_and_says_why) {
    gm::DeviceAttributes future = h100();
    future.compute_major = 13;
    future.compute_minor = 0;
    const gm::DevicePeaks p = gm::device_peaks(future);
    BOOST_TEST(std::isnan(p.fp32_flops_per_second));
    BOOST_TEST(std::isnan(p.fp64_flops_per_second));
    BOOST_TEST(p.dram_bytes_per_second == 3.35232e12, tt::tolerance(1e-12));  // DRAM needs no lane table
    BOOST_TEST(p.source.find("compute 13.0 is not in gpuchrono's FP32/FP64 lane table") != std::string::npos, p.source);
    BOOST_TEST(std::isnan(gm::arithmetic_lanes_per_sm(3, 5).fp32));  // older than the table: refused too
    gm::DeviceAttributes b300 = h100();
    b300.compute_major = 10;
    b300.compute_minor = 3;
    const gm::DevicePeaks q = gm::device_peaks(b300);
    BOOST_TEST(q.fp32_flops_per_second > 0);
    BOOST_TEST(std::isnan(q.fp64_flops_per_second));
}

BOOST_AUTO_TEST_CASE(missing_attributes_leave_nan_with_the_reason) {
    gm::DeviceAttributes a = h100();
    a.memory_clock_khz = 0;  // what some integrated GPUs report
    a.max_sm_clock_khz = 0;
    const gm::DevicePeaks p = gm::device_peaks(a);
    BOOST_TEST(std::isnan(p.dram_bytes_per_second));
    BOOST_TEST(std::isnan(p.fp32_flops_per_second));
    BOOST_TEST(p.source.find("DRAM: not given (the device reports memory clock 0 kHz") != std::string::npos, p.source);
    BOOST_TEST(p.source.find("reports no SM clock") != std::string::npos, p.source);
}

BOOST_AUTO_TEST_CASE(refusals) {
    BOOST_CHECK_THROW(gm::device_peaks(h100(), 0.0), std::invalid_argument);
    BOOST_CHECK_THROW(gm::device_peaks(h100(), -5.0), std::invalid_argument);
    BOOST_CHECK_THROW(gm::device_peaks(h100(), INFINITY), std::invalid_argument);
    gm::DeviceAttributes none = h100();
    none.sm_count = 0;
    BOOST_CHECK_THROW(gm::device_peaks(none), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
