// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
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

// The JSON form of a report and its parts are internal.
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>
#include "report/render/svg.hpp"

#include <gpuchrono/api.hpp>

#include "sample_report.hpp"

namespace report = gpuchrono::report;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const std::filesystem::path data_dir = GPUCHRONO_TEST_DATA_DIR;

std::string read_text(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The message of the ReportError that reading `text` throws ("" if it reads).
// True when `s` is well-formed UTF-8 (nlohmann's strict serializer refuses anything else).
bool is_utf8(const std::string& s) {
    try {
        (void)nlohmann::json(s).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

std::string error_of(const std::string& text) {
    try {
        (void)report::report_from_json(text);
    } catch (const report::ReportError& e) {
        return e.what();
    }
    return "";
}

std::filesystem::path temp_dir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("gpuchrono-test-" + name + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
    return dir;
}

// A report whose only content is one experiment holding `metrics`.
report::Report with_metrics(std::vector<double> values) {
    report::Report r;
    report::Experiment e;
    e.id = "numbers";
    for (double v : values) e.metrics.push_back(report::Metric{"m", v, "", ""});
    r.experiments.push_back(std::move(e));
    return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_json)

BOOST_AUTO_TEST_CASE(integers_round_trip_exactly_across_the_whole_64_bit_range) {
    const std::uint64_t globaltimer = 1'763'784'600'123'456'789ull;  // 1.76e18: a double would round it
    report::Report r = sample_report();
    gpuchrono::BlockSample& s = r.experiments.at(0).timelines.at(0).samples.at(0);
    s.start_ns = globaltimer;
    s.stop_ns = std::numeric_limits<std::uint64_t>::max();
    s.accumulated_cycles = std::numeric_limits<std::uint64_t>::max() - 1;
    r.device.global_memory_bytes = (std::uint64_t{1} << 53) + 1;
    const std::string text = report::to_json(r);
    BOOST_TEST(contains(text, "\"start_ns\": 1763784600123456789"));
    BOOST_TEST(contains(text, "\"stop_ns\": 18446744073709551615"));
    const report::Report back = report::report_from_json(text);
    const gpuchrono::BlockSample& b = back.experiments.at(0).timelines.at(0).samples.at(0);
    BOOST_TEST(b.start_ns == globaltimer);
    BOOST_TEST(b.stop_ns == std::numeric_limits<std::uint64_t>::max());
    BOOST_TEST(b.accumulated_cycles == std::numeric_limits<std::uint64_t>::max() - 1);
    BOOST_TEST(back.device.global_memory_bytes == (std::uint64_t{1} << 53) + 1);

    // An integral double is accepted where an integer is asked (a hand-written "3.0"); a fraction is not.
    const std::string head = R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"timelines":[{"samples":[{"block":)";
    BOOST_TEST(error_of(head + "3.0}]}]}]}").empty());
    BOOST_TEST(contains(error_of(head + "3.5}]}]}]}"), "samples[0].block: expected a non-negative integer, found 3.5"));
    BOOST_TEST(contains(error_of(head + "4294967296}]}]}]}"), "samples[0].block: 4294967296 does not fit 32 bits"));
}

BOOST_AUTO_TEST_CASE(doubles_round_trip_bit_for_bit_and_non_finite_ones_become_null) {
    std::mt19937_64 rng(20251122);
    std::vector<double> values;
    while (values.size() < 20000) {
        const double d = std::bit_cast<double>(rng());
        if (std::isfinite(d)) values.push_back(d);
    }
    const std::string text = report::to_json(with_metrics(values));
    const report::Report back = report::report_from_json(text);
    const auto& metrics = back.experiments.at(0).metrics;
    BOOST_TEST_REQUIRE(metrics.size() == values.size());
    std::size_t first_different = values.size();
    for (std::size_t i = 0; i < values.size() && first_different == values.size(); ++i)
        if (std::bit_cast<std::uint64_t>(metrics[i].value) != std::bit_cast<std::uint64_t>(values[i])) first_different = i;
    BOOST_TEST(first_different == values.size(),
               "metric " << first_different << " = " << (first_different < values.size() ? values[first_different] : 0.0)
                         << " came back different");

    const std::string small = report::to_json(with_metrics({3.0, std::nan(""), -INFINITY, 1e15, 1e-4}));
    BOOST_TEST(contains(small, "\"value\": 3.0,"));  // "3" would read back as an integer
    BOOST_TEST(contains(small, "\"value\": null,"));
    BOOST_TEST(!contains(small, "nan"));
    BOOST_TEST(!contains(small, "inf"));
    BOOST_TEST(contains(small, "\"value\": 1e+15,"));  // the shortest form, as report files always had
    BOOST_TEST(contains(small, "\"value\": 1e-04,"));
    const report::Report small_back = report::report_from_json(small);
    BOOST_TEST(std::isnan(small_back.experiments[0].metrics.at(1).value));  // null reads back as NaN
    BOOST_TEST(std::isnan(small_back.experiments[0].metrics.at(2).value));
}

BOOST_AUTO_TEST_CASE(strings_escape_control_characters_and_read_unicode_escapes) {
    report::Report r;
    const std::string nasty = "quote \" backslash \\ newline \n tab \t bell \x07 unit \x1f \xc2\xb5s";
    r.notes.push_back(nasty);
    const std::string text = report::to_json(r);
    BOOST_TEST(contains(text, R"("quote \" backslash \\ newline \n tab \t bell \u0007 unit \u001f )" "\xc2\xb5s\"]"));
    BOOST_TEST(report::report_from_json(text).notes.at(0) == nasty);
    const report::Report escaped = report::report_from_json(
        R"({"schema":"gpuchrono-report","schema_version":1,"notes":["\u00b5s \u00D7 \ud83d\ude00 \/"]})");
    BOOST_TEST(escaped.notes.at(0) == "\xc2\xb5s \xc3\x97 \xf0\x9f\x98\x80 /");
}

BOOST_AUTO_TEST_CASE(names_that_are_not_utf8_are_written_as_replacement_characters) {
    // Names come from users; "sw\xff\xfe" written as-is made a file no standard JSON reader accepts.
    report::Report r = sample_report();
    r.experiments.at(0).series.at(0).name = "sw\xff\xfe";
    r.experiments.at(1).sweeps.at(0).name = "sw\xff\xfe";
    const std::string text = report::to_json(r);
    nlohmann::json strict;
    BOOST_REQUIRE_NO_THROW(strict = nlohmann::json::parse(text));  // throws on invalid UTF-8
    const std::string replaced = "sw\xef\xbf\xbd\xef\xbf\xbd";    // U+FFFD for each invalid byte
    BOOST_TEST(strict.at("experiments").at(0).at("series").at(0).at("name").get<std::string>() == replaced);
    BOOST_TEST(report::report_from_json(text).experiments.at(1).sweeps.at(0).name == replaced);
}

BOOST_AUTO_TEST_CASE(saved_files_are_rewritten_byte_for_byte_as_before) {
    // The .rewritten.json files are what the library wrote for these inputs before it moved to
    // nlohmann-json: the layout (one line per scalar-only container) and the number formatting stay.
    for (const char* name : {"report-v1", "report-numbers"}) {
        const report::Report r = report::load_report(data_dir / (std::string(name) + ".json"));
        const std::string expected = read_text(data_dir / (std::string(name) + ".rewritten.json"));
        BOOST_TEST_REQUIRE(!expected.empty());
        BOOST_TEST(report::to_json(r) + "\n" == expected, name);
    }
}

BOOST_AUTO_TEST_CASE(what_an_experiment_reproduces_is_written_as_reproduces_and_read_under_its_old_name_too) {
    const report::Report old = report::load_report(data_dir / "report-v1.json");  // written with "seed"
    BOOST_TEST(old.experiments.at(0).reproduces == "000, 001");
    const std::string text = report::to_json(old);
    BOOST_TEST(text.find("\"reproduces\": \"000, 001\"") != std::string::npos);
    BOOST_TEST(text.find("\"seed\"") == std::string::npos);
    BOOST_TEST(report::report_from_json(text).experiments.at(0).reproduces == "000, 001");
}

BOOST_AUTO_TEST_CASE(a_report_round_trips_through_json_without_loss) {
    const report::Report original = sample_report();
    const std::string first = report::to_json(original);
    const report::Report back = report::report_from_json(first);
    BOOST_TEST(report::to_json(back) == first);

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
    const report::Report r = report::report_from_json(R"({"schema":"gpuchrono-report","schema_version":1})");
    BOOST_TEST(r.experiments.empty());
    BOOST_TEST(r.device.index == -1);
    BOOST_TEST(std::isnan(r.device.sm_clock_measured_mhz));
}

BOOST_AUTO_TEST_CASE(wrong_documents_are_refused_naming_the_member) {
    BOOST_TEST(contains(error_of(R"({"schema":"other","schema_version":1})"), "not a gpuchrono report"));
    BOOST_TEST(contains(error_of(R"({"schema":"gpuchrono-report","schema_version":2})"), "newer gpuchrono"));
    BOOST_TEST(contains(error_of(R"({"schema":"gpuchrono-report"})"), "schema_version: missing"));
    BOOST_TEST(contains(error_of("[1]"), "document: expected an object, found array"));
    const std::string bad_sample =
        R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"id":"a"},{"id":"b","series":[{"name":"s","samples_ns":[1.0,"x"]}]}]})";
    BOOST_TEST(contains(error_of(bad_sample), "experiments[1].series[0].samples_ns[1]: expected a number, found string"));
    const std::string bad_block =
        R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"timelines":[{"samples":[{"block":-1}]}]}]})";
    BOOST_TEST(contains(error_of(bad_block), "experiments[0].timelines[0].samples[0].block: expected a non-negative integer, found -1"));
    const std::string bad_severity =
        R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"findings":[{"code":"c","severity":"fatal"}]}]})";
    BOOST_TEST(contains(error_of(bad_severity), "experiments[0].findings[0].severity: unknown severity \"fatal\""));
    BOOST_TEST(contains(error_of("{\"schema\": "), "unexpected end of input"));
    BOOST_TEST(contains(error_of(""), "empty"));
}

