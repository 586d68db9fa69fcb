#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

// The JSON form of a report and its parts are internal.
#include <gpuchrono/report/json.hpp>
#include <gpuchrono/report/report.hpp>
#include <gpuchrono/report/report_json.hpp>
#include <gpuchrono/report/svg.hpp>

import gpuchrono;

#include "sample_report.hpp"

namespace json = gpuchrono::json;
namespace report = gpuchrono::report;
using json::Value;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The message of the ParseError that parsing `text` throws ("" if it parses).
std::string parse_error(const std::string& text) {
    try {
        (void)json::parse(text);
    } catch (const json::ParseError& e) {
        return e.what();
    }
    return "";
}

Value random_value(std::mt19937_64& rng, int depth) {
    std::uniform_int_distribution<int> kind(0, depth > 3 ? 5 : 7);
    switch (kind(rng)) {
        case 0: return Value();
        case 1: return Value(rng() % 2 == 0);
        case 2: return Value(static_cast<long long>(rng()));  // full signed range
        case 3: return Value(static_cast<unsigned long long>(rng()));  // full unsigned range
        case 4: {
            double d;
            do d = std::bit_cast<double>(rng());
            while (!std::isfinite(d));
            return Value(d);
        }
        case 5: {
            std::string s;
            const std::size_t n = rng() % 12;
            for (std::size_t i = 0; i < n; ++i) {
                const char pool[] = "ab\"\\/\n\t\x01\x1f{}[],: \xc2\xb5";
                s += pool[rng() % (sizeof pool - 1)];
            }
            return Value(s);
        }
        case 6: {
            json::Array a;
            const std::size_t n = rng() % 5;
            for (std::size_t i = 0; i < n; ++i) a.push_back(random_value(rng, depth + 1));
            return Value(std::move(a));
        }
        default: {
            json::Object o;
            const std::size_t n = rng() % 5;
            for (std::size_t i = 0; i < n; ++i) o.emplace_back("k" + std::to_string(i), random_value(rng, depth + 1));
            return Value(std::move(o));
        }
    }
}

std::filesystem::path temp_dir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("gpuchrono-test-" + name + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_json)

