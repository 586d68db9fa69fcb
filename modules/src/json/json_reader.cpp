// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "json/json_reader.hpp"

#include <climits>
#include <cmath>

namespace gpuchrono::json {

void fail(const std::string& path, const std::string& what) {
    throw ReadError((path.empty() ? std::string("document") : path) + ": " + what);
}

std::string describe(const Json& v) {
    if (v.is_number()) return v.dump();
    return v.type_name();
}

double as_double(const Json& v, const std::string& path) {
    if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (!v.is_number()) fail(path, std::string("expected a number, found ") + v.type_name());
    return v.get<double>();
}

std::uint64_t as_uint64(const Json& v, const std::string& path) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_float()) {
        const double d = v.get<double>();
        // An integral double in range is accepted (a hand-written "3.0"); 2^64 is exact as a double.
        if (std::trunc(d) == d && d >= 0.0 && d < 18446744073709551616.0) return static_cast<std::uint64_t>(d);
    }
    fail(path, "expected a non-negative integer, found " + describe(v));
}

std::int64_t as_int64(const Json& v, const std::string& path) {
    if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<std::int64_t>();
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(INT64_MAX)) return static_cast<std::int64_t>(u);
        fail(path, std::to_string(u) + " does not fit a signed 64-bit integer");
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::trunc(d) == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0) return static_cast<std::int64_t>(d);
    }
    fail(path, "expected an integer, found " + describe(v));
}

Reader::Reader(const Json& v, std::string path) : v_(v), path_(std::move(path)) {
    if (!v_.is_object()) fail(path_, std::string("expected an object, found ") + v_.type_name());
}

std::string Reader::child(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const Json* Reader::find(std::string_view key) const {
    const auto it = v_.find(key);
    return it == v_.end() ? nullptr : &*it;
}

const Json* Reader::present(std::string_view key) const {
    const Json* v = find(key);
    return !v || v->is_null() ? nullptr : v;
}

std::string Reader::string(std::string_view key, std::string fallback) const {
    const Json* v = present(key);
    if (!v) return fallback;
    if (!v->is_string()) fail(child(key), std::string("expected a string, found ") + v->type_name());
    return v->get<std::string>();
}

double Reader::number(std::string_view key, double fallback) const {
    const Json* v = find(key);
    return v ? as_double(*v, child(key)) : fallback;
}

std::uint64_t Reader::unsigned_integer(std::string_view key, std::uint64_t fallback) const {
    const Json* v = present(key);
    return v ? as_uint64(*v, child(key)) : fallback;
}

std::int64_t Reader::integer(std::string_view key, std::int64_t fallback) const {
    const Json* v = present(key);
    return v ? as_int64(*v, child(key)) : fallback;
}

std::uint32_t Reader::u32(std::string_view key, std::uint32_t fallback) const {
    const std::uint64_t u = unsigned_integer(key, fallback);
    if (u > UINT32_MAX) fail(child(key), std::to_string(u) + " does not fit 32 bits");
    return static_cast<std::uint32_t>(u);
}

int Reader::i32(std::string_view key, int fallback) const {
    const std::int64_t i = integer(key, fallback);
    if (i < INT32_MIN || i > INT32_MAX) fail(child(key), std::to_string(i) + " does not fit an int");
    return static_cast<int>(i);
}

bool Reader::boolean(std::string_view key, bool fallback) const {
    const Json* v = present(key);
    if (!v) return fallback;
    if (!v->is_boolean()) fail(child(key), std::string("expected true or false, found ") + describe(*v));
    return v->get<bool>();
}

std::int64_t Reader::required_integer(std::string_view key) const {
    if (!present(key)) fail(child(key), "missing (expected an integer)");
    return integer(key);
}

int Reader::required_i32(std::string_view key) const {
    if (!present(key)) fail(child(key), "missing (expected an integer)");
    return i32(key);
}

std::vector<std::string> Reader::strings(std::string_view key) const {
    std::vector<std::string> out;
    each(key, [&](const Json& e, const std::string& path) {
        if (!e.is_string()) fail(path, std::string("expected a string, found ") + e.type_name());
        out.push_back(e.get<std::string>());
    });
    return out;
}

}  // namespace gpuchrono::json