BOOST_AUTO_TEST_CASE(every_activity_kind_reads_back_and_an_unknown_one_is_refused_naming_it) {
    report::Report r = report::new_report();
    report::Experiment e;
    for (const gpuchrono::ActivityKind kind :
         {gpuchrono::ActivityKind::kernel, gpuchrono::ActivityKind::memcpy, gpuchrono::ActivityKind::memset}) {
        gpuchrono::KernelActivity a;
        a.kind = kind;
        e.activities.push_back(a);
    }
    r.experiments.push_back(e);
    const report::Report back = report::report_from_json(report::to_json(r));
    BOOST_REQUIRE(back.experiments.at(0).activities.size() == 3u);
    for (std::size_t i = 0; i < 3; ++i)
        BOOST_TEST((back.experiments[0].activities[i].kind == e.activities[i].kind), i);
    const std::string bad_kind =
        R"({"schema":"gpuchrono-report","schema_version":1,"experiments":[{"activities":[{"kind":"memcopy"}]}]})";
    BOOST_TEST(contains(error_of(bad_kind),
                        R"(experiments[0].activities[0].kind: expected "kernel", "memcpy" or "memset", found "memcopy")"));
}

BOOST_AUTO_TEST_CASE(save_and_load_go_through_a_file_and_name_it_on_failure) {
    const auto dir = temp_dir("json");
    const report::Report original = sample_report();
    report::save_report(original, dir / "r.json");
    const report::Report back = report::load_report(dir / "r.json");
    BOOST_TEST(report::to_json(back) == report::to_json(original));

    try {
        (void)report::load_report(dir / "absent.json");
        BOOST_FAIL("loading a missing file must throw");
    } catch (const report::ReportError& e) {
        BOOST_TEST(contains(e.what(), "absent.json: no such file"), e.what());
    }
    std::ofstream(dir / "broken.json") << "{\"schema\": ";
    try {
        (void)report::load_report(dir / "broken.json");
        BOOST_FAIL("loading a truncated file must throw");
    } catch (const report::ReportError& e) {
        BOOST_TEST(contains(e.what(), "broken.json: parse error at line 1, column 12"), e.what());
        BOOST_TEST(contains(e.what(), "truncated?"), e.what());
    }
    std::filesystem::remove_all(dir);
}

