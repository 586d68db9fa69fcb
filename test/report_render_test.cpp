// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include "xml_check.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

// The renderers and their helpers are internal.
#include "report/render/chrome_trace.hpp"
#include "report/render/csv.hpp"
#include <gpuchrono/report/render/progress.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>
#include "report/render/svg.hpp"
#include "report/render/sweep_svg.hpp"
#include <gpuchrono/report/render/text_report.hpp>
#include "report/render/text_table.hpp"
#include "report/render/timeline_summary.hpp"
#include "report/render/timeline_svg.hpp"
#include <gpuchrono/report/render/units.hpp>

#include <gpuchrono/api.hpp>

#include "sample_report.hpp"

namespace report = gpuchrono::report;

namespace {
// Parses, so a malformed text throws; the value itself is not needed (g++ warns on a discarded parse()).
void parse_json(const std::string& text) {
    const nlohmann::json parsed = nlohmann::json::parse(text);
    static_cast<void>(parsed);
}


bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// RFC 4180 reader, independent of the writer: rows of fields.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false, field_started = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && !field_started) {
            quoted = field_started = true;
        } else if (c == ',') {
            rows.back().push_back(field);
            field.clear();
            field_started = false;
        } else if (c == '\n') {
            rows.back().push_back(field);
            field.clear();
            field_started = false;
            rows.emplace_back();
        } else {
            field += c;
            field_started = true;
        }
    }
    BOOST_TEST_REQUIRE(!quoted);
    if (rows.back().empty()) rows.pop_back();
    return rows;
}

std::filesystem::path temp_dir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("gpuchrono-test-" + name + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
    return dir;
}

