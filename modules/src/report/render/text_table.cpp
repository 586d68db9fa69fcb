// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/text_table.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace gpuchrono::report {

std::size_t display_width(const std::string& s) noexcept {
    std::size_t n = 0;
    for (const char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;  // count lead bytes, not continuation bytes
    return n;
}

TextTable& TextTable::column(std::string header, Align align) {
    if (!rows_.empty()) throw std::invalid_argument("gpuchrono::report::TextTable: add every column before the first row");
    columns_.push_back({std::move(header), align});
    return *this;
}

TextTable& TextTable::row(std::vector<std::string> cells) {
    if (cells.size() != columns_.size())
        throw std::invalid_argument("gpuchrono::report::TextTable: a row has " + std::to_string(cells.size()) +
                                    " cells for " + std::to_string(columns_.size()) + " columns");
    rows_.push_back(std::move(cells));
    return *this;
}

std::string TextTable::render(const std::string& indent) const {
    std::vector<std::size_t> width(columns_.size());
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        width[c] = display_width(columns_[c].header);
        for (const auto& r : rows_) width[c] = std::max(width[c], display_width(r[c]));
    }
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string l = indent;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c) l += "  ";
            const std::string pad(width[c] - display_width(cells[c]), ' ');
            l += columns_[c].align == Align::right ? pad + cells[c] : cells[c] + pad;
        }
        while (!l.empty() && l.back() == ' ') l.pop_back();
        out += l + "\n";
    };
    std::vector<std::string> headers;
    for (const auto& c : columns_) headers.push_back(c.header);
    line(headers);
    std::vector<std::string> rule;
    for (std::size_t c = 0; c < columns_.size(); ++c) rule.push_back(std::string(width[c], '-'));
    line(rule);
    for (const auto& r : rows_) line(r);
    return out;
}

std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
    std::istringstream words(text);
    std::string word, out, current = indent;
    bool empty_line = true;
    while (words >> word) {
        if (!empty_line && display_width(current) + 1 + display_width(word) > width) {
            out += current + "\n";
            current = indent;
            empty_line = true;
        }
        if (!empty_line) current += ' ';
        current += word;
        empty_line = false;
    }
    if (!empty_line) out += current + "\n";
    return out;
}

}  // namespace gpuchrono::report