// Every file of test/data/malformed (also the seed corpus of the report fuzzer) with what its error must say.
// Each is refused with one ReportError: one line, starting with the file's name.
BOOST_AUTO_TEST_CASE(every_malformed_file_is_refused_with_one_line_naming_the_file_and_the_fault) {
    const std::map<std::string, std::string> expected = {
        {"bad-x-scale.json", "experiments[0].sweeps[0].x_scale: expected \"linear\" or \"log\", found \"cubic\""},
        {"compute-capability-text.json", "device.compute_capability: expected \"major.minor\", found \"nine.oh\""},
        {"control-character-in-string.json", "parse error at line 1, column 62: "},
        {"deep-nesting.json", "notes[0]: expected a string, found array"},
        {"driver-version-overflow.json", "device.driver_version: \"2147484.0\" is not a CUDA version: the major version is above 2147482"},
        {"duplicate-member.json", "experiments[0].id: the member \"id\" appears twice"},
        {"empty.json", "empty, expected a gpuchrono report"},
        {"int-overflow.json", "device.sm_count: 4294967296 does not fit an int"},
        {"integer-beyond-64-bits.json", "experiments[0].timelines[0].samples[0].start_ns: expected a non-negative integer, found 1e+20"},
        {"invalid-utf8.json", "ill-formed UTF-8 byte"},
        {"lone-surrogate.json", "invalid string: surrogate"},
        {"missing-schema-version.json", "schema_version: missing"},
        {"missing-schema.json", "schema: missing"},
        {"nan-literal.json", "parse error at line 1, column 90: syntax error while parsing value - invalid literal"},
        {"negative-integer.json", "experiments[0].timelines[0].samples[0].block: expected a non-negative integer, found -1"},
        {"newer-schema-version.json", "schema_version: 2 was written by a newer gpuchrono"},
        {"not-json.txt", "parse error at line 1, column 1: "},
        {"null-document.json", "document: expected an object, found null"},
        {"number-overflow.json", "number overflow parsing '1e400'"},
        {"object-for-array.json", "experiments: expected an array, found object"},
        {"other-schema.json", "schema: \"chrome-trace\" is not a gpuchrono report"},
        {"string-for-integer.json", "experiments[0].timelines[0].samples[0].block: expected a non-negative integer, found string"},
        {"string-for-number.json", "experiments[0].series[0].samples_ns[1]: expected a number, found string"},
        {"top-level-array.json", "document: expected an object, found array"},
        {"trailing-comma.json", "parse error at line 1, column 49: "},
        {"trailing-text.json", "expected end of input"},
        {"truncated.json", "parse error at line 26, column 41: "},
        {"unknown-severity.json", "experiments[0].findings[0].severity: unknown severity \"fatal\""},
    };
    std::set<std::string> seen;
    for (const auto& entry : std::filesystem::directory_iterator(data_dir / "malformed")) {
        const std::string name = entry.path().filename().string();
        seen.insert(name);
        const auto it = expected.find(name);
        BOOST_TEST_REQUIRE((it != expected.end()), "test/data/malformed/" << name << " has no expected error in this test");
        try {
            (void)report::load_report(entry.path());
            BOOST_ERROR(name << " was read as a report");
        } catch (const report::ReportError& e) {
            const std::string what = e.what();
            BOOST_TEST(what.rfind(entry.path().string() + ": ", 0) == 0u, what);
            BOOST_TEST(contains(what, it->second), what);
            BOOST_TEST(!contains(what, "\n"), what);
            BOOST_TEST(!contains(what, "[json.exception"), what);
            BOOST_TEST(is_utf8(what), what);
        }
    }
    BOOST_TEST(seen.size() == expected.size());
    BOOST_TEST(contains(error_of(read_text(data_dir / "malformed" / "truncated.json")), "truncated?"));
}

