// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "json/strict_parser.hpp"

#include "json/utf8.hpp"

namespace gpuchrono::json {

std::string without_exception_id(const char* what) {
    std::string s = what;
    if (s.rfind("[json.exception.", 0) == 0)
        if (const auto end = s.find("] "); end != std::string::npos) s.erase(0, end + 2);
    return s;
}

// Only binary formats (CBOR, MessagePack) have binary values; nlohmann's JSON parser never makes one.
bool DocumentBuilder::binary(Json::binary_t&) { throw ReadError("binary values are not JSON"); }

bool DocumentBuilder::end_object() {
    --depth_;
    if (streamed_ && depth_ == streamed_->at.size() && at_streamed_path()) {
        auto& elements = *levels_[depth_ - 1].value->get_ptr<Json::array_t*>();
        streamed_->take(elements.back(), path());
        elements.pop_back();
        ++levels_[depth_ - 1].taken;
    }
    return true;
}

bool DocumentBuilder::key(Json::string_t& name) {
    Level& top = levels_[depth_ - 1];
    if (!top.keys.insert(name).second) {
        top.key = name;
        std::string message = "the member \"";  // appended: g++ 12 misreads literal + std::string (-Wrestrict)
        fail(path(), message.append(name).append("\" appears twice"));
    }
    top.key = std::move(name);
    return true;
}

bool DocumentBuilder::parse_error(std::size_t position, const std::string&, const Json::exception& e) {
    // The "last read" token nlohmann quotes may hold the text's invalid bytes: keep the message UTF-8.
    std::string what = valid_utf8(without_exception_id(e.what()));
    // position: where parsing stopped, 1-based; past the last byte means the text ran out.
    if (position >= text_size_ && e.id / 100 == 1) what += " (the text ends before the document does: truncated?)";
    throw ReadError(what);
}

// Whether the open containers are those of the pattern: a named member of an object at each name, an array
// at each any_element (the last one the array whose element is starting or has just closed).
bool DocumentBuilder::at_streamed_path() const {
    const std::vector<PathStep>& at = streamed_->at;
    if (at.empty() || at.back()) return false;  // only elements of an array can be taken out
    for (std::size_t d = 0; d < at.size(); ++d) {
        const Level& l = levels_[d];
        if (at[d] ? !l.object || l.key != *at[d] : l.object) return false;
    }
    return true;
}

// Places `v` where the parser is: the root, the next element of an array, or the member just named.
// Pointers to open containers stay valid: a container only grows while none of its children is open.
Json* DocumentBuilder::add(Json v) {
    if (depth_ == 0) {
        root_ = std::move(v);
        return &root_;
    }
    Level& top = levels_[depth_ - 1];
    if (top.object) {
        auto& members = static_cast<Json::object_t::Container&>(*top.value->get_ptr<Json::object_t*>());
        members.emplace_back(top.key, std::move(v));  // unique: key() checked it
        return &members.back().second;
    }
    auto& elements = *top.value->get_ptr<Json::array_t*>();
    elements.push_back(std::move(v));
    return &elements.back();
}

void DocumentBuilder::open(Json* container, bool object) {
    if (depth_ == levels_.size()) levels_.emplace_back();
    Level& l = levels_[depth_++];
    l.value = container;
    l.object = object;
    l.keys.clear();  // levels are reused: their hash tables keep their buckets
    l.taken = 0;
}

std::string DocumentBuilder::path() const {
    std::string out;
    for (std::size_t d = 0; d < depth_; ++d) {
        const Level& l = levels_[d];
        if (!l.object)
            out.append("[").append(std::to_string(l.value->size() - 1 + l.taken)).append("]");
        else
            out.append(out.empty() ? "" : ".").append(l.key);
    }
    return out;
}

Json parse_strict(std::string_view text, const StreamedObjects* streamed) {
    DocumentBuilder builder(text.size(), streamed);
    Json::sax_parse(text.begin(), text.end(), &builder);
    return builder.take();
}

}  // namespace gpuchrono::json
