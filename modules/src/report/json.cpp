#include <gpuchrono/report/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>

namespace gpuchrono::json {

const char* to_string(Type t) noexcept {
    switch (t) {
        case Type::null: return "null";
        case Type::boolean: return "boolean";
        case Type::integer: return "integer";
        case Type::unsigned_integer: return "unsigned integer";
        case Type::number: return "number";
        case Type::string: return "string";
        case Type::array: return "array";
        case Type::object: return "object";
    }
    return "unknown";
}

namespace {

[[noreturn]] void wrong_type(const char* expected, Type actual) {
    throw std::invalid_argument(std::string("gpuchrono::json: expected ") + expected + ", found " + to_string(actual));
}

}  // namespace

bool Value::as_bool() const {
    if (auto* b = std::get_if<bool>(&v_)) return *b;
    wrong_type("a boolean", type());
}

const std::string& Value::as_string() const {
    if (auto* s = std::get_if<std::string>(&v_)) return *s;
    wrong_type("a string", type());
}

const Array& Value::as_array() const {
    if (auto* a = std::get_if<Array>(&v_)) return *a;
    wrong_type("an array", type());
}

Array& Value::as_array() {
    if (auto* a = std::get_if<Array>(&v_)) return *a;
    wrong_type("an array", type());
}

const Object& Value::as_object() const {
    if (auto* o = std::get_if<Object>(&v_)) return *o;
    wrong_type("an object", type());
}

Object& Value::as_object() {
    if (auto* o = std::get_if<Object>(&v_)) return *o;
    wrong_type("an object", type());
}

double Value::as_double() const {
    switch (type()) {
        case Type::null: return std::numeric_limits<double>::quiet_NaN();
        case Type::integer: return static_cast<double>(std::get<std::int64_t>(v_));
        case Type::unsigned_integer: return static_cast<double>(std::get<std::uint64_t>(v_));
        case Type::number: return std::get<double>(v_);
        default: wrong_type("a number", type());
    }
}

std::int64_t Value::as_int64() const {
    switch (type()) {
        case Type::integer: return std::get<std::int64_t>(v_);
        case Type::unsigned_integer:
            throw std::invalid_argument("gpuchrono::json: " + std::to_string(std::get<std::uint64_t>(v_)) +
                                        " does not fit a signed 64-bit integer");
        case Type::number: {
            const double d = std::get<double>(v_);
            // 2^63 is exactly representable; anything at or above it is out of range.
            if (std::trunc(d) == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
                return static_cast<std::int64_t>(d);
            throw std::invalid_argument("gpuchrono::json: expected an integer, found " + std::to_string(d));
        }
        default: wrong_type("an integer", type());
    }
}

std::uint64_t Value::as_uint64() const {
    switch (type()) {
        case Type::integer: {
            const std::int64_t i = std::get<std::int64_t>(v_);
            if (i < 0)
                throw std::invalid_argument("gpuchrono::json: expected a non-negative integer, found " +
                                            std::to_string(i));
            return static_cast<std::uint64_t>(i);
        }
        case Type::unsigned_integer: return std::get<std::uint64_t>(v_);
        case Type::number: {
            const double d = std::get<double>(v_);
            if (std::trunc(d) == d && d >= 0.0 && d < 18446744073709551616.0) return static_cast<std::uint64_t>(d);
            throw std::invalid_argument("gpuchrono::json: expected a non-negative integer, found " +
                                        std::to_string(d));
        }
        default: wrong_type("a non-negative integer", type());
    }
}

const Value* Value::find(std::string_view key) const {
    for (const auto& [name, value] : as_object())
        if (name == key) return &value;
    return nullptr;
}

const Value& Value::at(std::string_view key) const {
    if (const Value* v = find(key)) return *v;
    throw std::invalid_argument("gpuchrono::json: missing member \"" + std::string(key) + "\"");
}

Value& Value::set(std::string key, Value value) {
    Object& members = as_object();
    for (auto& [name, existing] : members)
        if (name == key) return existing = std::move(value);
    members.emplace_back(std::move(key), std::move(value));
    return members.back().second;
}

bool operator==(const Value& a, const Value& b) {
    if (a.is_number() && b.is_number()) {
        if (a.type() == Type::number || b.type() == Type::number) {
            // Only exact integers may compare equal to a double; as_double() would round big ones.
            if (a.type() != Type::number || b.type() != Type::number) {
                const Value& d = a.type() == Type::number ? a : b;
                const Value& i = a.type() == Type::number ? b : a;
                const double x = std::get<double>(d.v_);
                if (std::trunc(x) != x) return false;
                try {
                    return i.type() == Type::integer ? d.as_int64() == std::get<std::int64_t>(i.v_)
                                                     : d.as_uint64() == std::get<std::uint64_t>(i.v_);
                } catch (const std::invalid_argument&) {
                    return false;
                }
            }
            return std::get<double>(a.v_) == std::get<double>(b.v_);
        }
        return a.type() == b.type() && a.v_ == b.v_;  // integers are normalised: int64 whenever they fit
    }
    return a.v_ == b.v_;
}

// ---------------------------------------------------------------------------------------------- writer

namespace {

void write_string(std::string& out, std::string_view s) {
    out += '"';
    for (const char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                    out += buf;
                } else {
                    out += c;  // UTF-8 passes through unchanged
                }
        }
    }
    out += '"';
}

void write_double(std::string& out, double d) {
    if (!std::isfinite(d)) {
        out += "null";
        return;
    }
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);  // shortest form that reads back exactly
    out.append(buf, end);
    // "3" would read back as an integer; keep the double a double.
    if (std::string_view(buf, static_cast<std::size_t>(end - buf)).find_first_of(".eEn") == std::string_view::npos)
        out += ".0";
}

