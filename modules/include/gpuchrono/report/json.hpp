// gpuchrono::json: the small JSON value, writer and parser that the report files are made of.
//
// Why our own: the report must be written on the GPU machine and read back on a laptop without a GPU, with
// no dependency that either side has to install; and report files hold 64-bit %globaltimer and clock64
// readings (around 1.7e18 ns since the epoch), which a double-only JSON library would round to 256 ns.
// So integers without a fraction or exponent are kept exactly (int64 or uint64), everything else is a
// double written in its shortest round-trip form.
//
// Objects keep their members in insertion order, so the files are stable and diffable. JSON has no NaN or
// infinity: the writer writes them as null, and readers of a report treat a null number as "not measured".
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace gpuchrono::json {

class Value;
using Array = std::vector<Value>;
using Member = std::pair<std::string, Value>;
using Object = std::vector<Member>;

enum class Type { null, boolean, integer, unsigned_integer, number, string, array, object };

const char* to_string(Type t) noexcept;

// A document node. Accessors throw std::invalid_argument naming the expected and the actual type, so a
// malformed report file says what was wrong instead of crashing the renderer.
class Value {
public:
    Value() noexcept = default;  // null
    Value(std::nullptr_t) noexcept {}
    Value(bool b) : v_(b) {}
    Value(int i) : v_(static_cast<std::int64_t>(i)) {}
    Value(long i) : v_(static_cast<std::int64_t>(i)) {}
    Value(long long i) : v_(static_cast<std::int64_t>(i)) {}
    Value(unsigned u) : v_(static_cast<std::int64_t>(u)) {}
    Value(unsigned long u) { set_unsigned(u); }
    Value(unsigned long long u) { set_unsigned(u); }
    Value(double d) : v_(d) {}
    Value(const char* s) : v_(std::string(s)) {}
    Value(std::string s) : v_(std::move(s)) {}
    Value(std::string_view s) : v_(std::string(s)) {}
    Value(Array a) : v_(std::move(a)) {}
    Value(Object o) : v_(std::move(o)) {}

    Type type() const noexcept { return static_cast<Type>(v_.index()); }
    bool is_null() const noexcept { return type() == Type::null; }
    bool is_number() const noexcept {
        return type() == Type::integer || type() == Type::unsigned_integer || type() == Type::number;
    }

    bool as_bool() const;
    const std::string& as_string() const;
    const Array& as_array() const;
    const Object& as_object() const;
    Array& as_array();
    Object& as_object();

    // Any number as a double (integers above 2^53 round); null reads as NaN (how non-finite values are written).
    double as_double() const;
    // Integers only, exactly; a double with an integral value in range is accepted too.
    std::int64_t as_int64() const;
    std::uint64_t as_uint64() const;

    // Object access. find() returns nullptr when the member is absent; at() throws naming the member.
    const Value* find(std::string_view key) const;
    const Value& at(std::string_view key) const;
    // Appends (keeps insertion order); a second member of the same name replaces the first.
    Value& set(std::string key, Value value);

    // Structural equality; numbers compare by value across integer kinds, and NaN never equals NaN.
    friend bool operator==(const Value& a, const Value& b);

private:
    template <class U>
    void set_unsigned(U u) {
        if (u <= static_cast<U>(INT64_MAX))
            v_ = static_cast<std::int64_t>(u);
        else
            v_ = static_cast<std::uint64_t>(u);
    }

    std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string, Array, Object> v_;
};

struct WriteOptions {
    // Spaces per level; 0 writes everything on one line. Containers whose elements are all scalars (a row
    // of samples, a block record) are written on one line either way, which keeps files short and readable.
    int indent = 2;
};

std::string write(const Value& value, WriteOptions options = {});

// A parse failure: the message names the line and column (1-based) and what was expected.
class ParseError : public std::runtime_error {
public:
    ParseError(const std::string& what, std::size_t line, std::size_t column)
        : std::runtime_error(what), line_(line), column_(column) {}
    std::size_t line() const noexcept { return line_; }
    std::size_t column() const noexcept { return column_; }

private:
    std::size_t line_;
    std::size_t column_;
};

// Parses one JSON text (RFC 8259): no comments, no trailing commas, no NaN literals. Nesting deeper than
// max_depth is refused rather than recursed into, so hostile input cannot overflow the stack.
inline constexpr std::size_t max_depth = 256;
Value parse(std::string_view text);

}  // namespace gpuchrono::json
