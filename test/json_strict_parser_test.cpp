// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The strict JSON parser on its own, below any file format: what it refuses, what its refusals say, and the
// objects it streams out of a document as they close.
#include <boost/test/unit_test.hpp>

#include "json/strict_parser.hpp"
#include "json/utf8.hpp"

#include <string>
#include <utility>
#include <vector>

namespace json = gpuchrono::json;

namespace {

// The refusal's text; fails the test when the text was accepted.
std::string refusal(std::string_view text, const json::StreamedObjects* streamed = nullptr) {
    try {
        json::parse_strict(text, streamed);
    } catch (const json::ReadError& e) {
        return e.what();
    }
    BOOST_ERROR("accepted: " << text);
    return {};
}

bool ends_with(const std::string& s, std::string_view tail) { return s.size() >= tail.size() && s.ends_with(tail); }

}  // namespace

BOOST_AUTO_TEST_SUITE(json_strict_parser)

BOOST_AUTO_TEST_CASE(a_document_reads_as_nlohmann_reads_it_with_its_members_in_file_order) {
    const std::string text = R"({"z": 1, "a": [true, null, -2, 18446744073709551615, 0.5, "s\u00e9"], "m": {"k": {}}})";
    const json::Json document = json::parse_strict(text);
    BOOST_TEST(document == json::Json::parse(text));
    std::vector<std::string> keys;
    for (const auto& [key, value] : document.items()) keys.push_back(key);
    BOOST_TEST(keys == (std::vector<std::string>{"z", "a", "m"}), boost::test_tools::per_element());
    BOOST_TEST(document["a"][3].get<std::uint64_t>() == 18446744073709551615ull);
}

BOOST_AUTO_TEST_CASE(a_member_named_twice_is_refused_with_its_path) {
    BOOST_TEST(refusal(R"({"a": [{"x": 1}, {"x": 1, "y": 2, "x": 3}]})") == R"(a[1].x: the member "x" appears twice)");
    BOOST_TEST(refusal(R"({"k": 1, "k": 1})") == R"(k: the member "k" appears twice)");
    // The same name in sibling objects is no repetition.
    BOOST_CHECK_NO_THROW(json::parse_strict(R"([{"k": 1}, {"k": 2}])"));
}

BOOST_AUTO_TEST_CASE(nan_and_syntax_errors_name_the_line_and_column) {
    const std::string nan = refusal("{\n  \"v\": NaN\n}");
    BOOST_TEST(nan.find("line 2, column") != std::string::npos, nan);
    BOOST_TEST(nan.find("[json.exception") == std::string::npos, nan);  // nlohmann's id says nothing to a user
    const std::string trailing = refusal("{} {}");
    BOOST_TEST(trailing.find("line 1, column") != std::string::npos, trailing);
    BOOST_TEST(!ends_with(trailing, "truncated?)"), trailing);
}

BOOST_AUTO_TEST_CASE(text_that_ends_before_the_document_is_called_truncated) {
    for (const std::string_view text : {std::string_view(R"({"a": [1, 2)"), std::string_view(R"({"a": "unfinished)"),
                                        std::string_view("")})
        BOOST_TEST(ends_with(refusal(text), "(the text ends before the document does: truncated?)"), refusal(text));
}

BOOST_AUTO_TEST_CASE(a_refusal_that_quotes_invalid_bytes_is_still_utf8) {
    const std::string what = refusal("{\"a\": \"\xff\xfe\"}");
    BOOST_TEST(json::valid_utf8(what) == what, what);
    BOOST_TEST(what.find(json::replacement_character) != std::string::npos, what);
}

BOOST_AUTO_TEST_CASE(streamed_objects_leave_the_document_as_they_close_and_still_count_in_paths) {
    std::vector<std::pair<json::Json, std::string>> taken;
    const json::StreamedObjects records{{"runs", json::any_element, "records", json::any_element},
                                        [&](const json::Json& object, const std::string& path) { taken.emplace_back(object, path); }};
    const json::Json document = json::parse_strict(
        R"({"runs": [{"records": [{"v": 1}, 7, {"v": 2}], "name": "a"}, {"records": [{"v": 3}]}], "records": [{"v": 4}]})", &records);
    BOOST_REQUIRE(taken.size() == 3u);
    BOOST_TEST(taken[0].second == "runs[0].records[0]");
    BOOST_TEST(taken[1].second == "runs[0].records[2]");  // the 7 stays, and the taken object before it counts
    BOOST_TEST(taken[2].second == "runs[1].records[0]");
    BOOST_TEST(taken[1].first == json::Json::parse(R"({"v": 2})"));
    // What is not at the pattern's path stays: a non-object element, and "records" elsewhere in the document.
    BOOST_TEST(document == json::Json::parse(R"({"runs": [{"records": [7], "name": "a"}, {"records": []}], "records": [{"v": 4}]})"));

    // A refusal after taken objects names the element by its place in the text.
    taken.clear();
    BOOST_TEST(refusal(R"({"runs": [{"records": [{"v": 1}, {"v": 2}, {"v": 3, "v": 4}]}]})", &records) ==
               R"(runs[0].records[2].v: the member "v" appears twice)");
    BOOST_TEST(taken.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_refusal_of_the_taker_stops_the_parse) {
    const json::StreamedObjects refused{{"a", json::any_element}, [](const json::Json&, const std::string& path) {
                                            json::fail(path, "not wanted");
                                        }};
    BOOST_TEST(refusal(R"({"a": [1, {"b": 2}]})", &refused) == "a[1]: not wanted");
}

BOOST_AUTO_TEST_SUITE_END()
