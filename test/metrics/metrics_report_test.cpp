// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The metrics renderers on a synthetic report: JSON round trip (NaN, units, peaks, roofline, notes), the text
// section, the CSV tables, the roofline SVG and its place in report_files' HTML index, and the comparison of
// two reports' metrics. Device-free.
#include "report/compare/metric_comparison.hpp"
#include "report/compare/report_comparison.hpp"
#include <gpuchrono/metrics/device_peaks.hpp>
#include <gpuchrono/metrics/roofline_points.hpp>
#include "report/render/kernel_metrics_csv.hpp"
#include "report/render/kernel_metrics_text.hpp"
#include <gpuchrono/report/render/report_files.hpp>
#include <gpuchrono/report/json/report_json.hpp>
#include "report/render/roofline_svg.hpp"
#include <gpuchrono/report/render/text_report.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace gm = gpuchrono::metrics;
namespace gr = gpuchrono::report;

namespace {

const std::string sass = "smsp__sass_thread_inst_executed_op_";

gm::KernelMetrics launch(std::string name, double ffma, double read, double write, double ns, double hit) {
    gm::KernelMetrics k;
    k.kernel = std::move(name);
    k.device = 0;
    k.values = {{sass + "fadd_pred_on.sum", 0, "inst"},      {sass + "fmul_pred_on.sum", 0, "inst"},
                {sass + "ffma_pred_on.sum", ffma, "inst"},   {sass + "dadd_pred_on.sum", 0, "inst"},
                {sass + "dmul_pred_on.sum", 0, "inst"},      {sass + "dfma_pred_on.sum", 0, "inst"},
                {"dram__bytes_read.sum", read, "byte"},      {"dram__bytes_write.sum", write, "byte"},
                {"gpu__time_duration.sum", ns, "nsecond"},   {"lts__t_sector_hit_rate.pct", hit, "%"}};
    return k;
}

// A copy (memory-bound) and an FMA loop (compute-bound) on an H100's peaks; `read_scale` shrinks the copy's reads.
gm::MetricsResult result(double read_scale = 1.0) {
    gm::MetricsResult r;
    r.peaks = gm::device_peaks(gm::DeviceAttributes{.device = 0, .name = "NVIDIA H100 80GB HBM3", .compute_major = 9,
                                                    .compute_minor = 0, .sm_count = 132, .max_sm_clock_khz = 1980000,
                                                    .memory_clock_khz = 2619000, .memory_bus_bits = 5120});
    r.kernels.push_back(launch("copy_kernel", 1e6, 268445184 * read_scale, 250056704, 181984, 51.63));
    r.kernels.push_back(launch("fma_loop", 1e12, 4e6, 4e6, 40e6, gm::metric_not_measured));
    for (const auto name : gm::roofline_metric_names()) r.requested.emplace_back(name);
    r.requested.emplace_back("lts__t_sector_hit_rate.pct");
    r.passes = 3;
    r.collection_ns = 12.5e6;
    r.notes.push_back("a note with \"quotes\", commas");
    gm::add_roofline(r);
    return r;
}

gr::Report report(double read_scale = 1.0, double time_scale = 1.0) {
    gr::Report rep;
    rep.device.name = "NVIDIA H100 80GB HBM3";
    gr::Experiment e;
    e.id = "kernels";
    e.title = "Kernels";
    std::vector<gpuchrono::Duration> samples;
    for (int i = 0; i < 30; ++i) samples.push_back(gpuchrono::Duration::from_us((180 + (i % 3)) * time_scale));
    gr::SampleSeries s = gr::make_series("copy", "event", samples);
    s.kernel_metrics = result(read_scale);
    e.series.push_back(std::move(s));
    rep.experiments.push_back(std::move(e));
    return rep;
}

// A wrapped text as one line: each line break and the indent after it become one space.
std::string joined(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n') {
            out += text[i];
            continue;
        }
        while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
        out += ' ';
    }
    return out;
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(metrics_report)