// True when `s` is well-formed UTF-8 (nlohmann's strict serializer refuses anything else).
bool is_utf8(const std::string& s) {
    try {
        (void)nlohmann::json(s).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

double number_attr(const xml_check::Element& e, const char* name) {
    const std::string* v = e.attribute(name);
    BOOST_TEST_REQUIRE(v != nullptr, "attribute " << name << " missing on <" << e.name << ">");
    return std::stod(*v);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_render)

BOOST_AUTO_TEST_CASE(units_follow_the_typical_value_of_a_column) {
    const std::vector<double> mixed = {800, 12'000, 40'000};
    BOOST_TEST(report::time_unit_for(mixed).name == std::string("us"));
    const std::vector<double> none = {std::nan("")};
    BOOST_TEST(report::time_unit_for(none).name == std::string("ns"));
    const std::vector<double> ms = {2.5e6, 3e6};
    BOOST_TEST(report::time_unit_for(ms).name == std::string("ms"));
    const std::vector<double> scaled = {0.8, 12.0, 40.0};
    BOOST_TEST(report::decimals_for(scaled, report::unit_us) == 3);  // 0.800 keeps three significant digits
    const std::vector<double> big = {120.0, 400.0};
    BOOST_TEST(report::decimals_for(big, report::unit_us) == 0);
    BOOST_TEST(report::decimals_for(big, report::unit_ns) == 0);
    BOOST_TEST(report::format_number(7.2567) == "7.26");
    BOOST_TEST(report::format_number(2710.4) == "2710");
    BOOST_TEST(report::format_number(0.8512) == "0.851");
    BOOST_TEST(report::format_number(std::nan("")) == "-");
    BOOST_TEST(report::format_with_unit(6800, "ns") == "6.80 us");
    BOOST_TEST(report::format_with_unit(7.26, "x") == "7.26x");
    BOOST_TEST(report::format_with_unit(2710.4, "GB/s") == "2710 GB/s");
    BOOST_TEST(report::format_bytes(52'428'800) == "50.0 MiB");
}

BOOST_AUTO_TEST_CASE(tables_align_columns_and_refuse_ragged_rows) {
    report::TextTable t;
    t.column("name", report::TextTable::Align::left).column("value");
    t.row({"a", "1.5"}).row({"longer µ name", "12345.25"});
    const std::vector<std::string> lines = lines_of(t.render("  "));
    BOOST_TEST_REQUIRE(lines.size() == 4u);
    // Right-aligned last column: every line ends at the same display column.
    for (const auto& l : lines) BOOST_TEST(report::display_width(l) == report::display_width(lines[0]));
    BOOST_TEST(lines[1].find_first_not_of(" -") == std::string::npos);
    BOOST_CHECK_THROW(t.row({"only one"}), std::invalid_argument);
    const std::string wrapped = report::wrap(std::string(30, 'x') + " " + std::string(30, 'y') + " z", 40, "    ");
    for (const auto& l : lines_of(wrapped)) BOOST_TEST(report::display_width(l) <= 40u);
    BOOST_TEST(lines_of(wrapped).size() == 2u);
}

BOOST_AUTO_TEST_CASE(the_text_report_shows_device_clock_results_series_findings_and_explanation) {
    const std::string text = report::render_text(sample_report());
    BOOST_TEST(contains(text, "NVIDIA H100 80GB HBM3"));
    BOOST_TEST(contains(text, "1980 MHz nominal, 1756 MHz measured"));
    BOOST_TEST(contains(text, "%globaltimer step: 32 ns"));
    BOOST_TEST(contains(text, "CUDA: driver 13.0, runtime 13.0"));
    BOOST_TEST(contains(text, "1. Three policies"));
    BOOST_TEST(contains(text, "2. Block-count sweep  [seed 000, 001]"));
    BOOST_TEST(contains(text, "6.80 us"));       // a duration metric in its natural unit
    BOOST_TEST(contains(text, "median [us]"));   // the unit is in the column header
    BOOST_TEST(contains(text, "206.9"));
    BOOST_TEST(contains(text, "0 (2 failed)"));
    BOOST_TEST(contains(text, "[warning] host-stop-with-pending-work: stream had pending work"));
    BOOST_TEST(contains(text, "fix: synchronize the stream or use EventPolicy"));
    BOOST_TEST(contains(text, "[info] cold-start"));
    BOOST_TEST(contains(text, "2 records DROPPED"));
    BOOST_TEST(contains(text, "1000 iterations/block"));
    BOOST_TEST(contains(text, "1 changed SM"));
    BOOST_TEST(contains(text, "note: NVML not available"));
    BOOST_TEST(contains(text, "| at 132: 132 SMs"));
    // Prose wraps at the documented width.
    const std::string prose = text.substr(text.find("What this shows"));
    for (const auto& l : lines_of(prose.substr(0, prose.find("\n\n"))))
        BOOST_TEST(report::display_width(l) <= report::text_width, l);
    const std::string summary = report::render_summary_text(sample_report());
    BOOST_TEST(contains(summary, "launch overhead 6.80 us; speed-up 7.26x"));
    BOOST_TEST(contains(summary, "host-stop-with-pending-work"));
}

BOOST_AUTO_TEST_CASE(csv_tables_quote_what_needs_quoting_and_hold_every_record) {
    const report::Report r = sample_report();
    const auto samples = parse_csv(report::render_csv(r, report::CsvTable::samples));
    BOOST_TEST_REQUIRE(samples.size() == 1u + 3u + 1u);  // header, 3 + 1 samples, none for the failed series
    BOOST_TEST(samples[0] == (std::vector<std::string>{"experiment", "series", "policy", "index", "duration_ns"}));
    BOOST_TEST(samples[1][1] == "event, 200 us spin");
    BOOST_TEST(std::stod(samples[1][4]) == 206900.0);
    for (const auto& row : samples) BOOST_TEST(row.size() == samples[0].size());

    const auto blocks = parse_csv(report::render_csv(r, report::CsvTable::blocks));
    BOOST_TEST_REQUIRE(blocks.size() == 1u + r.experiments[0].timelines[0].samples.size());
    BOOST_TEST(blocks[2][4] == "add, \"inner\"");
    BOOST_TEST(blocks[1][7] == "1763784600123456789");  // exact, not 1.76378e+18
    BOOST_TEST(blocks[5][10].empty());                  // cycles across SMs: no value
    BOOST_TEST(blocks[7][11] == "1000");

    const auto stats = parse_csv(report::render_csv(r, report::CsvTable::stats));
    BOOST_TEST_REQUIRE(stats.size() == 4u);
    BOOST_TEST(stats[3][9].empty());  // median of no samples: empty, not "nan"
    BOOST_TEST(stats[2][18] == "host-stop-with-pending-work");  // findings; measure() columns follow

    const auto sweeps = parse_csv(report::render_csv(r, report::CsvTable::sweeps));
    BOOST_TEST(sweeps.size() == 1u + 2u * (7u + 8u));
    const auto metrics = parse_csv(report::render_csv(r, report::CsvTable::metrics));
    BOOST_TEST(metrics[3][4] == "read, \"coalesced\"");
    BOOST_TEST(report::csv_field("plain") == "plain");
    BOOST_TEST(report::csv_field("a,b") == "\"a,b\"");
    BOOST_TEST(report::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
}

BOOST_AUTO_TEST_CASE(blocks_overlapping_on_one_sm_get_lanes_and_a_blocks_regions_share_one) {
    const report::Report r = sample_report();
    const report::Timeline& t = r.experiments[0].timelines[0];
    const report::TimelineLanes lanes = report::assign_lanes(t);
    BOOST_TEST_REQUIRE(lanes.lane_of_sample.size() == t.samples.size());
    BOOST_TEST(lanes.lane_of_sample[0] == 0u);  // block 0 on SM 3
    BOOST_TEST(lanes.lane_of_sample[1] == 0u);  // block 0's nested region: same lane
    BOOST_TEST(lanes.lane_of_sample[2] == 1u);  // block 1 overlaps block 0 on SM 3
    BOOST_TEST(lanes.lane_of_sample[3] == 0u);  // block 2 starts after block 0 stopped
    std::map<std::uint32_t, std::size_t> per_sm(lanes.lanes_per_sm.begin(), lanes.lanes_per_sm.end());
    BOOST_TEST(per_sm.at(3) == 2u);
    BOOST_TEST(per_sm.at(7) == 1u);
    BOOST_TEST(per_sm.size() == 4u);
}

BOOST_AUTO_TEST_CASE(the_timeline_svg_is_well_formed_with_one_bar_per_record_inside_the_plot) {
    const report::Report r = sample_report();
    const report::Timeline& t = r.experiments[0].timelines[0];
    const std::string svg = report::render_timeline_svg(t, {.width = 1000, .device_name = r.device.name});
    const auto root = xml_check::parse(svg);
    BOOST_TEST(root->name == "svg");
    const double width = number_attr(*root, "width");
    BOOST_TEST(width == 1000.0);
    const auto bars = root->all("rect", "block");
    BOOST_TEST_REQUIRE(bars.size() == t.samples.size());
    std::size_t red = 0;
    for (const auto* bar : bars) {
        BOOST_TEST(number_attr(*bar, "x") >= 0.0);
        BOOST_TEST(number_attr(*bar, "x") + number_attr(*bar, "width") <= width);
        BOOST_TEST(number_attr(*bar, "width") > 0.0);
        BOOST_TEST(number_attr(*bar, "height") > 0.0);
        BOOST_TEST_REQUIRE(bar->children.size() == 1u);  // the hover text
        red += bar->attribute("stroke") != nullptr;
    }
    BOOST_TEST(red == 1u);  // the block that changed SM
    std::string texts;
    for (const auto* e : root->all("text")) texts += e->text + "\n";
    BOOST_TEST(contains(texts, "6 blocks on 4 of 132 SMs"));  // every SM of the device gets a row, idle ones too
    // With only the SMs that ran blocks as rows, each is labelled.
    report::Timeline used_only = t;
    used_only.sm_count = 0;
    std::string used_texts;
    // The parsed tree must outlive the loop: range-for keeps only all()'s result alive, not parse()'s.
    const auto used_root = xml_check::parse(report::render_timeline_svg(used_only));
    for (const auto* e : used_root->all("text")) used_texts += e->text + "\n";
    for (const char* sm : {"SM 0\n", "SM 1\n", "SM 3\n", "SM 7\n"}) BOOST_TEST(contains(used_texts, sm));
    BOOST_TEST(!contains(used_texts, "SM 2\n"));
    BOOST_TEST(contains(texts, "add, \"inner\" (1)"));  // user text comes back unescaped, so it was escaped
    BOOST_TEST(contains(texts, "loop <body> (1)"));
    BOOST_TEST(contains(texts, "time since the first block started [us]"));
    BOOST_TEST(contains(texts, "2 records DROPPED"));
    BOOST_TEST(contains(texts, "SM changed inside the region (1)"));
    BOOST_TEST(contains(texts, "up to 2 blocks at once on one SM"));

    report::Timeline empty;
    empty.name = "nothing <here>";
    const auto none = xml_check::parse(report::render_timeline_svg(empty));
    BOOST_TEST(none->all("rect", "block").empty());
}

BOOST_AUTO_TEST_CASE(the_sweep_svg_draws_each_curve_point_marker_and_band) {
    const report::Report r = sample_report();
    const report::Sweep& s = r.experiments[1].sweeps[0];
    const auto root = xml_check::parse(report::render_sweep_svg(s, {.device_name = "H100"}));
    BOOST_TEST(root->all("polyline", "curve").size() == 2u);
    BOOST_TEST(root->all("circle", "point").size() == 14u);  // the point without a value is left out
    BOOST_TEST(root->all("line", "marker").size() == 2u);
    BOOST_TEST(root->all("polygon", "band").size() == 1u);
    std::string texts;
    for (const auto* e : root->all("text")) texts += e->text + "\n";
    BOOST_TEST(contains(texts, "blocks (log scale)"));
    BOOST_TEST(contains(texts, "time [us]"));
    BOOST_TEST(contains(texts, "132 SMs x 8 resident"));
    BOOST_TEST(contains(texts, "1 points not drawn"));
    // Points stay inside the plot frame.
    const double width = number_attr(*root, "width");
    for (const auto* c : root->all("circle", "point")) {
        BOOST_TEST(number_attr(*c, "cx") > 0.0);
        BOOST_TEST(number_attr(*c, "cx") < width);
    }
    const report::Sweep& linear = r.experiments[1].sweeps[1];
    const auto plain = xml_check::parse(report::render_sweep_svg(linear));
    std::string plain_texts;
    for (const auto* e : plain->all("text")) plain_texts += e->text + "\n";
    BOOST_TEST(contains(plain_texts, "time [cycles]"));
    report::Sweep nothing;
    BOOST_TEST(contains(report::render_sweep_svg(nothing), "no points to plot"));
}

BOOST_AUTO_TEST_CASE(axis_ticks_are_round_and_cover_the_range) {
    const auto ticks = report::svg::linear_ticks(0, 47.3);
    BOOST_TEST(ticks.front() == 0.0);
    BOOST_TEST(ticks.back() >= 47.3);
    BOOST_TEST(ticks[1] - ticks[0] == 10.0);
    const auto pow2 = report::svg::log_ticks(1, 1056, true);
    BOOST_TEST(pow2.front() == 1.0);
    BOOST_TEST(pow2.back() == 2048.0);
    const auto decades = report::svg::log_ticks(3, 40, false);
    BOOST_TEST(decades.front() == 2.0);
    BOOST_TEST(decades.back() == 50.0);
    BOOST_CHECK_THROW((void)report::svg::linear_ticks(1, 1), std::invalid_argument);
    BOOST_CHECK_THROW((void)report::svg::log_ticks(0, 1, false), std::invalid_argument);
    BOOST_TEST(report::svg::escape("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
}

BOOST_AUTO_TEST_CASE(the_chrome_trace_has_one_complete_event_per_record_on_the_sms_track) {
    const report::Report r = sample_report();
    const report::Timeline& t = r.experiments[0].timelines[0];
    // Parsed by a standard JSON reader, not by the library that wrote it.
    const nlohmann::json trace = nlohmann::json::parse(report::render_chrome_trace(r));
    const nlohmann::json& events = trace.at("traceEvents");
    std::set<std::int64_t> named_tracks;
    bool process_named = false;
    std::vector<const nlohmann::json*> complete;
    for (const nlohmann::json& e : events) {
        const std::string ph = e.at("ph").get<std::string>();
        BOOST_TEST(e.at("pid").get<std::int64_t>() == 0);
        if (ph == "M" && e.at("name") == "thread_name") named_tracks.insert(e.at("tid").get<std::int64_t>());
        if (ph == "M" && e.at("name") == "process_name") {
            process_named = true;
            BOOST_TEST(contains(e.at("args").at("name").get<std::string>(), "NVIDIA H100"));
        }
        if (ph == "X") complete.push_back(&e);
    }
    BOOST_TEST(process_named);
    BOOST_TEST_REQUIRE(complete.size() == t.samples.size());
    double earliest = 1e300;
    for (std::size_t i = 0; i < complete.size(); ++i) {
        const nlohmann::json& e = *complete[i];
        const gpuchrono::BlockSample& s = t.samples[i];
        BOOST_TEST(e.at("name").get<std::string>() == report::region_name(t, s.region));
        BOOST_TEST(e.at("args").at("block").get<std::uint64_t>() == s.block);
        BOOST_TEST(e.at("dur").get<double>() == static_cast<double>(s.stop_ns - s.start_ns) / 1000.0);
        const std::int64_t tid = e.at("tid").get<std::int64_t>();
        BOOST_TEST(named_tracks.count(tid) == 1u);
        earliest = std::min(earliest, e.at("ts").get<double>());
    }
    BOOST_TEST(earliest == 0.0);
    BOOST_TEST(complete[0]->at("tid").get<std::int64_t>() == 3);     // block 0: SM 3, first lane
    BOOST_TEST(complete[2]->at("tid").get<std::int64_t>() == 1003);  // block 1: SM 3, second lane
    BOOST_TEST(complete[4]->at("args").at("cycles").is_null());  // changed SM: no cycle count
    BOOST_TEST(complete[6]->at("args").at("count").get<std::uint64_t>() == 1000u);
    BOOST_TEST(trace.at("displayTimeUnit") == "ns");
}

BOOST_AUTO_TEST_CASE(an_accumulated_cycle_count_near_2_to_the_64_goes_into_the_trace_exactly) {
    // 18446744073709551615 as a double is 2^64, which no signed (or unsigned) 64-bit integer holds: the trace
    // used to cast it to long long (undefined behaviour). It is written from the integers now.
    report::Report r = sample_report();
    gpuchrono::BlockSample& s = r.experiments.at(0).timelines.at(0).samples.at(6);
    BOOST_TEST_REQUIRE(s.count > 1u);
    s.cycles_valid = true;
    s.accumulated_cycles = std::numeric_limits<std::uint64_t>::max();
    const nlohmann::json trace = nlohmann::json::parse(report::render_chrome_trace(r));
    std::vector<nlohmann::json> complete;
    for (const nlohmann::json& e : trace.at("traceEvents"))
        if (e.at("ph") == "X") complete.push_back(e);
    BOOST_TEST_REQUIRE(complete.size() == 7u);
    BOOST_TEST(complete[6].at("args").at("cycles").get<std::uint64_t>() == std::numeric_limits<std::uint64_t>::max());
    // A clock64 that went back on one SM is a negative count, not a wrapped one.
    gpuchrono::BlockSample& back = r.experiments.at(0).timelines.at(0).samples.at(0);
    BOOST_TEST_REQUIRE(back.sm_start == back.sm_stop);
    back.stop_cycles = back.start_cycles - 5;
    const nlohmann::json trace2 = nlohmann::json::parse(report::render_chrome_trace(r));
    for (const nlohmann::json& e : trace2.at("traceEvents"))
        if (e.at("ph") == "X" && e.at("args").at("block") == back.block && e.at("args").at("region") == back.region)
            BOOST_TEST(e.at("args").at("cycles").get<std::int64_t>() == -5);
    // Every other file renders from such a record too (gpuchrono-report --out).
    const auto dir = temp_dir("extreme");
    BOOST_CHECK_NO_THROW(report::write_report_files(r, dir));
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(huge_numbers_print_in_full_with_their_unit) {
    // Printed through a 64-byte buffer, 1e300 ns came out as 63 digits without its unit.
    const std::string d = gpuchrono::to_string(gpuchrono::Duration::from_ns(1e300));
    BOOST_TEST(d.size() == 292u + 2u, d);  // 1e291 s: 292 digits, a space, the unit
    BOOST_TEST(d.substr(d.size() - 2) == " s");
    BOOST_TEST(d.find_first_not_of("0123456789") == 292u);
    BOOST_TEST(gpuchrono::to_string(gpuchrono::Duration::from_ns(-1e300), "ns", 3).size() == 1u + 301u + 4u + 3u);
    BOOST_TEST(report::format_fixed(1e300, 2).size() == 301u + 3u);
    BOOST_TEST(report::format_fixed(-1.7976931348623157e308, 0).size() == 310u);
    BOOST_TEST(report::format_fixed(2.5, 1) == "2.5");
    BOOST_TEST(report::format_fixed(0.125, 2) == "0.12");  // round half to even, as printf did
    BOOST_TEST(report::format_number(1e300) == "1.00e+300");
    BOOST_TEST(report::format_number(123456.0, 4) == "123456");
    BOOST_TEST(report::svg::coord(1e300).size() == 301u);
    BOOST_CHECK_THROW((void)report::format_fixed(1.0, -1), std::invalid_argument);
    // And in a rendered table: the whole figure and its unit.
    report::Report r;
    r.experiments.push_back(report::Experiment{});
    r.experiments[0].series.push_back(report::make_series("huge", "event", {gpuchrono::Duration::from_ns(1e300)}, {}));
    BOOST_TEST(contains(report::render_text(r), d.substr(0, 292)));
}

BOOST_AUTO_TEST_CASE(names_that_are_not_utf8_render_as_replacement_characters_everywhere) {
    const std::string bad = "sw\xff\xfe";
    const std::string replaced = "sw\xef\xbf\xbd\xef\xbf\xbd";
    report::Report r = sample_report();
    r.experiments.at(0).series.at(0).name = bad;
    r.experiments.at(0).timelines.at(0).name = bad;
    r.experiments.at(0).timelines.at(0).regions.at(0) = bad;
    r.experiments.at(1).sweeps.at(0).name = bad;
    r.experiments.at(1).sweeps.at(0).curves.at(0).name = bad;
    r.device.name = bad;

    for (const std::string& svg : {report::render_timeline_svg(r.experiments[0].timelines[0], {.device_name = r.device.name}),
                                   report::render_sweep_svg(r.experiments[1].sweeps[0], {.device_name = r.device.name})}) {
        BOOST_TEST(is_utf8(svg));
        BOOST_CHECK_NO_THROW(xml_check::parse(svg));
        BOOST_TEST(contains(svg, replaced));
    }
    for (const auto table : {report::CsvTable::samples, report::CsvTable::stats, report::CsvTable::blocks, report::CsvTable::sweeps,
                             report::CsvTable::metrics})
        BOOST_TEST(is_utf8(report::render_csv(r, table)), report::to_string(table));
    BOOST_TEST(contains(report::render_csv(r, report::CsvTable::samples), replaced));
    const std::string text = report::render_text(r);
    BOOST_TEST(is_utf8(text));
    BOOST_TEST(contains(text, replaced));
    BOOST_TEST(is_utf8(report::render_summary_text(r)));
    BOOST_TEST(is_utf8(report::render_chrome_trace(r)));
    BOOST_CHECK_NO_THROW(parse_json(report::render_chrome_trace(r)));

    const auto dir = temp_dir("utf8");
    for (const auto& f : report::write_report_files(r, dir)) {
        std::ifstream in(f.path, std::ios::binary);
        std::stringstream content;
        content << in.rdbuf();
        BOOST_TEST(is_utf8(content.str()), f.path);
        if (f.path.extension() == ".svg") BOOST_CHECK_NO_THROW(xml_check::parse(content.str()));
        if (f.path.extension() == ".json") BOOST_CHECK_NO_THROW(parse_json(content.str()));
    }
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(xml_escaping_replaces_each_ill_formed_utf8_subpart_and_keeps_valid_text) {
    const std::string fffd = "\xef\xbf\xbd";
    using report::svg::escape;
    BOOST_TEST(escape("\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80") == "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80");  // µs € 😀
    BOOST_TEST(escape("a\xe2\x82") == "a" + fffd);                      // a truncated sequence: one U+FFFD
    BOOST_TEST(escape("\xe2\x82z") == fffd + "z");
    BOOST_TEST(escape("\xc0\xaf") == fffd + fffd);                      // overlong '/'
    BOOST_TEST(escape("\xed\xa0\x80") == fffd + fffd + fffd);           // a UTF-16 surrogate
    BOOST_TEST(escape("\xf4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // above U+10FFFF
    BOOST_TEST(escape("\x80x") == fffd + "x");                          // a continuation byte alone
    BOOST_TEST(escape("\xef\xbf\xbe\xef\xbf\xbf") == fffd + fffd);      // U+FFFE, U+FFFF: not XML characters
    BOOST_TEST(escape("<\x01>") == "&lt; &gt;");
}

BOOST_AUTO_TEST_CASE(progress_draws_only_where_it_was_asked_to) {
    std::FILE* quiet = std::tmpfile();
    std::FILE* loud = std::tmpfile();
    BOOST_TEST_REQUIRE((quiet && loud));
    {
        report::Progress p("sweep", 3, quiet, false);
        p.advance("1 block");
        p.advance("2 blocks");
        BOOST_TEST(p.done() == 2u);
    }
    {
        report::Progress p("sweep", 2, loud, true);
        p.advance("1 block");
        p.advance("2 blocks");  // the last step is always drawn
    }
    auto read = [](std::FILE* f) {
        std::rewind(f);
        std::string s;
        for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
        std::fclose(f);
        return s;
    };
    BOOST_TEST(read(quiet).empty());
    const std::string drawn = read(loud);
    BOOST_TEST(contains(drawn, "[1/2] sweep: 1 block"));
    BOOST_TEST(contains(drawn, "[2/2] sweep: 2 blocks"));
    BOOST_TEST(drawn.substr(drawn.size() - 4) == "\r\033[K");  // finished: the line is cleared
}

BOOST_AUTO_TEST_CASE(report_files_are_all_written_and_the_json_reads_back) {
    const auto dir = temp_dir("files");
    const report::Report r = sample_report();
    const auto written = report::write_report_files(r, dir / "out");
    std::set<std::string> names;
    for (const auto& f : written) {
        BOOST_TEST(std::filesystem::file_size(f.path) > 0u, f.path);
        BOOST_TEST(!f.what.empty());
        names.insert(f.path.filename().string());
    }
    for (const char* expected : {"report.json", "report.txt", "samples.csv", "stats.csv", "blocks.csv", "sweeps.csv",
                                 "metrics.csv", "trace.json", "index.html", "timeline-policies-vadd-6-blocks-x-256-threads.svg",
                                 "sweep-clock-sweep-time-per-block.svg", "sweep-clock-sweep-cycles.svg"})
        BOOST_TEST(names.count(expected) == 1u, expected);
    BOOST_TEST(names.size() == written.size());
    const report::Report back = report::load_report(dir / "out" / "report.json");
    BOOST_TEST(report::to_json(back) == report::to_json(r));
    for (const auto& f : written)
        if (f.path.extension() == ".svg" || f.path.extension() == ".html") {
            std::ifstream in(f.path);
            std::stringstream text;
            text << in.rdbuf();
            if (f.path.extension() == ".svg") BOOST_CHECK_NO_THROW(xml_check::parse(text.str()));
        }
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(slugs_are_file_name_safe) {
    BOOST_TEST(report::slug("timedReduction, 64 blocks x 256 threads") == "timedreduction-64-blocks-x-256-threads");
    BOOST_TEST(report::slug("  --  ") == "unnamed");
    BOOST_TEST(report::slug("a/b\\c") == "a-b-c");
}

BOOST_AUTO_TEST_SUITE_END()
