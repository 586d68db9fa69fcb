// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A plain-text table with aligned columns, for terminals and report.txt. Widths count UTF-8 code points,
// so a "µ" or an "×" does not push a column out of line.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpuchrono::report {

class TextTable {
public:
    enum class Align { left, right };

    // Adds a column; numbers read best right-aligned, names left-aligned.
    TextTable& column(std::string header, Align align = Align::right);

    // Adds a row; throws std::invalid_argument if it has a different number of cells than there are columns.
    TextTable& row(std::vector<std::string> cells);

    std::size_t rows() const noexcept { return rows_.size(); }

    // Every line starts with `indent`; a dashed rule separates the header from the rows. Trailing spaces
    // are trimmed.
    std::string render(const std::string& indent = "") const;

private:
    struct Column {
        std::string header;
        Align align;
    };
    std::vector<Column> columns_;
    std::vector<std::vector<std::string>> rows_;
};

// The display width of a UTF-8 string (code points; every one counts as one column).
std::size_t display_width(const std::string& s) noexcept;

// Wraps `text` at `width` columns, each line starting with `indent` (words longer than a line stay whole).
std::string wrap(const std::string& text, std::size_t width, const std::string& indent = "");

}  // namespace gpuchrono::report
