// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/timeline_svg.hpp"

#include "report/render/svg.hpp"
#include "report/render/timeline_summary.hpp"
#include <gpuchrono/report/render/units.hpp>

#include <gpuchrono/stats/views.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gpuchrono::report {

namespace {

struct BlockSpan {
    std::uint32_t sm = 0;
    std::uint64_t start = 0;
    std::uint64_t stop = 0;
    std::size_t lane = 0;
};

std::map<std::uint32_t, BlockSpan> block_spans(const Timeline& t) {
    std::map<std::uint32_t, BlockSpan> spans;
    for (const BlockSample& s : t.samples) {
        const std::uint64_t stop = std::max(s.stop_ns, s.start_ns);
        auto [it, fresh] = spans.try_emplace(s.block, BlockSpan{s.sm_start, s.start_ns, stop, 0});
        if (!fresh) {
            if (s.start_ns < it->second.start) {
                it->second.start = s.start_ns;
                it->second.sm = s.sm_start;  // the SM the block began on
            }
            it->second.stop = std::max(it->second.stop, stop);
        }
    }
    return spans;
}

}  // namespace

namespace {

// Block spans with their lanes, and lanes per SM.
std::map<std::uint32_t, BlockSpan> spans_with_lanes(const Timeline& t,
                                                    std::vector<std::pair<std::uint32_t, std::size_t>>& lanes_per_sm) {
    auto spans = block_spans(t);
    std::map<std::uint32_t, std::vector<BlockSpan*>> by_sm;
    for (auto& [block, span] : spans) by_sm[span.sm].push_back(&span);
    for (auto& [sm, blocks] : by_sm) {
        std::sort(blocks.begin(), blocks.end(), [](const BlockSpan* a, const BlockSpan* b) {
            return a->start != b->start ? a->start < b->start : a->stop < b->stop;
        });
        std::vector<std::uint64_t> lane_free_at;  // when each lane's last block stopped
        for (BlockSpan* b : blocks) {
            std::size_t lane = 0;
            while (lane < lane_free_at.size() && lane_free_at[lane] > b->start) ++lane;
            if (lane == lane_free_at.size()) lane_free_at.push_back(0);
            lane_free_at[lane] = b->stop;
            b->lane = lane;
        }
        lanes_per_sm.emplace_back(sm, lane_free_at.size());
    }
    return spans;
}

}  // namespace

TimelineLanes assign_lanes(const Timeline& t) {
    TimelineLanes out;
    const auto spans = spans_with_lanes(t, out.lanes_per_sm);
    out.lane_of_sample.reserve(t.samples.size());
    for (const BlockSample& s : t.samples) out.lane_of_sample.push_back(spans.at(s.block).lane);
    return out;
}

