// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/json/fast_activity_reader.hpp"

#include "json/utf8.hpp"
#include "report/json/activity_kind_json.hpp"

#if GPUCHRONO_HAVE_RAPIDJSON
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#endif

#include <climits>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace gpuchrono::report::detail {

#if GPUCHRONO_HAVE_RAPIDJSON
namespace {

using json::Json;

// The fast reader of rank reports: RapidJSON's SAX parser (about four times nlohmann's speed on a report's
// text, which was most of a job merge's time) feeding the strict parser's DocumentBuilder, except that the
// activities the sink is to get are converted straight from the parser's events, without a JSON value or a path
// per member.
// It takes only what it is sure the strict reader reads the same way: activity members of the expected types,
// known names, each once, ASCII text (or UTF-8 it checked). Anything else (a syntax error, a member named
// twice, a null, an unknown member, a number out of range) stops it, and the caller reads the document again
// with nlohmann's parser, which accepts it or says what is wrong exactly as it always did; activities the sink
// already has are then checked again but not handed over twice.
class FastActivityReader : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, FastActivityReader> {
public:
    FastActivityReader(json::DocumentBuilder& document, const ActivitySink& sink) : document_(document), sink_(sink) {}

    std::size_t delivered() const noexcept { return delivered_; }

    bool Null() { return !in_activity_ && forward([&] { document_.null(); }); }
    bool Bool(bool b) { return !in_activity_ && forward([&] { document_.boolean(b); }); }
    bool Int(int i) { return in_activity_ ? signed_value(i) : forward([&] { document_.number_integer(i); }); }
    bool Int64(std::int64_t i) { return in_activity_ ? signed_value(i) : forward([&] { document_.number_integer(i); }); }
    bool Uint(unsigned u) { return in_activity_ ? unsigned_value(u) : forward([&] { document_.number_unsigned(u); }); }
    bool Uint64(std::uint64_t u) { return in_activity_ ? unsigned_value(u) : forward([&] { document_.number_unsigned(u); }); }
    bool Double(double d) {
        static const Json::string_t no_text;
        return !in_activity_ && forward([&] { document_.number_float(d, no_text); });
    }
    bool String(const char* text, rapidjson::SizeType length, bool) {
        const std::string_view s(text, length);
        if (!utf8_as_strict_reader_reads(s)) return false;
        if (!in_activity_) return forward([&] {
            Json::string_t value(s);
            document_.string(value);
        });
        if (in_array_ || seen_ & bit(member_)) return false;
        seen_ |= bit(member_);
        if (member_ == Member::name) {
            activity_.name.assign(s);
            return true;
        }
        if (member_ != Member::kind) return false;
        const std::optional<ActivityKind> kind = activity_kind_named(s);
        if (!kind) return false;
        activity_.kind = *kind;
        return true;
    }
    bool Key(const char* text, rapidjson::SizeType length, bool) {
        const std::string_view s(text, length);
        if (!utf8_as_strict_reader_reads(s)) return false;
        if (!in_activity_) return forward([&] {
            Json::string_t name(s);
            document_.key(name);
        });
        member_ = member_named(s);
        return member_ != Member::unknown && !(seen_ & bit(member_));
    }
    bool StartObject() {
        if (in_activity_) return false;
        if (document_.next_is_streamed()) {
            in_activity_ = true;
            activity_ = KernelActivity{};
            seen_ = 0;
            return true;
        }
        return forward([&] { document_.start_object(0); });
    }
    bool EndObject(rapidjson::SizeType) {
        if (!in_activity_) return forward([&] { document_.end_object(); });
        in_activity_ = false;
        document_.streamed_elsewhere();
        ++delivered_;
        sink_(std::move(activity_));
        return true;
    }
    bool StartArray() {
        if (!in_activity_) return forward([&] { document_.start_array(0); });
        if (in_array_ || (member_ != Member::grid && member_ != Member::block) || seen_ & bit(member_)) return false;
        in_array_ = true;
        array_length_ = 0;
        return true;
    }
    bool EndArray(rapidjson::SizeType) {
        if (!in_activity_) return forward([&] { document_.end_array(); });
        in_array_ = false;
        seen_ |= bit(member_);
        return true;
    }

private:
    enum class Member { kind, name, device, stream, grid, block, start_ns, end_ns, correlation_id, graph_id, graph_node_id, bytes, unknown };
    static unsigned bit(Member m) { return 1u << static_cast<unsigned>(m); }
    static Member member_named(std::string_view s) {
        static constexpr std::pair<std::string_view, Member> names[] = {
            {"kind", Member::kind},         {"name", Member::name},         {"device", Member::device},
            {"stream", Member::stream},     {"grid", Member::grid},         {"block", Member::block},
            {"start_ns", Member::start_ns}, {"end_ns", Member::end_ns},     {"correlation_id", Member::correlation_id},
            {"graph_id", Member::graph_id}, {"graph_node_id", Member::graph_node_id}, {"bytes", Member::bytes},
        };
        for (const auto& [n, m] : names)
            if (n == s) return m;
        return Member::unknown;
    }