BOOST_AUTO_TEST_CASE(integers_round_trip_exactly_across_the_whole_64_bit_range) {
    const std::uint64_t globaltimer = 1'763'784'600'123'456'789ull;  // 1.76e18: a double would round it
    for (const std::uint64_t u : {std::uint64_t{0}, globaltimer, std::numeric_limits<std::uint64_t>::max()}) {
        const Value v = json::parse(json::write(Value(static_cast<unsigned long long>(u))));
        BOOST_TEST(v.as_uint64() == u);
    }
    for (const std::int64_t i : {std::numeric_limits<std::int64_t>::min(), std::int64_t{-1}, std::numeric_limits<std::int64_t>::max()})
        BOOST_TEST(json::parse(json::write(Value(static_cast<long long>(i)))).as_int64() == i);
    BOOST_TEST(json::write(Value(static_cast<unsigned long long>(globaltimer))) == "1763784600123456789");
    BOOST_CHECK_THROW((void)json::parse("-1").as_uint64(), std::invalid_argument);
    BOOST_CHECK_THROW((void)json::parse("18446744073709551615").as_int64(), std::invalid_argument);
    BOOST_TEST(json::parse("3.0").as_uint64() == 3u);  // an integral double is accepted where an integer is asked
    BOOST_CHECK_THROW((void)json::parse("3.5").as_int64(), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(doubles_round_trip_bit_for_bit_and_non_finite_ones_become_null) {
    std::mt19937_64 rng(20251122);
    for (int i = 0; i < 20000; ++i) {
        const double d = std::bit_cast<double>(rng());
        if (!std::isfinite(d)) continue;
        const std::string text = json::write(Value(d));
        const Value back = json::parse(text);
        BOOST_TEST_REQUIRE((back.type() == json::Type::number), text);  // "3" must not come back as an integer
        BOOST_TEST_REQUIRE((std::bit_cast<std::uint64_t>(back.as_double()) == std::bit_cast<std::uint64_t>(d)), text);
    }
    BOOST_TEST(json::write(Value(3.0)) == "3.0");
    BOOST_TEST(json::write(Value(std::nan(""))) == "null");
    BOOST_TEST(json::write(Value(-INFINITY)) == "null");
    BOOST_TEST(std::isnan(json::parse("null").as_double()));
}

BOOST_AUTO_TEST_CASE(strings_escape_control_characters_and_read_unicode_escapes) {
    const std::string nasty = "quote \" backslash \\ newline \n tab \t bell \x07 unit \x1f µs";
    const std::string text = json::write(Value(nasty));
    BOOST_TEST(!contains(text, "\n"));
    BOOST_TEST(contains(text, "\\u0007"));
    BOOST_TEST(json::parse(text).as_string() == nasty);
    BOOST_TEST(json::parse(R"("\u00b5s \u00D7 \ud83d\ude00 \/")").as_string() == "\xc2\xb5s \xc3\x97 \xf0\x9f\x98\x80 /");
}

BOOST_AUTO_TEST_CASE(random_documents_survive_write_and_parse_in_both_layouts) {
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        std::mt19937_64 rng(seed);
        const Value v = random_value(rng, 0);
        for (const int indent : {0, 2}) {
            const std::string text = json::write(v, {.indent = indent});
            BOOST_TEST_REQUIRE((json::parse(text) == v), "seed " << seed << ": " << text);
        }
    }
}

BOOST_AUTO_TEST_CASE(objects_keep_member_order_and_set_replaces_in_place) {
    Value o{json::Object{}};
    o.set("z", 1);
    o.set("a", 2);
    o.set("z", 3);
    BOOST_TEST(json::write(o, {.indent = 0}) == R"({"z":3,"a":2})");
    BOOST_TEST(o.at("a").as_int64() == 2);
    BOOST_TEST(o.find("missing") == nullptr);
    try {
        (void)o.at("missing");
        BOOST_FAIL("at() of a missing member must throw");
    } catch (const std::invalid_argument& e) {
        BOOST_TEST(contains(e.what(), "\"missing\""));
    }
    try {
        (void)o.as_array();
        BOOST_FAIL("as_array() of an object must throw");
    } catch (const std::invalid_argument& e) {
        BOOST_TEST(contains(e.what(), "expected an array, found object"));
    }
}

BOOST_AUTO_TEST_CASE(malformed_text_is_refused_with_line_and_column) {
    BOOST_TEST(contains(parse_error("[1,\n 2,]"), "line 2, column 4"));
    BOOST_TEST(contains(parse_error("[01]"), "leading zero"));
    BOOST_TEST(contains(parse_error("\"abc"), "unterminated string"));
    BOOST_TEST(contains(parse_error(R"("\x")"), "unknown escape"));
    BOOST_TEST(contains(parse_error(R"("\udc00")"), "low surrogate"));
    BOOST_TEST(contains(parse_error("{\"a\" 1}"), "expected ':'"));
    BOOST_TEST(contains(parse_error("{} {}"), "after the JSON value"));
    BOOST_TEST(contains(parse_error("NaN"), "expected a value"));
    BOOST_TEST(contains(parse_error("\"tab\tinside\""), "control character"));
    BOOST_TEST(contains(parse_error(""), "end of input"));
    BOOST_TEST(contains(parse_error(std::string(300, '[') + std::string(300, ']')), "nesting deeper than 256"));
    BOOST_TEST(parse_error(std::string(200, '[') + std::string(200, ']')).empty());
    BOOST_TEST(parse_error(" {\"a\": [1, -2.5e-3, true, false, null, \"x\"]} ").empty());
}

BOOST_AUTO_TEST_CASE(a_report_round_trips_through_json_without_loss) {
    const report::Report original = sample_report();
    const std::string first = json::write(report::to_json(original));
    const report::Report back = report::report_from_json(json::parse(first));
    BOOST_TEST(json::write(report::to_json(back)) == first);

    // Spot checks of what a lossy format would get wrong.
    const report::Timeline& t = back.experiments.at(0).timelines.at(0);
    BOOST_TEST(t.samples.at(0).start_ns == original.experiments[0].timelines[0].samples[0].start_ns);
    BOOST_TEST(t.samples.at(0).start_cycles == 9'000'000'000'000'000'001ull);
    BOOST_TEST(t.samples.at(4).sm_stop == 9u);
    BOOST_TEST(t.samples.at(6).count == 1000u);
    BOOST_TEST(t.samples.at(6).accumulating);
    BOOST_TEST(t.regions.at(1) == "add, \"inner\"");
    BOOST_TEST(t.overhead_subtracted);
    BOOST_TEST(t.sm_clock_source == "kernel-samples");
    BOOST_TEST(back.device.driver_version == 13000);
    BOOST_TEST(back.device.compute_major == 9);
    BOOST_TEST(back.device.sm_clock_measured_mhz == 1755.5);
    const report::SampleSeries& empty = back.experiments[0].series.at(2);
    BOOST_TEST(empty.stats.count == 0u);
    BOOST_TEST(std::isnan(empty.stats.median.ns()));  // NaN went out as null and came back as NaN
    BOOST_TEST(empty.failed == 2u);
    const gpuchrono::Finding& f = back.experiments[0].series.at(1).findings.at(0);
    BOOST_TEST(f.code == "host-stop-with-pending-work");
    BOOST_TEST(f.where == "example.cpp:42");
    BOOST_TEST(f.evidence_or("measured_ns", 0) == 68800.0);
    BOOST_TEST(std::isnan(f.evidence_or("pending_ns", 0)));
    BOOST_TEST(back.experiments[1].sweeps.at(0).x_scale == "log");
    BOOST_TEST(back.experiments[1].sweeps.at(0).markers.at(1).label == "132 SMs x 8 resident");
    BOOST_TEST(back.notes.at(0) == original.notes.at(0));
    BOOST_TEST(std::isnan(back.experiments[0].metrics.at(3).value));
}

BOOST_AUTO_TEST_CASE(a_minimal_document_reads_as_an_empty_report) {
    const report::Report r = report::report_from_json(json::parse(R"({"schema":"gpuchrono-report","schema_version":1})"));
    BOOST_TEST(r.experiments.empty());
    BOOST_TEST(r.device.index == -1);
    BOOST_TEST(std::isnan(r.device.sm_clock_measured_mhz));
}

BOOST_AUTO_TEST_CASE(wrong_documents_are_refused_naming_the_member) {
    auto error_of = [](const std::string& text) {
        try {
            (void)report::report_from_json(json::parse(text));
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    BOOST_TEST(contains(error_of(R"({"schema":"other","schema_version":1})"), "not a gpuchrono report"));
    BOOST_TEST(contains(error_of(R"({"schema":"gpuchrono-report","schema_version":2})"), "newer gpuchrono"));
    BOOST_TEST(contains(error_of(R"({"schema":"gpuchrono-report"})"), "schema_version"));
    BOOST_TEST(contains(error_of("[1]"), "expected an object"));
    const std::string bad_sample =
        R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"id":"a"},{"id":"b","series":[{"name":"s","samples_ns":[1.0,"x"]}]}]})";
    BOOST_TEST(contains(error_of(bad_sample), "experiments[1].series[0].samples_ns[1]: expected a number, found string"));
    const std::string bad_block =
        R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"timelines":[{"samples":[{"block":-1}]}]}]})";
    BOOST_TEST(contains(error_of(bad_block), "experiments[0].timelines[0].samples[0].block"));
    const std::string bad_severity =
        R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"findings":[{"code":"c","severity":"fatal"}]}]})";
    BOOST_TEST(contains(error_of(bad_severity), "experiments[0].findings[0].severity: unknown severity \"fatal\""));
}

BOOST_AUTO_TEST_CASE(save_and_load_go_through_a_file_and_name_it_on_failure) {
    const auto dir = temp_dir("json");
    const report::Report original = sample_report();
    report::save_report(original, dir / "r.json");
    const report::Report back = report::load_report(dir / "r.json");
    BOOST_TEST(json::write(report::to_json(back)) == json::write(report::to_json(original)));

    try {
        (void)report::load_report(dir / "absent.json");
        BOOST_FAIL("loading a missing file must throw");
    } catch (const std::runtime_error& e) {
        BOOST_TEST(contains(e.what(), "absent.json"));
    }
    std::ofstream(dir / "broken.json") << "{\"schema\": ";
    try {
        (void)report::load_report(dir / "broken.json");
        BOOST_FAIL("loading a truncated file must throw");
    } catch (const json::ParseError& e) {
        BOOST_TEST(contains(e.what(), "broken.json"));
        BOOST_TEST(e.line() == 1u);
    }
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
