// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `gpuchrono history page`: a trend per series with its CI band and its change points, in one HTML file.
#include "history/change_detection.hpp"
#include "history/check.hpp"
#include "history/history_page.hpp"
#include "report/render/html_page.hpp"
#include "report/render/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace gpuchrono::history {
namespace {

namespace svg = report::svg;
namespace html = report::html;

constexpr double width = 720, height = 240, left = 70, right = 12, top = 12, bottom = 36;

// A tick's label with as many decimals as the ticks' step needs (20,420 and 20,440 read apart; 1e5 would not).
std::string tick_label(double v, double step) {
    const int decimals = step > 0 ? std::clamp(static_cast<int>(-std::floor(std::log10(step))), 0, 9) : 0;
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

std::string trend_svg(const StoredSeries& s, const std::vector<StoredPoint>& points, const std::vector<ChangePoint>& changes) {
    double low = INFINITY, high = -INFINITY;
    for (const auto& p : points) {
        low = std::min({low, p.median, p.ci_low.value_or(p.median)});
        high = std::max({high, p.median, p.ci_high.value_or(p.median)});
    }
    if (!(low < high)) {
        low -= std::max(1.0, std::abs(low) * 0.01);
        high += std::max(1.0, std::abs(high) * 0.01);
    }
    const auto ticks = svg::linear_ticks(low, high, 5);
    low = ticks.front();
    high = ticks.back();
    const double plot_w = width - left - right, plot_h = height - top - bottom;
    const std::size_t n = points.size();
    const auto x = [&](std::size_t i) { return left + (n > 1 ? plot_w * static_cast<double>(i) / static_cast<double>(n - 1) : plot_w / 2); };
    const auto y = [&](double v) { return top + plot_h * (1 - (v - low) / (high - low)); };
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg::coord(width) + "\" height=\"" +
                      svg::coord(height) + "\" viewBox=\"0 0 " + svg::coord(width) + " " + svg::coord(height) +
                      "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    for (double t : ticks) {
        out += "<line x1=\"" + svg::coord(left) + "\" x2=\"" + svg::coord(width - right) + "\" y1=\"" + svg::coord(y(t)) +
               "\" y2=\"" + svg::coord(y(t)) + "\" stroke=\"#ddd\"/>\n";
        out += "<text x=\"" + svg::coord(left - 4) + "\" y=\"" + svg::coord(y(t) + 4) + "\" text-anchor=\"end\">" +
               svg::escape(tick_label(t, ticks.size() > 1 ? ticks[1] - ticks[0] : 0)) + "</text>\n";
    }
    out += "<text x=\"" + svg::coord(left + plot_w / 2) + "\" y=\"" + svg::coord(height - 6) +
           "\" text-anchor=\"middle\">runs, oldest left (" + svg::escape(s.unit) + ")</text>\n";
    // The CI band: upper edge left to right, lower edge back.
    std::string band;
    for (std::size_t i = 0; i < n; ++i)
        band += svg::coord(x(i)) + "," + svg::coord(y(points[i].ci_high.value_or(points[i].median))) + " ";
    for (std::size_t i = n; i-- > 0;)
        band += svg::coord(x(i)) + "," + svg::coord(y(points[i].ci_low.value_or(points[i].median))) + " ";
    out += "<polygon points=\"" + band + "\" fill=\"" + svg::colour(0) + "\" fill-opacity=\"0.2\" stroke=\"none\"/>\n";
    std::string line;
    for (std::size_t i = 0; i < n; ++i) line += svg::coord(x(i)) + "," + svg::coord(y(points[i].median)) + " ";
    out += "<polyline points=\"" + line + "\" fill=\"none\" stroke=\"" + svg::colour(0) + "\" stroke-width=\"1.5\"/>\n";
    for (const auto& c : changes) {
        const std::string colour = c.new_baseline ? "#888" : c.direction == ChangeDirection::slower ? "#d62728" : "#2ca02c";
        const double at = (x(c.last_before) + x(c.first_after)) / 2;
        out += "<line x1=\"" + svg::coord(at) + "\" x2=\"" + svg::coord(at) + "\" y1=\"" + svg::coord(top) + "\" y2=\"" +
               svg::coord(top + plot_h) + "\" stroke=\"" + colour + "\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>\n";
    }
    out += "</svg>\n";
    return out;
}

std::string commit_link(const std::string& hash, const PageOptions& options) {
    const std::string shown = html::escape(hash.size() > 12 ? hash.substr(0, 12) : hash);
    if (options.commit_url.empty()) return "<code>" + shown + "</code>";
    std::string url = options.commit_url;
    for (auto at = url.find("{hash}"); at != std::string::npos; at = url.find("{hash}", at + hash.size()))
        url.replace(at, 6, hash);
    return "<a href=\"" + html::escape(url) + "\"><code>" + shown + "</code></a>";
}

}  // namespace

