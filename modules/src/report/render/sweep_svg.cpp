// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/sweep_svg.hpp"

#include "report/render/svg.hpp"
#include <gpuchrono/report/render/units.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpuchrono::report {

namespace {

// A legend label as <text> with one <tspan> per line of at most `chars` characters (words stay whole).
std::string legend_text(double x, double y, const std::string& label, std::size_t chars, int& lines) {
    std::vector<std::string> rows(1);
    std::size_t start = 0;
    while (start < label.size()) {
        std::size_t end = label.find(' ', start);
        if (end == std::string::npos) end = label.size();
        const std::string word = label.substr(start, end - start);
        if (!rows.back().empty() && rows.back().size() + 1 + word.size() > chars) rows.emplace_back();
        rows.back() += (rows.back().empty() ? "" : " ") + word;
        start = end + 1;
    }
    lines = static_cast<int>(rows.size());
    std::string out = "<text x=\"" + svg::coord(x) + "\" y=\"" + svg::coord(y) + "\" font-size=\"12\">";
    for (std::size_t i = 0; i < rows.size(); ++i)
        out += "<tspan x=\"" + svg::coord(x) + "\"" + (i ? " dy=\"14\"" : "") + ">" + svg::escape(rows[i]) + "</tspan>";
    return out + "</text>\n";
}

}  // namespace