bool is_scalar(const Value& v) { return v.type() != Type::array && v.type() != Type::object; }

bool all_scalar(const Value& v) {
    if (v.type() == Type::array) {
        for (const Value& e : v.as_array())
            if (!is_scalar(e)) return false;
    } else {
        for (const auto& m : v.as_object())
            if (!is_scalar(m.second)) return false;
    }
    return true;
}

void write_value(std::string& out, const Value& v, int indent, int depth) {
    switch (v.type()) {
        case Type::null: out += "null"; return;
        case Type::boolean: out += v.as_bool() ? "true" : "false"; return;
        case Type::integer: out += std::to_string(v.as_int64()); return;
        case Type::unsigned_integer: out += std::to_string(v.as_uint64()); return;
        case Type::number: write_double(out, v.as_double()); return;
        case Type::string: write_string(out, v.as_string()); return;
        case Type::array:
        case Type::object: break;
    }
    const bool array = v.type() == Type::array;
    const std::size_t n = array ? v.as_array().size() : v.as_object().size();
    out += array ? '[' : '{';
    if (n == 0) {
        out += array ? ']' : '}';
        return;
    }
    const bool one_line = indent == 0 || all_scalar(v);
    const std::string inner = one_line ? std::string() : "\n" + std::string(static_cast<std::size_t>(indent * (depth + 1)), ' ');
    for (std::size_t i = 0; i < n; ++i) {
        if (i) out += one_line && indent ? ", " : ",";
        out += inner;
        if (array) {
            write_value(out, v.as_array()[i], indent, depth + 1);
        } else {
            const auto& [key, member] = v.as_object()[i];
            write_string(out, key);
            out += indent ? ": " : ":";
            write_value(out, member, indent, depth + 1);
        }
    }
    if (!one_line) out += "\n" + std::string(static_cast<std::size_t>(indent * depth), ' ');
    out += array ? ']' : '}';
}

}  // namespace

std::string write(const Value& value, WriteOptions options) {
    if (options.indent < 0 || options.indent > 16)
        throw std::invalid_argument("gpuchrono::json::write: indent must be 0..16, got " + std::to_string(options.indent));
    std::string out;
    write_value(out, value, options.indent, 0);
    return out;
}

// ---------------------------------------------------------------------------------------------- parser

namespace {

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    Value document() {
        skip_space();
        Value v = value(0);
        skip_space();
        if (pos_ != text_.size()) fail("unexpected text after the JSON value");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
            if (text_[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw ParseError("gpuchrono::json::parse: line " + std::to_string(line) + ", column " +
                             std::to_string(column) + ": " + what,
                         line, column);
    }

    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return at_end() ? '\0' : text_[pos_]; }

    void skip_space() {
        while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }

    void expect_word(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) fail("expected " + std::string(word));
        pos_ += word.size();
    }

    Value value(std::size_t depth) {
        if (depth >= max_depth) fail("nesting deeper than " + std::to_string(max_depth) + " levels");
        switch (peek()) {
            case '{': return object(depth);
            case '[': return array(depth);
            case '"': return Value(string());
            case 't': expect_word("true"); return Value(true);
            case 'f': expect_word("false"); return Value(false);
            case 'n': expect_word("null"); return Value();
            default:
                if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return number();
                if (at_end()) fail("unexpected end of input, expected a value");
                fail(std::string("unexpected character '") + peek() + "', expected a value");
        }
    }

