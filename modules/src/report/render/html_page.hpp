// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The parts every HTML page of the library shares (the report's index.html, gpuchrono-compare --html,
// gpuchrono-report merge --html): one stylesheet, a header naming what produced the page, tables whose number
// cells carry the exact value they show, pictures either as files beside the page or inlined.
//
// The pages need nothing from the network (no fonts, scripts or styles from elsewhere), read at phone width
// (wide tables scroll inside their own box) and escape every string a user supplied.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuchrono::report::html {

// Escapes &, <, >, " and ' for element text and attribute values (svg::escape: ill-formed UTF-8 repaired).
std::string escape(std::string_view text);

// "<!DOCTYPE html>..." up to the opening of <main>: the title, then the facts under it as a definition list
// ({"Device", "NVIDIA H100"}, {"Command", "..."}); a fact with an empty value is left out.
std::string begin_page(const std::string& title, const std::vector<std::pair<std::string, std::string>>& facts);
std::string end_page();

// The shortest text that reads back as `value` ("" for NaN, "inf"/"-inf"): what a cell's data-value holds,
// so a script can check the page against report.json without parsing rounded figures.
std::string exact(double value);

// A table cell showing `shown` for the number `value`: <td class="num" data-key="KEY" data-value="EXACT">.
std::string number_cell(const std::string& key, double value, const std::string& shown);

// An <img> of an SVG picture with its alt text: src is `file` (beside the page) or, when `svg` is not empty,
// the picture itself as a data: URI (its tooltips left out: an <img> shows none), so a page with every
// picture inlined is one file to send.
std::string picture(const std::string& file, const std::string& svg, const std::string& alt);

// A <details> holding text in a <pre>: the terminal rendering, folded.
std::string folded_text(const std::string& summary, const std::string& text);

}  // namespace gpuchrono::report::html
