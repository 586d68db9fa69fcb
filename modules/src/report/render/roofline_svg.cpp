// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/roofline_svg.hpp"

#include "report/render/svg.hpp"
#include <gpuchrono/report/render/units.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuchrono::report {

namespace {

bool positive(double v) { return std::isfinite(v) && v > 0; }

// 3.35e12 -> "3.35 T": axis labels over many decades.
std::string si(double v) {
    const char* prefixes[] = {"", "K", "M", "G", "T", "P"};
    int i = 0;
    while (std::fabs(v) >= 1000 && i < 5) {
        v /= 1000;
        ++i;
    }
    return format_number(v, 3) + (i ? std::string(" ") + prefixes[i] : std::string());
}

// Axis labels of a log axis: "0.001", "100", "1e+06" (printf's %g: six digits absorb the rounding of the ticks).
std::string tick_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

bool can_draw_roofline(const metrics::MetricsResult& r) noexcept {
    bool point = false;
    for (const metrics::RooflinePoint& p : r.roofline) point = point || (positive(p.intensity) && positive(p.achieved_flops_per_second));
    return point && r.peaks && positive(r.peaks->dram_bytes_per_second) &&
           (positive(r.peaks->fp32_flops_per_second) || positive(r.peaks->fp64_flops_per_second));
}

std::string render_roofline_svg(const metrics::MetricsResult& r, const RooflineSvgOptions& options) {
    using svg::coord;
    using svg::escape;
    if (!can_draw_roofline(r))
        throw std::invalid_argument(r.roofline.empty() ? "render_roofline_svg: the result has no roofline point"
                                    : !r.peaks          ? "render_roofline_svg: the result carries no device peaks"
                                                        : "render_roofline_svg: the device's DRAM peak or both FLOP peaks are not known (" +
                                                              r.peaks->source + ")");
    const metrics::DevicePeaks& peaks = *r.peaks;
    const double bw = peaks.dram_bytes_per_second;
    struct Roof {
        const char* name;
        double flops;
        const char* dash;
    };
    std::vector<Roof> roofs;
    if (positive(peaks.fp32_flops_per_second)) roofs.push_back({"FP32", peaks.fp32_flops_per_second, ""});
    if (positive(peaks.fp64_flops_per_second)) roofs.push_back({"FP64", peaks.fp64_flops_per_second, " stroke-dasharray=\"7 4\""});

    // Extent: every point and every ridge, a decade of room on each side.
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    std::size_t drawn = 0;
    for (const metrics::RooflinePoint& p : r.roofline) {
        if (!positive(p.intensity) || !positive(p.achieved_flops_per_second)) continue;
        ++drawn;
        xmin = std::min(xmin, p.intensity);
        xmax = std::max(xmax, p.intensity);
        ymin = std::min(ymin, p.achieved_flops_per_second);
    }
    for (const Roof& roof : roofs) {
        xmin = std::min(xmin, roof.flops / bw);
        xmax = std::max(xmax, roof.flops / bw);
        ymax = std::max(ymax, roof.flops);
    }
    xmin = std::pow(10.0, std::floor(std::log10(xmin)) - 1);
    xmax = std::pow(10.0, std::ceil(std::log10(xmax)) + 1);
    ymin = std::pow(10.0, std::floor(std::log10(std::min(ymin, xmin * bw))));
    ymax = std::pow(10.0, std::ceil(std::log10(ymax * 1.5)));

    const double width = std::max(options.width, 480), height = std::max(options.height, 320);
    const double left = 90, right = 30, top = 76, bottom = 66;
    const double plot_w = width - left - right, plot_h = height - top - bottom;
    auto x_of = [&](double x) { return left + plot_w * (std::log10(x) - std::log10(xmin)) / (std::log10(xmax) - std::log10(xmin)); };
    auto y_of = [&](double y) { return top + plot_h * (1 - (std::log10(y) - std::log10(ymin)) / (std::log10(ymax) - std::log10(ymin))); };

    const std::string title = options.title.empty() ? std::string("Roofline") : options.title;
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coord(width) + "\" height=\"" + coord(height) +
           "\" viewBox=\"0 0 " + coord(width) + " " + coord(height) + "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
    out += "<title>" + escape(title) + "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    out += "<text x=\"" + coord(left) + "\" y=\"28\" font-size=\"17\" font-weight=\"bold\">" + escape(title) + "</text>\n";
    std::string subtitle = (peaks.device_name.empty() ? std::string("device ") + std::to_string(peaks.device) : peaks.device_name) +
                           ": DRAM " + si(bw) + "B/s";
    for (const Roof& roof : roofs) subtitle += ", " + std::string(roof.name) + " " + si(roof.flops) + "FLOP/s";
    if (positive(peaks.sm_clock_mhz)) subtitle += " at " + format_number(peaks.sm_clock_mhz, 4) + " MHz";
    out += "<text x=\"" + coord(left) + "\" y=\"50\" font-size=\"12\" fill=\"#555\">" + escape(subtitle) + "</text>\n";

    // Grid and axes.
    for (double t : svg::log_ticks(xmin, xmax, false)) {
        if (t < xmin || t > xmax) continue;
        out += "<line x1=\"" + coord(x_of(t)) + "\" y1=\"" + coord(top) + "\" x2=\"" + coord(x_of(t)) + "\" y2=\"" +
               coord(top + plot_h) + "\" stroke=\"#eee\"/>\n<text x=\"" + coord(x_of(t)) + "\" y=\"" + coord(top + plot_h + 18) +
               "\" font-size=\"11\" text-anchor=\"middle\">" + escape(tick_text(t)) + "</text>\n";
    }
    for (double t : svg::log_ticks(ymin, ymax, false)) {
        if (t < ymin || t > ymax) continue;
        out += "<line x1=\"" + coord(left) + "\" y1=\"" + coord(y_of(t)) + "\" x2=\"" + coord(left + plot_w) + "\" y2=\"" +
               coord(y_of(t)) + "\" stroke=\"#eee\"/>\n<text x=\"" + coord(left - 6) + "\" y=\"" + coord(y_of(t) + 4) +
               "\" font-size=\"11\" text-anchor=\"end\">" + escape(si(t)) + "</text>\n";
    }
    out += "<rect x=\"" + coord(left) + "\" y=\"" + coord(top) + "\" width=\"" + coord(plot_w) + "\" height=\"" + coord(plot_h) +
           "\" fill=\"none\" stroke=\"#333\"/>\n";
    out += "<text x=\"" + coord(left + plot_w / 2) + "\" y=\"" + coord(height - 18) +
           "\" font-size=\"13\" text-anchor=\"middle\">arithmetic intensity (FLOP per DRAM byte, log)</text>\n";
    out += "<text transform=\"translate(22 " + coord(top + plot_h / 2) +
           ") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">FLOP/s (log)</text>\n";

    // Roofs: the DRAM slope up to each ridge, then flat.
    for (const Roof& roof : roofs) {
        const double ridge = roof.flops / bw;
        const double x0 = std::max(xmin, ymin / bw);
        out += "<polyline fill=\"none\" stroke=\"#222\" stroke-width=\"2\"" + std::string(roof.dash) + " points=\"" +
               coord(x_of(x0)) + "," + coord(y_of(x0 * bw)) + " " + coord(x_of(ridge)) + "," + coord(y_of(roof.flops)) + " " +
               coord(x_of(xmax)) + "," + coord(y_of(roof.flops)) + "\"><title>" +
               escape(std::string(roof.name) + " roof " + si(roof.flops) + "FLOP/s, ridge at " + format_number(ridge, 3) +
                      " FLOP/byte") +
               "</title></polyline>\n";
        // Beside the ridge, above the highest roof and below the lower ones, clear of points far to the right.
        const bool highest = roof.flops >= std::max(roofs.front().flops, roofs.back().flops);
        out += "<text x=\"" + coord(x_of(ridge) + 6) + "\" y=\"" + coord(y_of(roof.flops) + (highest ? -6 : 14)) +
               "\" font-size=\"11\">" + escape(std::string(roof.name) + " peak " + si(roof.flops) + "FLOP/s") +
               "</text>\n";
    }
    const double label_x = std::max(xmin, ymin / bw) * 3;
    out += "<text x=\"" + coord(x_of(label_x)) + "\" y=\"" + coord(y_of(label_x * bw) - 8) +
           "\" font-size=\"11\">" + escape("DRAM " + si(bw) + "B/s") + "</text>\n";

    // Points, one colour per kernel name.
    std::vector<std::string> names;
    for (const metrics::RooflinePoint& p : r.roofline) {
        if (!positive(p.intensity) || !positive(p.achieved_flops_per_second)) continue;
        const auto it = std::find(names.begin(), names.end(), p.kernel);
        const std::size_t index = static_cast<std::size_t>(it - names.begin());
        if (it == names.end()) names.push_back(p.kernel);
        const std::string label = p.kernel + (p.launch ? " #" + std::to_string(p.launch) : std::string());
        const double px = x_of(p.intensity), py = y_of(p.achieved_flops_per_second);
        out += "<circle cx=\"" + coord(px) + "\" cy=\"" + coord(py) + "\" r=\"5\" fill=\"" + svg::colour(index) +
               "\"><title>" +
               escape(label + ": " + format_number(p.intensity, 3) + " FLOP/byte, " + si(p.achieved_flops_per_second) +
                      "FLOP/s (" + p.precision + (p.bound.empty() ? std::string() : ", " + p.bound + "-bound") + ")") +
               "</title></circle>\n";
        out += "<text x=\"" + coord(px + 8) + "\" y=\"" + coord(py - 6) + "\" font-size=\"12\" fill=\"" + svg::colour(index) +
               "\">" + escape(label) + "</text>\n";
    }
    if (drawn < r.roofline.size())
        out += "<text x=\"" + coord(left) + "\" y=\"" + coord(height - 4) + "\" font-size=\"11\" fill=\"#a00\">" +
               escape(std::to_string(r.roofline.size() - drawn) + " point(s) without a positive intensity or rate not drawn") +
               "</text>\n";
    return out + "</svg>\n";
}

}  // namespace gpuchrono::report
