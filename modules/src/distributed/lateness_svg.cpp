#include <gpuchrono/distributed/lateness_svg.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

namespace gpuchrono::distributed {

namespace {

std::string escape(const std::string& s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace

std::string render_lateness_svg(const ScopeStragglers& s) {
    const int cell_w = std::max(2, std::min(24, 1200 / std::max<int>(1, static_cast<int>(s.steps.size()))));
    const int cell_h = std::max(2, std::min(20, 800 / std::max<int>(1, static_cast<int>(s.ranks.size()))));
    const int left = 70, top = 40;
    const int width = left + cell_w * static_cast<int>(s.steps.size()) + 20;
    const int height = top + cell_h * static_cast<int>(s.ranks.size()) + 40;
    std::int64_t worst = 1;
    for (const StepLateness& st : s.steps)
        for (const std::int64_t l : st.lateness_ns) worst = std::max(worst, l);
    char buf[512];
    std::string out;
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, height);
    out += buf;
    std::snprintf(buf, sizeof buf, "<text x=\"%d\" y=\"18\" font-size=\"13\">lateness at the end of \"%s\" (rank x step; darkest = %.3f ms)</text>\n",
                  left, escape(s.name).c_str(), static_cast<double>(worst) / 1e6);
    out += buf;
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