std::string render_timeline_svg(const Timeline& t, const TimelineSvgOptions& options) {
    using svg::coord;
    using svg::escape;
    const double width = std::max(options.width, 480);
    const double left = 78, right = 28, top = 70;
    const double plot_w = width - left - right;

    std::string body;
    std::string title = t.name.empty() ? "per-block timeline" : t.name;

    if (t.samples.empty()) {
        const double h = 140;
        std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                          coord(width) + "\" height=\"" + coord(h) + "\" viewBox=\"0 0 " + coord(width) + " " + coord(h) +
                          "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
        out += "<text x=\"" + coord(left) + "\" y=\"40\" font-size=\"18\" font-weight=\"bold\">" + escape(title) + "</text>\n";
        out += "<text x=\"" + coord(left) + "\" y=\"80\" font-size=\"14\">no per-block records" +
               (t.dropped ? " (" + std::to_string(t.dropped) + " dropped: the probe's buffer was too small)" : std::string()) +
               "</text>\n</svg>\n";
        return out;
    }

    TimelineLanes lanes;
    const auto spans = spans_with_lanes(t, lanes.lanes_per_sm);
    // Every SM of the device gets a row when its SM count is known, so idle SMs show as empty rows.
    std::map<std::uint32_t, std::size_t> lanes_of_sm(lanes.lanes_per_sm.begin(), lanes.lanes_per_sm.end());
    if (t.sm_count > 0 && t.sm_count <= 4096)
        for (std::uint32_t sm = 0; sm < static_cast<std::uint32_t>(t.sm_count); ++sm) lanes_of_sm.try_emplace(sm, 1);
    std::size_t total_lanes = 0;
    for (const auto& [sm, n] : lanes_of_sm) total_lanes += n;
    // The rows share a fixed height budget. With few lanes each lane gets a readable bar; with many (132 SMs
    // x 8 resident blocks) every SM row gets the same height and its lanes split it, which turns the picture
    // into a per-SM occupancy view instead of a poster several screens tall.
    const double budget = 960.0;
    const bool lanes_fit = static_cast<double>(total_lanes) * 4.0 <= budget;
    const double lane_px = lanes_fit ? std::clamp(budget / static_cast<double>(total_lanes), 4.0, 16.0) : 0.0;
    const double fixed_row_px = lanes_fit ? 0.0 : std::max(3.0, budget / static_cast<double>(lanes_of_sm.size()));
    const double sm_gap = (lanes_fit ? lane_px : fixed_row_px) >= 6 ? 1.5 : 0.5;

    const std::uint64_t t0 = first_start_ns(t);
    std::uint64_t t1 = t0;
    for (const BlockSample& s : t.samples) t1 = std::max({t1, s.stop_ns, s.start_ns});
    const double span_ns = std::max(1.0, static_cast<double>(t1 - t0));
    const double span_values[] = {span_ns};
    const TimeUnit unit = time_unit_for(span_values);
    const std::vector<double> ticks = svg::linear_ticks(0.0, span_ns / unit.ns_per_unit, 8);
    const double axis_ns = ticks.back() * unit.ns_per_unit;
    const int tick_decimals = std::max(0, -static_cast<int>(std::floor(std::log10(ticks[1] - ticks[0]) + 1e-9)));
    auto x_of = [&](double ns_from_t0) { return left + ns_from_t0 / axis_ns * plot_w; };

    // Row geometry per SM: top, height, lane height.
    struct Row {
        double y, height, lane_h;
    };
    std::map<std::uint32_t, Row> row_of_sm;
    double y = top;
    for (const auto& [sm, n] : lanes_of_sm) {
        const double h = lanes_fit ? static_cast<double>(n) * lane_px : fixed_row_px;
        row_of_sm[sm] = {y, h, h / static_cast<double>(n)};
        y += h + sm_gap;
    }
    const double plot_bottom = y;

    // Zebra stripes and SM labels (thinned so they never overlap).
    std::string rows;
    double last_label = -1e9;
    std::size_t index = 0;
    for (const auto& [sm, row] : row_of_sm) {
        const double ry = row.y, h = row.height;
        if (index++ % 2 == 0)
            rows += "<rect x=\"" + coord(left) + "\" y=\"" + coord(ry) + "\" width=\"" + coord(plot_w) + "\" height=\"" +
                    coord(h + sm_gap) + "\" fill=\"#f3f3f3\"/>\n";
        const double cy = ry + h / 2;
        if (cy - last_label >= 11) {
            rows += "<text x=\"" + coord(left - 6) + "\" y=\"" + coord(cy + 3.5) +
                    "\" font-size=\"10\" text-anchor=\"end\" fill=\"#333\">SM " + std::to_string(sm) + "</text>\n";
            last_label = cy;
        }
    }

    // Time grid and axis.
    std::string axis;
    for (double tick : ticks) {
        const double x = x_of(tick * unit.ns_per_unit);
        axis += "<line x1=\"" + coord(x) + "\" y1=\"" + coord(top) + "\" x2=\"" + coord(x) + "\" y2=\"" +
                coord(plot_bottom + 4) + "\" stroke=\"#d0d0d0\" stroke-width=\"0.7\"/>\n";
        axis += "<text x=\"" + coord(x) + "\" y=\"" + coord(plot_bottom + 17) + "\" font-size=\"11\" text-anchor=\"middle\">" +
                format_fixed(tick, tick_decimals) + "</text>\n";
    }
    axis += "<line x1=\"" + coord(left) + "\" y1=\"" + coord(plot_bottom) + "\" x2=\"" + coord(left + plot_w) + "\" y2=\"" +
            coord(plot_bottom) + "\" stroke=\"#333\"/>\n";
    axis += "<text x=\"" + coord(left + plot_w / 2) + "\" y=\"" + coord(plot_bottom + 36) +
            "\" font-size=\"12\" text-anchor=\"middle\">time since the first block started [" + unit.name +
            "] (%globaltimer)</text>\n";
    axis += "<text transform=\"translate(16," + coord((top + plot_bottom) / 2) +
            ") rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">SM (%smid at block start)</text>\n";

    // Bars: longer regions of a block first, so regions nested inside them are drawn on top, inset.
    std::vector<std::size_t> order(t.samples.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto da = t.samples[a].stop_ns - t.samples[a].start_ns, db = t.samples[b].stop_ns - t.samples[b].start_ns;
        return da > db;
    });
    std::map<std::uint32_t, std::vector<std::size_t>> samples_of_block;
    for (std::size_t i = 0; i < t.samples.size(); ++i) samples_of_block[t.samples[i].block].push_back(i);

    std::string bars;
    std::map<std::uint32_t, std::size_t> blocks_per_region;
    std::size_t changed = 0;
    for (const std::size_t i : order) {
        const BlockSample& s = t.samples[i];
        ++blocks_per_region[s.region];
        // The row and lane are the block's (the SM its first region started on), so its regions sit together.
        const BlockSpan& span = spans.at(s.block);
        const Row& row = row_of_sm.at(span.sm);
        const double lane_h = row.lane_h;
        std::size_t depth = 0;
        for (const std::size_t j : samples_of_block[s.block]) {
            if (j == i) continue;
            const BlockSample& o = t.samples[j];
            const bool contains = o.start_ns <= s.start_ns && o.stop_ns >= s.stop_ns &&
                                  (o.stop_ns - o.start_ns > s.stop_ns - s.start_ns || (o.stop_ns - o.start_ns == s.stop_ns - s.start_ns && j < i));
            if (contains) ++depth;
        }
        const double inset = std::min(0.6, 0.22 * static_cast<double>(depth)) * std::max(0.0, lane_h - 1) / 2;
        const double x0 = x_of(static_cast<double>(s.start_ns - t0));
        const double x1 = x_of(static_cast<double>(std::max(s.stop_ns, s.start_ns) - t0));
        const double by = row.y + static_cast<double>(span.lane) * lane_h + inset;
        const double bh = std::max(0.3, lane_h - (lane_h >= 4 ? 1.0 : 0.0) - 2 * inset);
        const bool moved = s.sm_start != s.sm_stop;
        changed += moved;
        const double cycles = sample_cycles(s);
        std::string tip = "block " + std::to_string(s.block) + ", " + region_name(t, s.region) + ", SM " +
                          std::to_string(s.sm_start) + (moved ? " -> " + std::to_string(s.sm_stop) : std::string()) +
                          ": " + to_string(block_duration(s)) + " from " +
                          to_string(Duration::from_ns(static_cast<double>(s.start_ns - t0)));
        if (s.count > 1) tip += " (" + std::to_string(s.count) + " iterations, " + to_string(iteration_duration(s)) + " each)";
        if (!std::isnan(cycles)) tip += ", " + format_number(cycles, 6) + " cycles";
        bars += "<rect class=\"block\" x=\"" + coord(x0) + "\" y=\"" + coord(by) + "\" width=\"" +
                coord(x1 - x0 > 3 ? x1 - x0 - 0.6 : std::max(0.8, x1 - x0)) + "\" height=\"" + coord(bh) + "\" fill=\"" + svg::colour(s.region) + "\"" +
                (moved ? " stroke=\"#d00000\" stroke-width=\"1.2\"" : "") + "><title>" + escape(tip) + "</title></rect>\n";
    }

    // Legend, wrapped into rows.
    std::string legend;
    double lx = left, ly = plot_bottom + 58;
    auto legend_item = [&](const std::string& fill, const std::string& stroke, const std::string& label) {
        const double w = 24 + 6.6 * static_cast<double>(label.size());
        if (lx + w > width - right && lx > left) {
            lx = left;
            ly += 20;
        }
        legend += "<rect x=\"" + coord(lx) + "\" y=\"" + coord(ly - 10) + "\" width=\"14\" height=\"12\" fill=\"" + fill + "\"" +
                  (stroke.empty() ? "" : " stroke=\"" + stroke + "\" stroke-width=\"1.5\"") + "/>\n";
        legend += "<text x=\"" + coord(lx + 19) + "\" y=\"" + coord(ly) + "\" font-size=\"12\">" + escape(label) + "</text>\n";
        lx += w + 18;
    };
    for (const auto& [region, count] : blocks_per_region)
        legend_item(svg::colour(region), "", region_name(t, region) + " (" + std::to_string(count) + ")");
    if (changed) legend_item("white", "#d00000", "SM changed inside the region (" + std::to_string(changed) + ")");
    const double height = ly + 34;

    // Title and the figures a reader checks first.
    std::size_t blocks = samples_of_block.size();
    std::string subtitle = std::to_string(blocks) + " blocks on " + std::to_string(lanes.lanes_per_sm.size()) +
                           (t.sm_count > 0 ? " of " + std::to_string(t.sm_count) : std::string()) + " SMs";
    if (t.threads_per_block) subtitle += " x " + std::to_string(t.threads_per_block) + " threads";
    subtitle += ", makespan " + to_string(Duration::from_ns(span_ns));
    std::size_t max_lanes = 0;
    for (const auto& [sm, n] : lanes.lanes_per_sm) max_lanes = std::max(max_lanes, n);
    if (max_lanes > 1) subtitle += ", up to " + std::to_string(max_lanes) + " blocks at once on one SM";
    if (!std::isnan(t.sm_clock_mhz)) subtitle += ", SM clock " + format_number(t.sm_clock_mhz, 4) + " MHz";
    if (!options.device_name.empty()) subtitle += " - " + options.device_name;
    if (t.dropped) subtitle += " - " + std::to_string(t.dropped) + " records DROPPED (buffer too small)";

    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coord(width) + "\" height=\"" + coord(height) +
           "\" viewBox=\"0 0 " + coord(width) + " " + coord(height) + "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
    out += "<title>" + escape(title) + "</title>\n";
    out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    out += "<text x=\"" + coord(left) + "\" y=\"26\" font-size=\"17\" font-weight=\"bold\">" + escape(title) + "</text>\n";
    out += "<text x=\"" + coord(left) + "\" y=\"46\" font-size=\"12\" fill=\"#444\">" + escape(subtitle) + "</text>\n";
    out += "<text x=\"" + coord(left) + "\" y=\"61\" font-size=\"11\" fill=\"#666\">" +
           escape("one row per SM; a bar is one block from its start to its stop; stacked bars in a row ran on that SM at the same time") +
           "</text>\n";
    out += "<g class=\"rows\">\n" + rows + "</g>\n<g class=\"axis\">\n" + axis + "</g>\n<g class=\"blocks\">\n" + bars +
           "</g>\n<g class=\"legend\">\n" + legend + "</g>\n</svg>\n";
    return out;
}

}  // namespace gpuchrono::report
