// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The checked reading of JSON documents (report files and their sections): every value's type and range is
// checked before it is converted, and every refusal names the member's path in the document
// ("experiments[0].series[1].samples_ns[3]: expected a number, found string"). The one reader of the library,
// beside json_writer.hpp; library-internal, over nlohmann-json like the writer.
#pragma once

#include "json/json_writer.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono::json {

// A document that does not have the shape asked for. Readers of public formats turn it into their own error
// (report::ReportError) where the document enters.
class ReadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws ReadError "<path>: <what>"; an empty path is the document itself.
[[noreturn]] void fail(const std::string& path, const std::string& what);

// "a number" for messages: what a value is, with its text where that says more than its type.
std::string describe(const Json& v);

// The checked conversions of one value; `path` names it in errors. A null number is NaN: how non-finite
// figures are written.
double as_double(const Json& v, const std::string& path);
std::uint64_t as_uint64(const Json& v, const std::string& path);
std::int64_t as_int64(const Json& v, const std::string& path);

// Reads the members of one object. A member that is absent or null reads as its fallback.
class Reader {
public:
    Reader(const Json& v, std::string path);

    const std::string& path() const noexcept { return path_; }
    std::string child(std::string_view key) const;

    // The member, null included; nullptr when absent.
    const Json* find(std::string_view key) const;
    // The member when present and not null, else nullptr.
    const Json* present(std::string_view key) const;

    std::string string(std::string_view key, std::string fallback = {}) const;
    double number(std::string_view key, double fallback = std::numeric_limits<double>::quiet_NaN()) const;
    std::uint64_t unsigned_integer(std::string_view key, std::uint64_t fallback = 0) const;
    std::int64_t integer(std::string_view key, std::int64_t fallback = 0) const;
    std::uint32_t u32(std::string_view key, std::uint32_t fallback = 0) const;
    int i32(std::string_view key, int fallback = 0) const;
    bool boolean(std::string_view key, bool fallback = false) const;
    // Members a document must hold: absent or null is refused ("missing (expected an integer)").
    std::int64_t required_integer(std::string_view key) const;
    int required_i32(std::string_view key) const;

    // Calls f(element, element path) for each element of an optional array member.
    template <class F>
    void each(std::string_view key, F&& f) const {
        const Json* v = present(key);
        if (!v) return;
        if (!v->is_array()) fail(child(key), std::string("expected an array, found ") + v->type_name());
        for (std::size_t i = 0; i < v->size(); ++i) f((*v)[i], child(key) + "[" + std::to_string(i) + "]");
    }

    std::vector<std::string> strings(std::string_view key) const;

private:
    const Json& v_;
    std::string path_;
};

}  // namespace gpuchrono::json
