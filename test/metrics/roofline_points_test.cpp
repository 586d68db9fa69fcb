// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// roofline_points() from known counter values: which precision is chosen, intensity, achieved and attainable
// FLOP/s, the bounding roof, and the notes for launches that lack counters. Device-free.
#include <gpuchrono/metrics/roofline_points.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

namespace gm = gpuchrono::metrics;
namespace tt = boost::test_tools;

namespace {

const std::string sass = "smsp__sass_thread_inst_executed_op_";

// FP32 peak 60e12, FP64 30e12, DRAM 3e12 B/s: the ridge is at 20 FLOP/byte (fp32) and 10 (fp64).
gm::DevicePeaks peaks() {
    gm::DevicePeaks p;
    p.fp32_flops_per_second = 60e12;
    p.fp64_flops_per_second = 30e12;
    p.dram_bytes_per_second = 3e12;
    p.source = "test";
    return p;
}

gm::KernelMetrics kernel(std::string name, double fadd, double fmul, double ffma, double dfma, double read, double write,
                         double ns) {
    gm::KernelMetrics k;
    k.kernel = std::move(name);
    k.values = {{sass + "fadd_pred_on.sum", fadd, "inst"}, {sass + "fmul_pred_on.sum", fmul, "inst"},
                {sass + "ffma_pred_on.sum", ffma, "inst"}, {sass + "dadd_pred_on.sum", 0, "inst"},
                {sass + "dmul_pred_on.sum", 0, "inst"},    {sass + "dfma_pred_on.sum", dfma, "inst"},
                {"dram__bytes_read.sum", read, "byte"},    {"dram__bytes_write.sum", write, "byte"},
                {"gpu__time_duration.sum", ns, "nanosecond"}};  // the unit CUDA 13.0's CUPTI gives on an H100
    return k;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(roofline_points)

BOOST_AUTO_TEST_CASE(a_copy_is_memory_bound_and_an_fma_loop_compute_bound) {
    gm::MetricsResult r;
    r.peaks = peaks();
    // copy: 0 FLOPs... one FADD per element to have a point: 1e6 FLOPs over 2e8 bytes in 100 us.
    r.kernels.push_back(kernel("copy", 1e6, 0, 0, 0, 1e8, 1e8, 100000));
    // fma loop: 1e12 FMAs = 2e12 FLOPs, 1e9 bytes, 50 ms: intensity 2000, 40 TFLOP/s.
    r.kernels.push_back(kernel("fma", 0, 0, 1e12, 0, 5e8, 5e8, 50e6));
    const auto points = gm::roofline_points(r);
    BOOST_TEST_REQUIRE(points.size() == 2u);
    const gm::RooflinePoint& copy = points[0];
    BOOST_TEST(copy.kernel == "copy");
    BOOST_TEST(copy.precision == "fp32");
    BOOST_TEST(copy.flops == 1e6);
    BOOST_TEST(copy.dram_bytes == 2e8);
    BOOST_TEST(copy.seconds == 1e-4, tt::tolerance(1e-12));
    BOOST_TEST(copy.intensity == 0.005, tt::tolerance(1e-12));
    BOOST_TEST(copy.achieved_flops_per_second == 1e10, tt::tolerance(1e-12));
    BOOST_TEST(copy.attainable_flops_per_second == 0.005 * 3e12, tt::tolerance(1e-12));
    BOOST_TEST(copy.bound == "memory");
    const gm::RooflinePoint& fma = points[1];
    BOOST_TEST(fma.flops == 2e12);
    BOOST_TEST(fma.intensity == 2000.0, tt::tolerance(1e-12));
    BOOST_TEST(fma.achieved_flops_per_second == 40e12, tt::tolerance(1e-12));
    BOOST_TEST(fma.attainable_flops_per_second == 60e12, tt::tolerance(1e-12));
    BOOST_TEST(fma.bound == "compute");
    BOOST_TEST(gm::roofline_point_notes(r).empty());
}

BOOST_AUTO_TEST_CASE(the_larger_precision_is_plotted_against_its_own_roof) {
    gm::MetricsResult r;
    r.peaks = peaks();
    // 10 FP32 adds against 1e9 DFMAs (2e9 FP64 FLOPs), 1.5e8 bytes: intensity 13.3 > the fp64 ridge (10).
    r.kernels.push_back(kernel("dgemm", 10, 0, 0, 1e9, 1e8, 0.5e8, 1e6));
    const auto points = gm::roofline_points(r);
    BOOST_TEST_REQUIRE(points.size() == 1u);
    BOOST_TEST(points[0].precision == "fp64");
    BOOST_TEST(points[0].flops == 2e9);
    BOOST_TEST(points[0].attainable_flops_per_second == 30e12);
    BOOST_TEST(points[0].bound == "compute");  // against the fp32 roof (ridge 20) it would read memory-bound
}

BOOST_AUTO_TEST_CASE(dram_bytes_sum_stands_in_for_read_plus_write_and_units_scale) {
    gm::MetricsResult r;
    r.peaks = peaks();
    gm::KernelMetrics k = kernel("k", 0, 0, 1e6, 0, 0, 0, 0);
    std::erase_if(k.values, [](const gm::MetricValue& v) { return v.name.starts_with("dram__bytes_"); });
    k.values.push_back({"dram__bytes.sum", 2.0, "Mbyte"});
    for (gm::MetricValue& v : k.values)
        if (v.name == "gpu__time_duration.sum") v = {v.name, 20.0, "usecond"};
    r.kernels.push_back(k);
    const auto points = gm::roofline_points(r);
    BOOST_TEST_REQUIRE(points.size() == 1u);
    BOOST_TEST(points[0].dram_bytes == 2e6);
    BOOST_TEST(points[0].seconds == 20e-6, tt::tolerance(1e-12));
    BOOST_TEST(points[0].intensity == 1.0);
}

BOOST_AUTO_TEST_CASE(every_spelling_of_a_time_unit_scales) {
    for (const auto& [unit, seconds] : std::initializer_list<std::pair<const char*, double>>{
             {"nanosecond", 1e-9}, {"nsecond", 1e-9}, {"ns", 1e-9}, {"microsecond", 1e-6}, {"usecond", 1e-6},
             {"millisecond", 1e-3}, {"second", 1.0}}) {
        gm::MetricsResult r;
        r.peaks = peaks();
        r.kernels.push_back(kernel("k", 0, 0, 1e6, 0, 1e6, 0, 1000));
        for (gm::MetricValue& v : r.kernels[0].values)
            if (v.name == "gpu__time_duration.sum") v.unit = unit;
        const auto points = gm::roofline_points(r);
        BOOST_TEST_REQUIRE(points.size() == 1u, unit);
        BOOST_TEST(points[0].seconds == 1000 * seconds, tt::tolerance(1e-12));
    }
}

BOOST_AUTO_TEST_CASE(no_unit_means_nvpw_base_units) {
    gm::MetricsResult r;
    r.peaks = peaks();
    r.kernels.push_back(kernel("k", 0, 0, 1e6, 0, 1e6, 0, 1000));
    for (gm::MetricValue& v : r.kernels[0].values) v.unit.clear();
    const auto points = gm::roofline_points(r);
    BOOST_TEST_REQUIRE(points.size() == 1u);
    BOOST_TEST(points[0].dram_bytes == 1e6);
    BOOST_TEST(points[0].seconds == 1e-6, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(launches_without_the_counters_are_named_in_a_note) {
    gm::MetricsResult r;
    r.peaks = peaks();
    gm::KernelMetrics memory_only;
    memory_only.kernel = "copy";
    memory_only.launch = 3;
    memory_only.values = {{"dram__bytes_read.sum", 1e8, "byte"}, {"gpu__time_duration.sum", 1e5, "nsecond"}};
    r.kernels.push_back(memory_only);
    r.kernels.push_back(kernel("idle", 0, 0, 1, 0, 0, 0, 1000));  // no DRAM traffic: no finite intensity
    r.kernels.push_back(kernel("odd", 0, 0, 1, 0, 10, 10, 1000));
    r.kernels.back().values.back().unit = "cycle";
    BOOST_TEST(gm::roofline_points(r).empty());
    const auto notes = gm::roofline_point_notes(r);
    BOOST_TEST_REQUIRE(notes.size() == 3u);
    BOOST_TEST(notes[0] ==
               "no roofline point for \"copy\" launch 3: it lacks " + sass + "fadd_pred_on.sum, " + sass +
                   "fmul_pred_on.sum, " + sass + "ffma_pred_on.sum, " + sass + "dadd_pred_on.sum, " + sass +
                   "dmul_pred_on.sum, " + sass + "dfma_pred_on.sum, dram__bytes_read.sum and dram__bytes_write.sum "
                   "(or dram__bytes.sum)");
    BOOST_TEST(notes[1] == "no roofline point for \"idle\" launch 0: it moved no DRAM bytes, so its arithmetic "
                           "intensity has no finite value");
    BOOST_TEST(notes[2] == "no roofline point for \"odd\" launch 0: gpu__time_duration.sum has the unit \"cycle\", "
                           "not a time unit");
}

BOOST_AUTO_TEST_CASE(without_peaks_the_point_has_no_roofs_and_a_note_says_so) {
    gm::MetricsResult r;
    r.kernels.push_back(kernel("k", 0, 0, 1e6, 0, 1e6, 0, 1000));
    gm::add_roofline(r);
    BOOST_TEST_REQUIRE(r.roofline.size() == 1u);
    BOOST_TEST(r.roofline[0].intensity == 2.0);
    BOOST_TEST(std::isnan(r.roofline[0].attainable_flops_per_second));
    BOOST_TEST(r.roofline[0].bound.empty());
    BOOST_TEST_REQUIRE(r.notes.size() == 1u);
    BOOST_TEST(r.notes[0] == "roofline point for \"k\" launch 0 without roofs: the result carries no device peaks");
}

BOOST_AUTO_TEST_SUITE_END()