BOOST_AUTO_TEST_CASE(json_round_trip_keeps_every_value_nan_and_unit) {
    const gr::Report before = report();
    const std::string text = gr::to_json(before);
    BOOST_TEST(text.find("\"kernel_metrics\"") != std::string::npos);
    const gr::Report after = gr::report_from_json(text);
    const gm::MetricsResult& a = *before.experiments[0].series[0].kernel_metrics;
    BOOST_TEST_REQUIRE(after.experiments[0].series[0].kernel_metrics.has_value());
    const gm::MetricsResult& b = *after.experiments[0].series[0].kernel_metrics;
    BOOST_TEST(b.requested == a.requested);
    BOOST_TEST(b.passes == 3u);
    BOOST_TEST(b.collection_ns == 12.5e6);
    BOOST_TEST(b.notes == a.notes);
    BOOST_TEST_REQUIRE(b.kernels.size() == a.kernels.size());
    for (std::size_t i = 0; i < a.kernels.size(); ++i) {
        BOOST_TEST(b.kernels[i].kernel == a.kernels[i].kernel);
        BOOST_TEST(b.kernels[i].launch == a.kernels[i].launch);
        BOOST_TEST(b.kernels[i].device == a.kernels[i].device);
        BOOST_TEST_REQUIRE(b.kernels[i].values.size() == a.kernels[i].values.size());
        for (std::size_t j = 0; j < a.kernels[i].values.size(); ++j) {
            BOOST_TEST(b.kernels[i].values[j].name == a.kernels[i].values[j].name);
            BOOST_TEST(b.kernels[i].values[j].unit == a.kernels[i].values[j].unit);
            BOOST_TEST(same(b.kernels[i].values[j].value, a.kernels[i].values[j].value));
        }
    }
    BOOST_TEST(std::isnan(b.kernels[1].find("lts__t_sector_hit_rate.pct")->value));  // NaN written as null
    BOOST_TEST_REQUIRE(b.peaks.has_value());
    BOOST_TEST(b.peaks->fp32_flops_per_second == a.peaks->fp32_flops_per_second);
    BOOST_TEST(b.peaks->source == a.peaks->source);
    BOOST_TEST(b.peaks->memory_bus_bits == 5120);
    BOOST_TEST_REQUIRE(b.roofline.size() == 2u);
    BOOST_TEST(b.roofline[1].bound == "compute");
    BOOST_TEST(b.roofline[0].intensity == a.roofline[0].intensity);
    BOOST_TEST(gr::to_json(after) == text);  // a second trip changes nothing
    // A series without metrics writes no member and reads back without them.
    gr::Report plain = before;
    plain.experiments[0].series[0].kernel_metrics.reset();
    BOOST_TEST(gr::to_json(plain).find("kernel_metrics") == std::string::npos);
    BOOST_TEST(!gr::report_from_json(gr::to_json(plain)).experiments[0].series[0].kernel_metrics.has_value());
}

BOOST_AUTO_TEST_CASE(json_reader_names_the_wrong_member) {
    std::string text = gr::to_json(report());
    const std::string from = "\"name\": \"dram__bytes_read.sum\", \"value\": 268445184.0";
    const auto at = text.find(from);
    BOOST_TEST_REQUIRE(at != std::string::npos, text.substr(text.find("dram__bytes_read"), 80));
    text.replace(at, from.size(), "\"name\": \"dram__bytes_read.sum\", \"value\": \"many\"");
    try {
        (void)gr::report_from_json(text);
        BOOST_FAIL("a string value was accepted");
    } catch (const gr::ReportError& e) {
        BOOST_TEST(std::string(e.what()) ==
                   "experiments[0].series[0].kernel_metrics.kernels[0].values[6].value: expected a number, found string");
    }
}

