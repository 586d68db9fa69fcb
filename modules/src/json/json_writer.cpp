// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "json/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>

namespace gpuchrono::json {

namespace {

void write_double(std::string& out, double d) {
    if (!std::isfinite(d)) {
        out += "null";
        return;
    }
    char buf[32];  // the shortest round-trip form of a double needs at most 24 characters
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
    if (ec != std::errc()) throw std::logic_error("gpuchrono: cannot format a double for JSON");
    const std::string_view text(buf, static_cast<std::size_t>(end - buf));
    out += text;
    // "3" would read back as an integer; keep the double a double.
    if (text.find_first_of(".eE") == std::string_view::npos) out += ".0";
}

void write_string(std::string& out, const Json& s) {
    // nlohmann's serializer escapes what JSON requires (quote, backslash, control characters as \u00xx)
    // and passes other UTF-8 through; `replace` turns invalid bytes into U+FFFD instead of throwing.
    out += s.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool is_scalar(const Json& v) { return !v.is_structured(); }

bool all_scalar(const Json& v) {
    for (const Json& e : v)  // an object's iteration visits its values
        if (!is_scalar(e)) return false;
    return true;
}

void write_value(std::string& out, const Json& v, int indent, int depth) {
    switch (v.type()) {
        case Json::value_t::null:
        case Json::value_t::discarded: out += "null"; return;
        case Json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; return;
        case Json::value_t::number_integer: out += std::to_string(v.get<std::int64_t>()); return;
        case Json::value_t::number_unsigned: out += std::to_string(v.get<std::uint64_t>()); return;
        case Json::value_t::number_float: write_double(out, v.get<double>()); return;
        case Json::value_t::string: write_string(out, v); return;
        case Json::value_t::binary: throw std::logic_error("gpuchrono: report documents hold no binary values");
        case Json::value_t::array:
        case Json::value_t::object: break;
    }
    const bool array = v.is_array();
    out += array ? '[' : '{';
    if (v.empty()) {
        out += array ? ']' : '}';
        return;
    }
    const bool one_line = indent == 0 || all_scalar(v);
    // Built by appending: g++ 12 at -O3 misreads "\n" + std::string (-Wrestrict).
    std::string inner;
    if (!one_line) inner.append(1, '\n').append(static_cast<std::size_t>(indent * (depth + 1)), ' ');
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += one_line && indent ? ", " : ",";
        first = false;
        out += inner;
        if (!array) {
            write_string(out, Json(it.key()));
            out += indent ? ": " : ":";
        }
        write_value(out, it.value(), indent, depth + 1);
    }
    if (!one_line) out.append(1, '\n').append(static_cast<std::size_t>(indent * depth), ' ');
    out += array ? ']' : '}';
}

}  // namespace

std::string write_json(const Json& value, int indent) {
    if (indent < 0 || indent > 16)
        throw std::invalid_argument("gpuchrono: JSON indent must be 0..16, got " + std::to_string(indent));
    std::string out;
    write_value(out, value, indent, 0);
    return out;
}

}  // namespace gpuchrono::json
