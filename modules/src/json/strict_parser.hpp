// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The strict parsing of JSON text into a document (the library's one parser, beside json_reader.hpp, which
// reads the document's members). nlohmann's parser, with what it lets through refused: a member named twice in
// one object (RFC 8259 leaves the meaning open and nlohmann's own DOM parser keeps the last silently, so a file
// edited by hand could say two things at once). Its syntax errors (NaN, a stray byte, text that ends before the
// document does) name the line and column, and every message stays UTF-8 whatever bytes it quotes.
// Library-internal, over nlohmann-json like the writer.
#pragma once

#include "json/json_reader.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace gpuchrono::json {

// One step of a path pattern: a member's name, or (nullopt) any element of an array.
using PathStep = std::optional<std::string>;
inline const PathStep any_element{};

// Objects taken out of the document as the parser closes them, so that an array of 100,000 records never
// stands as a DOM of them (about six times the text), only as `take` keeps them. `at` is the pattern of their
// path (the activities of every experiment: {"experiments", any_element, "activities", any_element}); `take`
// gets each with its path ("experiments[0].activities[7]"). Taken elements still count in later elements' paths.
struct StreamedObjects {
    std::vector<PathStep> at;
    std::function<void(const Json& object, const std::string& path)> take;
};

// nlohmann's messages start with "[json.exception.parse_error.101] "; the id says nothing to a user.
std::string without_exception_id(const char* what);

// Builds the document from nlohmann's SAX events (it also takes events from another SAX parser: the report's
// RapidJSON reader). Every refusal is a ReadError. Why not nlohmann::json::parse with a callback: its callback
// parser rescans the parent container at every object's end (quadratic in the number of records), and its DOM
// parser looks each member up in the ordered map before adding it (quadratic in the members of one object).
// Here a hash set per open object answers "seen before?" and the member is appended directly.
class DocumentBuilder {
public:
    explicit DocumentBuilder(std::size_t text_size, const StreamedObjects* streamed = nullptr)
        : text_size_(text_size), streamed_(streamed) {}

    Json take() { return std::move(root_); }

    bool null() { return add(Json(nullptr)), true; }
    bool boolean(bool b) { return add(Json(b)), true; }
    bool number_integer(Json::number_integer_t i) { return add(Json(i)), true; }
    bool number_unsigned(Json::number_unsigned_t u) { return add(Json(u)), true; }
    bool number_float(Json::number_float_t d, const Json::string_t&) { return add(Json(d)), true; }
    bool string(Json::string_t& s) { return add(Json(std::move(s))), true; }
    bool binary(Json::binary_t&);
    bool start_object(std::size_t) { return open(add(Json::object()), true), true; }
    bool start_array(std::size_t) { return open(add(Json::array()), false), true; }
    bool end_object();
    bool end_array() { return --depth_, true; }
    bool key(Json::string_t& name);
    bool parse_error(std::size_t position, const std::string& last_token, const Json::exception& e);

    // Whether the object about to start is one of the streamed ones.
    bool next_is_streamed() const { return streamed_ && depth_ == streamed_->at.size() && at_streamed_path(); }
    // A streamed object that another reader converted instead of this one: it counts in later elements' paths.
    void streamed_elsewhere() { ++levels_[depth_ - 1].taken; }

private:
    struct Level {
        Json* value = nullptr;
        bool object = false;
        std::unordered_set<std::string> keys{};
        std::string key{};  // objects: the member being read
        std::size_t taken = 0;  // arrays: elements streamed out and removed (they still count in paths)
    };

    bool at_streamed_path() const;
    Json* add(Json v);
    void open(Json* container, bool object);
    std::string path() const;

    std::size_t text_size_;
    const StreamedObjects* streamed_;
    Json root_;
    std::vector<Level> levels_;
    std::size_t depth_ = 0;
};

// The document `text` holds, parsed strictly (see above); throws ReadError saying what is wrong and where.
// Empty text is refused as truncated.
Json parse_strict(std::string_view text, const StreamedObjects* streamed = nullptr);

}  // namespace gpuchrono::json