    // ASCII passes as it is; other text only when it is well-formed UTF-8, as nlohmann's reader requires. This
    // check, on the strings alone, replaces RapidJSON's encoding validation of every byte (an eighth of the
    // parse), and also catches what its escapes may produce (a lone low surrogate).
    static bool utf8_as_strict_reader_reads(std::string_view s) {
        for (const char c : s)
            if (static_cast<unsigned char>(c) >= 0x80) return json::valid_utf8(s) == s;
        return true;
    }

    // The document's refusals (a member named twice) stop this reader: the strict one words them.
    template <class F>
    bool forward(F&& add) {
        try {
            add();
            return true;
        } catch (const json::ReadError&) {
            return false;
        }
    }

    // RapidJSON reports only numbers written with a minus sign as signed ("-0" included): only the device may be one.
    bool signed_value(std::int64_t i) {
        if (member_ != Member::device || in_array_ || seen_ & bit(member_) || i < INT_MIN) return false;
        seen_ |= bit(member_);
        activity_.device = static_cast<int>(i);
        return true;
    }
    bool unsigned_value(std::uint64_t u) {
        constexpr std::uint64_t u32_max = std::numeric_limits<std::uint32_t>::max();
        if (in_array_) {
            if (array_length_ >= 3 || u > u32_max) return false;
            (member_ == Member::grid ? activity_.grid : activity_.block)[array_length_++] = static_cast<std::uint32_t>(u);
            return true;
        }
        if (seen_ & bit(member_)) return false;
        seen_ |= bit(member_);
        switch (member_) {
        case Member::device:
            if (u > static_cast<std::uint64_t>(INT_MAX)) return false;
            activity_.device = static_cast<int>(u);
            return true;
        case Member::stream: return u <= u32_max && (activity_.stream = static_cast<std::uint32_t>(u), true);
        case Member::correlation_id: return u <= u32_max && (activity_.correlation_id = static_cast<std::uint32_t>(u), true);
        case Member::graph_id: return u <= u32_max && (activity_.graph_id = static_cast<std::uint32_t>(u), true);
        case Member::start_ns: activity_.start_ns = u; return true;
        case Member::end_ns: activity_.end_ns = u; return true;
        case Member::graph_node_id: activity_.graph_node_id = u; return true;
        case Member::bytes: activity_.bytes = u; return true;
        default: return false;
        }
    }

    json::DocumentBuilder& document_;
    const ActivitySink& sink_;
    std::size_t delivered_ = 0;
    bool in_activity_ = false;
    bool in_array_ = false;
    std::size_t array_length_ = 0;
    Member member_ = Member::unknown;
    unsigned seen_ = 0;
    KernelActivity activity_;
};

}  // namespace

std::optional<Json> parse_streaming_activities_fast(std::string_view text, const json::StreamedObjects& activities,
                                                    const ActivitySink& sink, std::size_t& delivered) {
    json::DocumentBuilder builder(text.size(), &activities);
    FastActivityReader handler(builder, sink);
    rapidjson::Reader reader;
    rapidjson::MemoryStream in(text.data(), text.size());
    const rapidjson::ParseResult ok =
        reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag>(in, handler);
    delivered = handler.delivered();
    // RapidJSON, like nlohmann, ends the text at a NUL byte; what follows one is left to nlohmann to judge.
    if (!ok || in.Tell() != text.size()) return std::nullopt;
    return builder.take();
}
#else
std::optional<json::Json> parse_streaming_activities_fast(std::string_view, const json::StreamedObjects&, const ActivitySink&,
                                                          std::size_t& delivered) {
    delivered = 0;
    return std::nullopt;
}
#endif

}  // namespace gpuchrono::report::detail