BOOST_AUTO_TEST_CASE(a_path_that_is_no_report_file_says_what_it_is) {
    auto load_error = [](const std::filesystem::path& file) {
        try {
            (void)report::load_report(file);
        } catch (const report::ReportError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const auto dir = temp_dir("paths");
    BOOST_TEST(load_error(dir) == dir.string() + ": is a directory, expected a report file (the report.json inside it?)");
    BOOST_TEST(load_error(dir / "absent.json") == (dir / "absent.json").string() + ": no such file");
    BOOST_TEST(load_error(dir / "absent" / "report.json") == (dir / "absent" / "report.json").string() + ": no such file");
    std::ofstream(dir / "empty.json").close();
    BOOST_TEST(contains(load_error(dir / "empty.json"), "empty.json: empty, expected a gpuchrono report"));
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_100_mb_file_is_read_in_full_and_one_above_the_limit_is_refused_unread) {
    const auto dir = temp_dir("large");
    // 100 MB of valid JSON (the members after 100 MB of whitespace): read to the end, nothing cut.
    {
        std::ofstream out(dir / "large.json", std::ios::binary);
        out << R"({"schema":"gpuchrono-report","schema_version":1,"notes":["first"])";
        const std::string spaces(1 << 20, ' ');
        for (int i = 0; i < 100; ++i) out << spaces;
        out << R"(,"host":"after 100 MB"})";
    }
    const report::Report r = report::load_report(dir / "large.json");
    BOOST_TEST(r.host == "after 100 MB");
    BOOST_TEST(r.notes.at(0) == "first");

    // 100 MB of zero bytes: refused at the first byte, no crash.
    std::ofstream(dir / "zeros.json").close();
    std::filesystem::resize_file(dir / "zeros.json", 100u << 20);  // sparse: costs no disk
    try {
        (void)report::load_report(dir / "zeros.json");
        BOOST_FAIL("100 MB of zero bytes read as a report");
    } catch (const report::ReportError& e) {
        BOOST_TEST(contains(e.what(), "zeros.json: parse error at line 1, column 1"), e.what());
    }

    // Above the documented limit: refused by its size, before anything is read or allocated.
    std::ofstream(dir / "huge.json").close();
    std::filesystem::resize_file(dir / "huge.json", report::max_report_file_bytes + 1);
    try {
        (void)report::load_report(dir / "huge.json");
        BOOST_FAIL("a file above max_report_file_bytes was read");
    } catch (const report::ReportError& e) {
        BOOST_TEST(contains(e.what(), "huge.json: is 1073741825 bytes, more than a report may be (max_report_file_bytes = 1073741824)"),
                   e.what());
    }
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(driver_versions_are_read_exactly_or_refused_never_wrapped) {
    auto version = [](const std::string& text) {
        const std::string doc = R"({"schema":"gpuchrono-report","schema_version":1,"device":{"driver_version":")" + text + "\"}}";
        return report::report_from_json(doc).device.driver_version;
    };
    BOOST_TEST(version("13.0") == 13000);
    BOOST_TEST(version("12.8") == 12080);
    BOOST_TEST(version("unknown") == 0);
    BOOST_TEST(version("") == 0);
    BOOST_TEST(version("2147482.99") == 2147482990);  // the largest that an int holds in CUDA's encoding
    for (const char* refused : {"2147484.0", "2147483.0", "99999999999999999999.0", "13.100", "13", "13.x", "-1.0", "1.-5"})
        BOOST_CHECK_THROW((void)version(refused), report::ReportError);
    BOOST_TEST(report::cuda_version_string(version("2147482.99")) == "2147482.99");
}

BOOST_AUTO_TEST_CASE(no_installed_header_includes_the_json_library) {
    // nlohmann-json is private to the library: a consumer of the installed package has no JSON headers.
    // Every header under modules/include is installed (modules/CMakeLists.txt, FILE_SET HEADERS).
    const std::filesystem::path include = data_dir.parent_path().parent_path() / "modules" / "include";
    std::size_t headers = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(include)) {
        if (!entry.is_regular_file()) continue;
        ++headers;
        BOOST_TEST(!contains(read_text(entry.path()), "#include <nlohmann"), entry.path());
    }
    BOOST_TEST(headers > 10u);
}

BOOST_AUTO_TEST_SUITE_END()
