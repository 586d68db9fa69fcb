// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A strict little XML reader for tests of the SVG renderers: it accepts only well-formed XML 1.0 documents
// (one root, matched tags, quoted attributes, no raw '<' or stray '&' in text or values, known entities) and
// returns the element tree, so a test can both prove the file parses and check its structure.
#pragma once

#include <cctype>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xml_check {

struct Element {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attributes;  // values unescaped
    std::vector<std::unique_ptr<Element>> children;
    std::string text;  // all direct text, unescaped

    const std::string* attribute(std::string_view key) const {
        for (const auto& [k, v] : attributes)
            if (k == key) return &v;
        return nullptr;
    }

    // Every element in the subtree (this one included) for which `keep` holds, in document order.
    void collect(const std::function<bool(const Element&)>& keep, std::vector<const Element*>& out) const {
        if (keep(*this)) out.push_back(this);
        for (const auto& c : children) c->collect(keep, out);
    }

    std::vector<const Element*> all(std::string_view element_name, std::string_view css_class = {}) const {
        std::vector<const Element*> out;
        collect(
            [&](const Element& e) {
                if (e.name != element_name) return false;
                if (css_class.empty()) return true;
                const std::string* c = e.attribute("class");
                return c && *c == css_class;
            },
            out);
        return out;
    }
};

class Parser {
public:
    explicit Parser(std::string_view text) : s_(text) {}

    std::unique_ptr<Element> document() {
        skip_misc();
        if (!starts("<")) fail("no root element");
        auto root = element();
        skip_misc();
        if (pos_ != s_.size()) fail("content after the root element");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error("XML error at offset " + std::to_string(pos_) + ": " + what);
    }
    bool starts(std::string_view p) const { return s_.substr(pos_, p.size()) == p; }
    void skip_space() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
    }
    void skip_misc() {  // prolog, comments and whitespace between top-level items
        for (;;) {
            skip_space();
            if (starts("<?")) {
                const auto end = s_.find("?>", pos_);
                if (end == std::string_view::npos) fail("unterminated processing instruction");
                pos_ = end + 2;
            } else if (starts("<!--")) {
                comment();
            } else {
                return;
            }
        }
    }
    void comment() {
        const auto end = s_.find("-->", pos_ + 4);
        if (end == std::string_view::npos) fail("unterminated comment");
        pos_ = end + 3;
    }
    static bool name_char(char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.';
    }
    std::string name() {
        const std::size_t start = pos_;
        while (pos_ < s_.size() && name_char(s_[pos_])) ++pos_;
        if (pos_ == start) fail("expected a name");
        return std::string(s_.substr(start, pos_ - start));
    }
    std::string unescape(std::string_view raw) {
        std::string out;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] == '<') fail("raw '<' in text or attribute value");
            if (raw[i] != '&') {
                out += raw[i];
                continue;
            }
            const auto semi = raw.find(';', i);
            if (semi == std::string_view::npos) fail("'&' without ';'");
            const std::string_view entity = raw.substr(i + 1, semi - i - 1);
            if (entity == "amp") out += '&';
            else if (entity == "lt") out += '<';
            else if (entity == "gt") out += '>';
            else if (entity == "quot") out += '"';
            else if (entity == "apos") out += '\'';
            else if (!entity.empty() && entity[0] == '#') out += '?';
            else fail("unknown entity &" + std::string(entity) + ";");
            i = semi;
        }
        return out;
    }
    std::unique_ptr<Element> element() {
        ++pos_;  // '<'
        auto e = std::make_unique<Element>();
        e->name = name();
        for (;;) {
            skip_space();
            if (starts("/>")) {
                pos_ += 2;
                return e;
            }
            if (starts(">")) {
                ++pos_;
                break;
            }
            std::string key = name();
            for (const auto& a : e->attributes)
                if (a.first == key) fail("duplicate attribute " + key);
            skip_space();
            if (!starts("=")) fail("attribute " + key + " without '='");
            ++pos_;
            skip_space();
            if (pos_ >= s_.size() || (s_[pos_] != '"' && s_[pos_] != '\'')) fail("unquoted attribute value");
            const char q = s_[pos_++];
            const auto end = s_.find(q, pos_);
            if (end == std::string_view::npos) fail("unterminated attribute value");
            e->attributes.emplace_back(std::move(key), unescape(s_.substr(pos_, end - pos_)));
            pos_ = end + 1;
        }
        for (;;) {
            const auto lt = s_.find('<', pos_);
            if (lt == std::string_view::npos) fail("element <" + e->name + "> is not closed");
            e->text += unescape(s_.substr(pos_, lt - pos_));
            pos_ = lt;
            if (starts("</")) {
                pos_ += 2;
                const std::string closing = name();
                if (closing != e->name) fail("</" + closing + "> closes <" + e->name + ">");
                skip_space();
                if (!starts(">")) fail("expected '>'");
                ++pos_;
                return e;
            }
            if (starts("<!--")) {
                comment();
                continue;
            }
            e->children.push_back(element());
        }
    }

    std::string_view s_;
    std::size_t pos_ = 0;
};

// Throws std::runtime_error saying where the document is malformed.
inline std::unique_ptr<Element> parse(std::string_view text) { return Parser(text).document(); }

}  // namespace xml_check