std::string render_sweep_svg(const Sweep& s, const SweepSvgOptions& options) {
    using svg::coord;
    using svg::escape;
    const double width = std::max(options.width, 480), height = std::max(options.height, 320);
    const double left = 84, right = 230, top = 76, bottom = 66;
    const double plot_w = width - left - right, plot_h = height - top - bottom;
    const bool log_x = s.x_scale == "log";
    const bool time = s.y_unit == "ns";

    std::string title = s.title.empty() ? (s.name.empty() ? std::string("sweep") : s.name) : s.title;
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coord(width) + "\" height=\"" + coord(height) +
           "\" viewBox=\"0 0 " + coord(width) + " " + coord(height) + "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
    out += "<title>" + escape(title) + "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    out += "<text x=\"" + coord(left) + "\" y=\"28\" font-size=\"17\" font-weight=\"bold\">" + escape(title) + "</text>\n";

    // The extent of everything that will be drawn.
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    bool integral_x = true;
    std::size_t left_out = 0;
    for (const auto& c : s.curves)
        for (const auto& p : c.points) {
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || (log_x && p.x <= 0)) {
                ++left_out;
                continue;
            }
            xmin = std::min(xmin, p.x);
            xmax = std::max(xmax, p.x);
            integral_x = integral_x && p.x == std::floor(p.x);
            for (const double v : {p.y, p.low, p.high})
                if (std::isfinite(v)) {
                    ymin = std::min(ymin, v);
                    ymax = std::max(ymax, v);
                }
        }
    for (const auto& m : s.markers)
        if (std::isfinite(m.x) && (!log_x || m.x > 0) && xmax >= xmin) {
            xmin = std::min(xmin, m.x);
            xmax = std::max(xmax, m.x);
        }

    std::string subtitle;
    if (!options.device_name.empty()) subtitle = options.device_name;
    if (left_out) subtitle += (subtitle.empty() ? "" : " - ") + std::to_string(left_out) + " points not drawn (no value, or x <= 0 on a log axis)";
    if (!subtitle.empty())
        out += "<text x=\"" + coord(left) + "\" y=\"48\" font-size=\"12\" fill=\"#444\">" + escape(subtitle) + "</text>\n";

    if (!(xmax >= xmin) || !(ymax >= ymin)) {
        out += "<text x=\"" + coord(left) + "\" y=\"" + coord(top + 30) + "\" font-size=\"14\">no points to plot</text>\n</svg>\n";
        return out;
    }

    // Axes. y starts at 0 for non-negative data: a plot of times that does not start at 0 exaggerates.
    const double ymax_values[] = {ymax};
    const TimeUnit unit = time ? time_unit_for(ymax_values) : TimeUnit{"", 1.0};
    const double ylow = ymin >= 0 ? 0.0 : ymin / unit.ns_per_unit;
    double yhigh = ymax / unit.ns_per_unit;
    if (!(yhigh > ylow)) yhigh = ylow + 1.0;
    const std::vector<double> yticks = svg::linear_ticks(ylow, yhigh, 6);
    const double y0 = yticks.front(), y1 = yticks.back();

    std::vector<double> xticks;
    double x0, x1;
    if (log_x) {
        // The axis spans the data with a little room, not the next power of ten: ticks inside it only.
        if (!(xmax > xmin)) xmax = xmin * 2;
        const double pad = std::pow(xmax / xmin, 0.03);
        x0 = xmin / pad;
        x1 = xmax * pad;
        for (const double t : svg::log_ticks(x0, x1, integral_x && xmax <= 1e6))
            if (t >= x0 && t <= x1) xticks.push_back(t);
    } else {
        if (!(xmax > xmin)) xmax = xmin + 1;
        xticks = svg::linear_ticks(xmin >= 0 ? 0.0 : xmin, xmax, 8);
        x0 = xticks.front();
        x1 = xticks.back();
    }
    auto px = [&](double x) {
        const double f = log_x ? std::log(x / x0) / std::log(x1 / x0) : (x - x0) / (x1 - x0);
        return left + f * plot_w;
    };
    auto py = [&](double y_in_unit) { return top + plot_h - (y_in_unit - y0) / (y1 - y0) * plot_h; };

    std::string grid;
    for (const double t : yticks) {
        const double y = py(t);
        grid += "<line x1=\"" + coord(left) + "\" y1=\"" + coord(y) + "\" x2=\"" + coord(left + plot_w) + "\" y2=\"" + coord(y) +
                "\" stroke=\"#e2e2e2\"/>\n";
        grid += "<text x=\"" + coord(left - 7) + "\" y=\"" + coord(y + 4) + "\" font-size=\"11\" text-anchor=\"end\">" +
                format_number(t, 4) + "</text>\n";
    }
    double last_label_x = -1e9;
    for (const double t : xticks) {
        const double x = px(t);
        grid += "<line x1=\"" + coord(x) + "\" y1=\"" + coord(top) + "\" x2=\"" + coord(x) + "\" y2=\"" + coord(top + plot_h) +
                "\" stroke=\"#eeeeee\"/>\n";
        if (x - last_label_x >= 34) {
            grid += "<text x=\"" + coord(x) + "\" y=\"" + coord(top + plot_h + 17) + "\" font-size=\"11\" text-anchor=\"middle\">" +
                    format_number(t, 6) + "</text>\n";
            last_label_x = x;
        }
    }
    grid += "<rect x=\"" + coord(left) + "\" y=\"" + coord(top) + "\" width=\"" + coord(plot_w) + "\" height=\"" + coord(plot_h) +
            "\" fill=\"none\" stroke=\"#333\"/>\n";
    const std::string x_label = (s.x_label.empty() ? std::string("x") : s.x_label) + (log_x ? " (log scale)" : "");
    grid += "<text x=\"" + coord(left + plot_w / 2) + "\" y=\"" + coord(height - 22) + "\" font-size=\"12\" text-anchor=\"middle\">" +
            escape(x_label) + "</text>\n";
    std::string y_label = s.y_label.empty() ? std::string(time ? "time" : "y") : s.y_label;
    if (time)
        y_label += std::string(" [") + unit.name + "]";
    else if (!s.y_unit.empty())
        y_label += " [" + s.y_unit + "]";
    grid += "<text transform=\"translate(20," + coord(top + plot_h / 2) + ") rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">" +
            escape(y_label) + "</text>\n";

    // Markers: dashed lines, labels staggered so neighbours do not overwrite each other.
    std::string markers;
    for (std::size_t i = 0; i < s.markers.size(); ++i) {
        const SweepMarker& m = s.markers[i];
        if (!std::isfinite(m.x) || (log_x && m.x <= 0)) continue;
        const double x = px(m.x);
        markers += "<line class=\"marker\" x1=\"" + coord(x) + "\" y1=\"" + coord(top) + "\" x2=\"" + coord(x) + "\" y2=\"" +
                   coord(top + plot_h) + "\" stroke=\"#555\" stroke-dasharray=\"5,4\"/>\n";
        // Labels grow rightwards unless they would leave the plot (about 6.2 px per character at 11 px).
        const bool flip = x + 4 + 6.2 * static_cast<double>(m.label.size()) > left + plot_w;
        // A white halo keeps the label readable where it crosses a grid line, a curve or another marker.
        markers += "<text x=\"" + coord(flip ? x - 4 : x + 4) + "\" y=\"" + coord(top + 14 + 15 * static_cast<double>(i % 4)) +
                   "\" font-size=\"11\" fill=\"#222\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\"" +
                   (flip ? " text-anchor=\"end\"" : "") + ">" + escape(m.label) + "</text>\n";
    }

    // Curves, bands first so lines stay on top.
    std::string bands, lines, legend;
    // About 6.6 px per character at 12 px, in the space right of the plot.
    const auto legend_chars = static_cast<std::size_t>(std::max(8.0, (right - 18 - 30 - 6) / 6.6));
    double ly = top + 8;
    bool any_band = false;
    for (std::size_t ci = 0; ci < s.curves.size(); ++ci) {
        const SweepCurve& c = s.curves[ci];
        const std::string& col = svg::colour(ci);
        std::vector<SweepPoint> pts;
        for (const auto& p : c.points)
            if (std::isfinite(p.x) && std::isfinite(p.y) && (!log_x || p.x > 0)) pts.push_back(p);
        std::sort(pts.begin(), pts.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.x < b.x; });
        std::string upper, lower;
        std::size_t banded = 0;
        for (const auto& p : pts)
            if (std::isfinite(p.low) && std::isfinite(p.high)) {
                upper += coord(px(p.x)) + "," + coord(py(p.high / unit.ns_per_unit)) + " ";
                lower = coord(px(p.x)) + "," + coord(py(p.low / unit.ns_per_unit)) + " " + lower;
                ++banded;
            }
        if (banded >= 2) {
            any_band = true;
            bands += "<polygon class=\"band\" points=\"" + upper + lower + "\" fill=\"" + col + "\" fill-opacity=\"0.16\" stroke=\"none\"/>\n";
        }
        std::string poly;
        for (const auto& p : pts) poly += coord(px(p.x)) + "," + coord(py(p.y / unit.ns_per_unit)) + " ";
        if (pts.size() >= 2)
            lines += "<polyline class=\"curve\" points=\"" + poly + "\" fill=\"none\" stroke=\"" + col + "\" stroke-width=\"2\"/>\n";
        for (const auto& p : pts) {
            auto value = [&](double v) {
                return time ? to_string(Duration::from_ns(v)) : format_number(v, 4) + (s.y_unit.empty() ? "" : " " + s.y_unit);
            };
            std::string tip = c.name + " at " + format_number(p.x, 6) + ": " + value(p.y);
            if (std::isfinite(p.low) && std::isfinite(p.high)) tip += " (" + value(p.low) + " .. " + value(p.high) + ")";
            lines += "<circle class=\"point\" cx=\"" + coord(px(p.x)) + "\" cy=\"" + coord(py(p.y / unit.ns_per_unit)) +
                     "\" r=\"3.5\" fill=\"" + col + "\"><title>" + escape(tip) + "</title></circle>\n";
        }
        const double lx = left + plot_w + 18;
        legend += "<line x1=\"" + coord(lx) + "\" y1=\"" + coord(ly) + "\" x2=\"" + coord(lx + 22) + "\" y2=\"" + coord(ly) +
                  "\" stroke=\"" + col + "\" stroke-width=\"2.5\"/>\n";
        legend += "<circle cx=\"" + coord(lx + 11) + "\" cy=\"" + coord(ly) + "\" r=\"3.5\" fill=\"" + col + "\"/>\n";
        int lines = 1;
        legend += legend_text(lx + 30, ly + 4, c.name, legend_chars, lines);
        ly += 8 + 14 * lines;
    }
    if (any_band) {
        const double lx = left + plot_w + 18;
        legend += "<rect x=\"" + coord(lx) + "\" y=\"" + coord(ly - 7) + "\" width=\"22\" height=\"14\" fill=\"#888\" fill-opacity=\"0.25\"/>\n";
        int lines = 1;
        legend += legend_text(lx + 30, ly + 4, "shaded: " + s.band_label, legend_chars, lines);
    }

    out += "<g class=\"grid\">\n" + grid + "</g>\n<g class=\"bands\">\n" + bands + "</g>\n<g class=\"markers\">\n" + markers +
           "</g>\n<g class=\"curves\">\n" + lines + "</g>\n<g class=\"legend\">\n" + legend + "</g>\n</svg>\n";
    return out;
}

}  // namespace gpuchrono::report