std::filesystem::path write_history_page(Store& store, const std::filesystem::path& out, const PageOptions& options) {
    const auto commits = store.commits();
    const auto all = store.series();
    std::string page = html::begin_page(
        "Performance history", {{"History", store.location()},
                                {"Commits", std::to_string(commits.size())},
                                {"Series", std::to_string(all.size())},
                                {"Newest commit", commits.empty() ? std::string() : commits.back().hash}});
    if (all.empty()) page += "<p>The history holds no runs yet.</p>\n";
    // Every series' newest runs in one query: one query a series took most of the page's time on a history of
    // thousands of series.
    auto every_series = store.points_of_every_series(options.newest_runs, true);
    for (const auto& s : all) {
        const auto points = std::move(every_series[s.id]);
        std::vector<ChangePoint> changes;
        try {
            changes = detect_changes(detector_points(points));
        } catch (const std::invalid_argument& e) {
            throw HistoryError("series " + series_label(s) + " in the history " + store.location() + ": " + e.what());
        }
        page += "<section>\n<h2>" + html::escape(series_label(s)) + "</h2>\n";
        page += "<p>" + std::to_string(points.size()) + " run(s)" +
                (options.newest_runs != 0 && points.size() == options.newest_runs ? " (the newest)" : "") +
                ", medians with each run's CI; dashed lines mark where the level changed (red slower, green faster, "
                "grey a new machine).</p>\n";
        if (!points.empty())
            page += "<div class=\"scroll\">" +
                    html::picture("", trend_svg(s, points, changes), "the medians of " + series_label(s) + " by run") +
                    "</div>\n";
        if (!changes.empty()) {
            page += "<div class=\"scroll\"><table>\n<tr><th>change</th><th>after</th><th>by</th><th>evidence</th></tr>\n";
            for (const auto& c : changes) {
                char change[96];
                if (c.new_baseline) std::snprintf(change, sizeof change, "new machine");
                else
                    std::snprintf(change, sizeof change, "%+.2f%% (%+.2f%% .. %+.2f%%)", 100 * c.relative_change,
                                  100 * c.change_ci_low, 100 * c.change_ci_high);
                page += "<tr><td>" + html::escape(change) + "</td><td>" +
                        commit_link(points.at(c.last_before).commit, options) + "</td><td>" +
                        commit_link(points.at(c.first_after).commit, options) + "</td><td>" + html::escape(c.evidence) +
                        "</td></tr>\n";
            }
            page += "</table></div>\n";
        }
        page += "</section>\n";
    }
    page += html::end_page();
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) throw HistoryError("cannot create the folder " + out.string() + ": " + ec.message());
    const auto file = out / "index.html";
    std::ofstream o(file, std::ios::binary);
    o << page;
    o.close();
    if (!o) throw HistoryError("cannot write " + file.string());
    return file;
}

}  // namespace gpuchrono::history
