// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/lateness_svg.hpp"

#include "report/render/svg.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpuchrono::distributed {

std::string render_lateness_svg(const ScopeStragglers& s) {
    const int cell_w = std::max(2, std::min(24, 1200 / std::max<int>(1, static_cast<int>(s.steps.size()))));
    const int cell_h = std::max(2, std::min(20, 800 / std::max<int>(1, static_cast<int>(s.ranks.size()))));
    const int left = 70, top = 40;
    std::int64_t worst = 1;
    for (const StepLateness& st : s.steps)
        for (const std::int64_t l : st.lateness_ns) worst = std::max(worst, l);
    char ms[64];
    std::snprintf(ms, sizeof ms, "%.3f", static_cast<double>(worst) / 1e6);
    // The title is built as a string, not into a fixed buffer: a long scope name must not cut the SVG short. The
    // picture is wide enough for it (about 7 px a character at 13 px), up to the width of a page.
    const std::string title = "lateness at the end of \"" + s.name + "\" (rank x step; darkest = " + ms + " ms)";
    const int width = std::max(left + cell_w * static_cast<int>(s.steps.size()) + 20,
                               std::min(1290, left + static_cast<int>(7.2 * static_cast<double>(title.size())) + 10));
    const int height = top + cell_h * static_cast<int>(s.ranks.size()) + 40;
    char buf[512];
    std::string out;
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, height);
    out += buf;
    out += "<text x=\"" + std::to_string(left) + "\" y=\"18\" font-size=\"13\">" + report::svg::escape(title) + "</text>\n";
    for (std::size_t i = 0; i < s.ranks.size(); ++i) {
        const int y = top + cell_h * static_cast<int>(i);
        if (cell_h >= 8) {
            std::snprintf(buf, sizeof buf, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">rank %d</text>\n", left - 4, y + cell_h - 2, s.ranks[i]);
            out += buf;
        }
        for (std::size_t k = 0; k < s.steps.size(); ++k) {
            const double t = static_cast<double>(s.steps[k].lateness_ns[i]) / static_cast<double>(worst);
            // white (on time) to dark red (the map's largest lateness)
            const int g = static_cast<int>(255 * (1 - std::clamp(t, 0.0, 1.0)));
            const int r = static_cast<int>(255 - 115 * std::clamp(t, 0.0, 1.0));
            std::snprintf(buf, sizeof buf,
                          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,%d)\"><title>rank %d step %zu: %.3f ms late</title></rect>\n",
                          left + cell_w * static_cast<int>(k), y, cell_w, cell_h, r, g, g, s.ranks[i], k,
                          static_cast<double>(s.steps[k].lateness_ns[i]) / 1e6);
            out += buf;
        }
    }
    std::snprintf(buf, sizeof buf, "<text x=\"%d\" y=\"%d\">step 0 .. %zu</text>\n", left, height - 12, s.steps.empty() ? 0 : s.steps.size() - 1);
    out += buf;
    out += "</svg>\n";
    return out;
}

}  // namespace gpuchrono::distributed
