// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/html_page.hpp"

#include "report/render/svg.hpp"

#include <charconv>
#include <cmath>

namespace gpuchrono::report::html {

namespace {

// One stylesheet for every page, inside the page: nothing is fetched. Severity and verdict colours always come
// with a word ("warning", "slower"), so the page reads the same in grey print and for colour-blind readers.
constexpr std::string_view style = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;padding:1em;max-width:1250px;
 color:#222;line-height:1.45;overflow-wrap:anywhere}
header{border-bottom:2px solid #ddd;margin-bottom:1em}
h1{font-size:1.6em;margin:.3em 0}h2{font-size:1.3em;margin-top:1.6em;border-bottom:1px solid #eee}h3{font-size:1.05em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.5em 0 1em}
dl.facts dt{font-weight:600;color:#555}dl.facts dd{margin:0}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:.9em}
nav.toc{background:#f7f7f9;border:1px solid #e3e3e8;padding:.4em 1em;border-radius:4px}
nav.toc ol{margin:.3em 0;padding-left:1.4em}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.5em 0;font-size:.92em}
table{overflow-wrap:normal}
th,td{border:1px solid #ddd;padding:.25em .55em;text-align:left;vertical-align:top}
td.why{min-width:18em}
th{background:#f3f3f6;white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
caption{text-align:left;font-weight:600;padding:.3em 0;position:sticky;left:0;max-width:calc(100vw - 2em)}
.badge{display:inline-block;min-width:4.5em;text-align:center;border-radius:3px;padding:0 .4em;font-size:.85em;
 font-weight:600;border:1px solid}
.sev-error .badge,.verdict-slower{background:#fde8e8;color:#9b1c1c;border-color:#f0b4b4}
.sev-warning .badge{background:#fff4d6;color:#7a5300;border-color:#eed28a}
.sev-info .badge{background:#e8f0fe;color:#1a4d8f;border-color:#b6cdf3}
.verdict-faster{background:#e6f6ea;color:#1d6b34}
.verdict-unchanged,.verdict-not-compared{color:#555}
td.verdict{font-weight:600}
ul.findings{list-style:none;padding:0}ul.findings li{margin:.3em 0}
details{margin:.3em 0}details>summary{cursor:pointer}
details.finding>div{margin:.3em 0 .6em 1.2em;padding:.3em .8em;border-left:3px solid #ddd}
figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #ddd;background:#fff}
figcaption{font-size:.9em;color:#555}
pre{background:#f6f6f6;padding:1em;overflow-x:auto;font-size:12px;line-height:1.3}
.muted{color:#666}
@media (max-width:600px){body{padding:.5em}h1{font-size:1.3em}dl.facts{font-size:.85em;gap:.1em .6em}}
)";

}  // namespace

std::string escape(std::string_view text) { return svg::escape(text); }

std::string begin_page(const std::string& title, const std::vector<std::pair<std::string, std::string>>& facts) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
                      escape(title) + "</title>\n<style>" + std::string(style) + "</style>\n</head><body>\n<header>\n<h1>" +
                      escape(title) + "</h1>\n<dl class=\"facts\">\n";
    for (const auto& [name, value] : facts)
        if (!value.empty()) out += "<dt>" + escape(name) + "</dt><dd>" + escape(value) + "</dd>\n";
    return out + "</dl>\n</header>\n<main>\n";
}

// A link to a finding folded further down (#finding-3) unfolds it: its explanation is then one click away.
std::string end_page() {
    return "</main>\n<script>\nfunction gpuchronoUnfold(){var e=location.hash&&document.getElementById(location.hash.slice(1));"
           "if(e&&e.tagName==='DETAILS')e.open=true;}\naddEventListener('hashchange',gpuchronoUnfold);gpuchronoUnfold();\n"
           "</script>\n</body></html>\n";
}

std::string exact(double value) {
    if (std::isnan(value)) return "";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

std::string number_cell(const std::string& key, double value, const std::string& shown) {
    return "<td class=\"num\" data-key=\"" + escape(key) + "\" data-value=\"" + exact(value) + "\">" + escape(shown) + "</td>";
}

std::string picture(const std::string& file, const std::string& svg, const std::string& alt) {
    std::string src;
    if (svg.empty()) {
        src = escape(file);
    } else {
        // A data: URI of the SVG text itself rather than base64 (a third smaller). The URL parser drops tabs and
        // newlines and ends the data at '#', so those and '%' are percent-encoded, and so are '"' and '&', the
        // only characters a double-quoted HTML attribute cannot hold as they are. The renderers wrote the SVG as
        // valid UTF-8, so one pass over its bytes does. Tooltips (<title>, one per bar of a timeline: half
        // its bytes) are left out: an <img> never shows them, and the SVG file beside the page keeps them.
        src = "data:image/svg+xml;charset=utf-8,";
        src.reserve(src.size() + svg.size() + svg.size() / 8);
        constexpr std::string_view open = "<title>", close = "</title>";
        const std::string_view text = svg;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '<' && text.compare(i, open.size(), open) == 0) {
                const std::size_t end = text.find(close, i);
                if (end != std::string_view::npos) {
                    i = end + close.size() - 1;
                    continue;
                }
            }
            switch (const char c = text[i]) {
                case '%': src += "%25"; break;
                case '#': src += "%23"; break;
                case '\n':  // between two elements a newline is nothing; in text it reads as a space
                    if (i == 0 || text[i - 1] != '>') src += "%0A";
                    break;
                case '\r': src += "%0D"; break;
                case '\t': src += "%09"; break;
                case '"': src += "%22"; break;
                case '&': src += "%26"; break;
                default: src += c;
            }
        }
    }
    return "<img src=\"" + src + "\" alt=\"" + escape(alt) + "\">";
}

std::string folded_text(const std::string& summary, const std::string& text) {
    return "<details class=\"text\"><summary>" + escape(summary) + "</summary>\n<pre>" + escape(text) + "</pre>\n</details>\n";
}

}  // namespace gpuchrono::report::html