BOOST_AUTO_TEST_CASE(text_section_shows_units_peaks_and_roofline) {
    const std::string text = gr::render_text(report());
    BOOST_TEST(text.find("Hardware metrics of \"copy\"") != std::string::npos, text);
    BOOST_TEST(text.find("dram__bytes_read.sum") != std::string::npos);
    BOOST_TEST(text.find("268445184") != std::string::npos);
    BOOST_TEST(text.find("byte") != std::string::npos);
    BOOST_TEST(text.find("not measured") != std::string::npos);  // the NaN hit rate
    const std::string one_line = joined(text);  // the peaks line wraps at 100 columns
    BOOST_TEST(one_line.find("peaks of device 0 (NVIDIA H100 80GB HBM3, compute 9.0, 132 SMs at 1980 MHz): FP32 66.9 "
                             "TFLOP/s, FP64 33.5 TFLOP/s, DRAM 3.35 TB/s") != std::string::npos, text);
    BOOST_TEST(text.find("3 replay passes per kernel, 12.5 ms to collect") != std::string::npos, text);
    BOOST_TEST(text.find("memory") != std::string::npos);
    BOOST_TEST(text.find("compute") != std::string::npos);
    BOOST_TEST(text.find("note: a note with \"quotes\", commas") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(csv_tables_hold_every_value) {
    const gr::Report rep = report();
    BOOST_TEST(gr::has_kernel_metrics(rep));
    const std::string csv = gr::render_kernel_metrics_csv(rep);
    BOOST_TEST(csv.starts_with("experiment,series,kernel,launch,device,metric,value,unit,note\n"));
    BOOST_TEST(csv.find("kernels,copy,copy_kernel,0,0,dram__bytes_read.sum,268445184,byte,\n") != std::string::npos, csv);
    BOOST_TEST(csv.find("kernels,copy,fma_loop,0,0,lts__t_sector_hit_rate.pct,,%,\n") != std::string::npos, csv);  // NaN: empty
    const std::string roof = gr::render_roofline_csv(rep);
    BOOST_TEST(roof.find("kernels,copy,fma_loop,0,fp32,2e+12,8e+06,0.04,250000,5e+13,6.690816e+13,compute,") !=
               std::string::npos, roof);
    BOOST_TEST(roof.find(",compute,6.690816e+13,3.35232e+12\n") != std::string::npos, roof);
}

// A hit rate of 101.06% (seen for an FMA loop on an H100) and a negative count: each carries a note, kept through
// JSON, marked in the text table and listed under it, and in its CSV column; values in range carry none.
BOOST_AUTO_TEST_CASE(values_outside_their_units_range_carry_a_note) {
    BOOST_TEST(gm::out_of_range_note("%", 51.63).empty());
    BOOST_TEST(gm::out_of_range_note("%", 100.0).empty());
    BOOST_TEST(gm::out_of_range_note("%", 0.0).empty());
    BOOST_TEST(gm::out_of_range_note("%", gm::metric_not_measured).empty());
    BOOST_TEST(gm::out_of_range_note("", -3.0).empty());  // a ratio may be anything
    BOOST_TEST(gm::out_of_range_note("byte", 0.0).empty());
    const std::string above = gm::out_of_range_note("%", 101.06);
    BOOST_TEST(above.find("101.06% is outside a percentage's range 0..100") == 0u, above);
    BOOST_TEST(above.find("read it as 100%") != std::string::npos, above);
    BOOST_TEST(gm::out_of_range_note("%", -0.5).find("read it as 0%") != std::string::npos);
    const std::string negative = gm::out_of_range_note("inst", -2.0);
    BOOST_TEST(negative.find("-2 inst is negative") == 0u, negative);

    gr::Report rep = report();
    gm::MetricValue& hit = rep.experiments[0].series[0].kernel_metrics->kernels[1].values.back();
    hit.value = 101.06;
    BOOST_TEST(hit.note() == above);
    const std::string json = gr::to_json(rep);
    BOOST_TEST(json.find("\"note\": \"101.06% is outside") != std::string::npos, json);
    const gr::Report back = gr::report_from_json(json);
    BOOST_TEST(back.experiments[0].series[0].kernel_metrics->kernels[1].values.back().note() == above);
    BOOST_TEST(back.experiments[0].series[0].kernel_metrics->kernels[0].values.back().note().empty());
    const std::string text = gr::render_kernel_metrics_text(*back.experiments[0].series[0].kernel_metrics, "");
    BOOST_TEST(text.find("101.1 *") != std::string::npos, text);  // four significant digits in the table
    BOOST_TEST(text.find("* outside its unit's range: see the notes below") != std::string::npos, text);
    const std::string one_line = joined(text);  // notes wrap at 100 columns
    BOOST_TEST(one_line.find("note: * lts__t_sector_hit_rate.pct of fma_loop (launch 0): 101.06% is outside") != std::string::npos, text);
    const std::string csv = gr::render_kernel_metrics_csv(back);
    BOOST_TEST(csv.find("kernels,copy,fma_loop,0,0,lts__t_sector_hit_rate.pct,101.06,%,\"101.06% is outside") != std::string::npos, csv);
    const std::string plain = gr::render_kernel_metrics_text(*report().experiments[0].series[0].kernel_metrics, "");
    BOOST_TEST(plain.find("outside its unit's range") == std::string::npos, plain);
}

BOOST_AUTO_TEST_CASE(roofline_svg_draws_both_roofs_and_one_labelled_point_per_kernel) {
    const gm::MetricsResult r = result();
    BOOST_TEST(gr::can_draw_roofline(r));
    const std::string svg = gr::render_roofline_svg(r, {.title = "Roofline: copy"});
    BOOST_TEST(svg.starts_with("<?xml"));
    BOOST_TEST(svg.ends_with("</svg>\n"));
    std::size_t circles = 0;
    for (auto at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1)) ++circles;
    BOOST_TEST(circles == 2u);
    std::size_t roofs = 0;
    for (auto at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++roofs;
    BOOST_TEST(roofs == 2u);  // FP32 and FP64
    BOOST_TEST(svg.find(">copy_kernel</text>") != std::string::npos);
    BOOST_TEST(svg.find(">fma_loop</text>") != std::string::npos);
    BOOST_TEST(svg.find("FP32 peak 66.9 TFLOP/s") != std::string::npos);
    BOOST_TEST(svg.find("DRAM 3.35 TB/s") != std::string::npos);
    gm::MetricsResult no_peaks = r;
    no_peaks.peaks.reset();
    BOOST_TEST(!gr::can_draw_roofline(no_peaks));
    BOOST_CHECK_THROW(gr::render_roofline_svg(no_peaks), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(report_files_write_the_metrics_files_and_link_the_chart) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("gpuchrono-metrics-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    (void)gr::write_report_files(report(), dir);
    BOOST_TEST(std::filesystem::exists(dir / "kernel_metrics.csv"));
    BOOST_TEST(std::filesystem::exists(dir / "roofline.csv"));
    BOOST_TEST(std::filesystem::exists(dir / "roofline-kernels-copy.svg"));
    const std::string html = slurp(dir / "index.html");
    BOOST_TEST(html.find("<img src=\"roofline-kernels-copy.svg\"") != std::string::npos, html.substr(0, 600));
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(compare_shows_metric_changes_next_to_time_changes) {
    // The new copy reads 52% of the bytes and takes 60% of the time.
    const gpuchrono::ReportComparison c = gpuchrono::compare_reports(report(), report(0.52, 0.6));
    BOOST_TEST_REQUIRE(c.rows.size() == 1u);
    BOOST_TEST_REQUIRE(c.rows[0].metrics.has_value());
    const gpuchrono::MetricComparison& m = *c.rows[0].metrics;
    BOOST_TEST_REQUIRE(m.changes.size() == 1u);
    BOOST_TEST(m.changes[0].metric == "dram__bytes_read.sum");
    BOOST_TEST(m.changes[0].change == -0.48, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(m.unchanged == 18u);  // 10 metrics x 2 launches, less the change and the NaN hit rate
    BOOST_TEST(m.unmatched.empty());
    const std::string text = gpuchrono::render_comparison(c);
    BOOST_TEST(text.find("kernels / copy, kernel copy_kernel: dram__bytes_read.sum -48.00% (2.68445e+08 -> "
                         "1.39591e+08 byte): the new kernel reads about half as much") != std::string::npos, text);
    BOOST_TEST(text.find("kernels / copy: 18 other hardware metrics within 1%") != std::string::npos, text);
    BOOST_TEST(text.find("faster") != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(metric_changes_in_points_and_unmatched_launches) {
    gm::MetricsResult a = result(), b = result();
    b.kernels[0].values.back().value = 80.2;  // hit rate 51.63% -> 80.2%
    b.kernels.pop_back();                     // the FMA loop is gone
    const gpuchrono::MetricComparison m = gpuchrono::compare_kernel_metrics(a, b);
    BOOST_TEST_REQUIRE(m.changes.size() == 1u);
    BOOST_TEST(gpuchrono::describe(m.changes[0]) == "lts__t_sector_hit_rate.pct 51.6 -> 80.2 % (+28.6 points)");
    BOOST_TEST_REQUIRE(m.unmatched.size() == 1u);
    BOOST_TEST(m.unmatched[0] == "\"fma_loop\" launch 0: only in the base report");
    gpuchrono::MetricChange twice{"k", 0, "dram__bytes_write.sum", "byte", 100, 205, 1.05};
    BOOST_TEST(gpuchrono::describe(twice) == "dram__bytes_write.sum +105.00% (100 -> 205 byte): the new kernel writes about "
                                             "twice as much");
}

BOOST_AUTO_TEST_SUITE_END()