    Value object(std::size_t depth) {
        ++pos_;  // '{'
        Value result{Object{}};
        skip_space();
        if (peek() == '}') {
            ++pos_;
            return result;
        }
        for (;;) {
            skip_space();
            if (peek() != '"') fail("expected a member name in double quotes");
            std::string key = string();
            skip_space();
            if (peek() != ':') fail("expected ':' after member name \"" + key + "\"");
            ++pos_;
            skip_space();
            result.as_object().emplace_back(std::move(key), value(depth + 1));
            skip_space();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == '}') {
                ++pos_;
                return result;
            }
            fail("expected ',' or '}' in an object");
        }
    }

    Value array(std::size_t depth) {
        ++pos_;  // '['
        Value result{Array{}};
        skip_space();
        if (peek() == ']') {
            ++pos_;
            return result;
        }
        for (;;) {
            skip_space();
            result.as_array().push_back(value(depth + 1));
            skip_space();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == ']') {
                ++pos_;
                return result;
            }
            fail("expected ',' or ']' in an array");
        }
    }

    unsigned hex4() {
        if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = text_[pos_++];
            code <<= 4;
            if (c >= '0' && c <= '9') code |= static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f') code |= static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') code |= static_cast<unsigned>(c - 'A' + 10);
            else fail("bad hex digit in a \\u escape");
        }
        return code;
    }

    static void append_utf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::string string() {
        ++pos_;  // '"'
        std::string out;
        for (;;) {
            if (at_end()) fail("unterminated string");
            const char c = text_[pos_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) {
                --pos_;
                fail("control character in a string (escape it)");
            }
            if (c != '\\') {
                out += c;
                continue;
            }
            if (at_end()) fail("unterminated escape");
            const char e = text_[pos_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    unsigned cp = hex4();
                    if (cp >= 0xD800 && cp < 0xDC00) {
                        if (text_.substr(pos_, 2) != "\\u") fail("high surrogate without its low surrogate");
                        pos_ += 2;
                        const unsigned low = hex4();
                        if (low < 0xDC00 || low > 0xDFFF) fail("high surrogate followed by a non-low surrogate");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        fail("low surrogate without a high surrogate");
                    }
                    append_utf8(out, cp);
                    break;
                }
                default: --pos_; fail(std::string("unknown escape \\") + e);
            }
        }
    }

    Value number() {
        const std::size_t start = pos_;
        if (peek() == '-') ++pos_;
        if (peek() == '0') {
            ++pos_;
            if (peek() >= '0' && peek() <= '9') fail("leading zero in a number");
        } else if (peek() >= '1' && peek() <= '9') {
            while (peek() >= '0' && peek() <= '9') ++pos_;
        } else {
            fail("expected a digit");
        }
        bool integral = true;
        if (peek() == '.') {
            integral = false;
            ++pos_;
            if (!(peek() >= '0' && peek() <= '9')) fail("expected a digit after the decimal point");
            while (peek() >= '0' && peek() <= '9') ++pos_;
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            ++pos_;
            if (peek() == '+' || peek() == '-') ++pos_;
            if (!(peek() >= '0' && peek() <= '9')) fail("expected a digit in the exponent");
            while (peek() >= '0' && peek() <= '9') ++pos_;
        }
        const char* first = text_.data() + start;
        const char* last = text_.data() + pos_;
        if (integral) {
            if (*first == '-') {
                std::int64_t i = 0;
                if (auto [p, ec] = std::from_chars(first, last, i); ec == std::errc() && p == last) return Value(i);
            } else {
                std::uint64_t u = 0;
                if (auto [p, ec] = std::from_chars(first, last, u); ec == std::errc() && p == last)
                    return Value(static_cast<unsigned long long>(u));
            }
            // Beyond 64 bits: fall through to a double, as other JSON readers do.
        }
        double d = 0;
        auto [p, ec] = std::from_chars(first, last, d);
        if (ec == std::errc::result_out_of_range) {
            // Overflow reads as infinity, which a report stores as null anyway; underflow as 0.
            d = *first == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
            for (const char* c = first; c != last; ++c)
                if (*c == 'e' || *c == 'E') {
                    if (c[1] == '-') d = 0.0;
                    break;
                }
        } else if (ec != std::errc() || p != last) {
            fail("malformed number");
        }
        return Value(d);
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

}  // namespace

Value parse(std::string_view text) { return Parser(text).document(); }

}  // namespace gpuchrono::json
