#include <gpuchrono/report/report_files.hpp>

#include <gpuchrono/report/chrome_trace.hpp>
#include <gpuchrono/report/csv.hpp>
#include <gpuchrono/report/kernel_metrics_csv.hpp>
#include <gpuchrono/report/roofline_svg.hpp>
#include <gpuchrono/report/report_json.hpp>
#include <gpuchrono/report/svg.hpp>
#include <gpuchrono/report/sweep_svg.hpp>
#include <gpuchrono/report/text_report.hpp>
#include <gpuchrono/report/timeline_svg.hpp>

#include <fstream>
#include <set>
#include <stdexcept>
#include <system_error>

namespace gpuchrono::report {

namespace {

void write_text(const std::filesystem::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary);
    if (!out) throw std::runtime_error("gpuchrono: cannot write " + file.string());
    out << text;
    if (!out.flush()) throw std::runtime_error("gpuchrono: writing " + file.string() + " failed");
}

// A file name not used yet in this folder: "name.svg", then "name-2.svg", ...
std::string unique(std::set<std::string>& used, const std::string& stem, const std::string& extension) {
    std::string name = stem + extension;
    for (int i = 2; !used.insert(name).second; ++i) name = stem + "-" + std::to_string(i) + extension;
    return name;
}

}  // namespace

std::vector<WrittenFile> write_report_files(const Report& report, const std::filesystem::path& folder) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw std::runtime_error("gpuchrono: cannot create the folder " + folder.string() + ": " + ec.message());

    std::vector<WrittenFile> written;
    auto put = [&](const std::string& name, const std::string& text, std::string what) {
        write_text(folder / name, text);
        written.push_back({folder / name, std::move(what)});
    };

    save_report(report, folder / "report.json");
    written.push_back({folder / "report.json", "every raw sample, Stats, device and findings (JSON)"});
    const std::string text = render_text(report);
    put("report.txt", text, "the report as text");
    for (const CsvTable table : all_csv_tables)
        put(std::string(to_string(table)) + ".csv", render_csv(report, table), std::string(to_string(table)) + " table (CSV)");
    if (has_kernel_metrics(report)) {
        put("kernel_metrics.csv", render_kernel_metrics_csv(report), "hardware metrics per kernel launch (CSV)");
        put("roofline.csv", render_roofline_csv(report), "roofline points with the device peaks (CSV)");
    }

    std::set<std::string> used;
    std::vector<std::pair<std::string, std::string>> pictures;  // (file, caption)
    std::size_t timelines = 0, activities = 0;  // the Chrome trace shows both
    for (const Experiment& e : report.experiments) {
        activities += e.activities.size();
        for (const Timeline& t : e.timelines) {
            const std::string name = unique(used, "timeline-" + slug(e.id) + "-" + slug(t.name), ".svg");
            put(name, render_timeline_svg(t, {.device_name = report.device.name}), "per-block timeline: " + t.name + " (SVG)");
            pictures.emplace_back(name, e.title + ": " + t.name);
            ++timelines;
        }
        for (const SampleSeries& s : e.series) {
            if (!s.kernel_metrics || !can_draw_roofline(*s.kernel_metrics)) continue;
            const std::string title = "Roofline: " + s.name;
            const std::string name = unique(used, "roofline-" + slug(e.id) + "-" + slug(s.name), ".svg");
            put(name, render_roofline_svg(*s.kernel_metrics, {.title = title}), "roofline chart: " + s.name + " (SVG)");
            pictures.emplace_back(name, e.title + ": " + title);
        }
        for (const Sweep& s : e.sweeps) {
            const std::string name = unique(used, "sweep-" + slug(e.id) + "-" + slug(s.name), ".svg");
            put(name, render_sweep_svg(s, {.device_name = report.device.name}), "sweep plot: " + (s.title.empty() ? s.name : s.title) + " (SVG)");
            pictures.emplace_back(name, e.title + ": " + (s.title.empty() ? s.name : s.title));
        }
    }
    if (timelines || activities)
        put("trace.json", render_chrome_trace(report),
            "per-block records and KernelPolicy's GPU activities as Chrome trace events (open in ui.perfetto.dev)");

    std::string html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gpuchrono report</title>\n"
                       "<style>body{font-family:sans-serif;margin:2em;max-width:1250px}pre{font-size:12px;"
                       "background:#f6f6f6;padding:1em;overflow-x:auto}img{max-width:100%;border:1px solid #ddd}</style>"
                       "</head><body>\n<h1>gpuchrono report</h1>\n";
    for (const auto& [file, caption] : pictures)
        html += "<h2>" + svg::escape(caption) + "</h2>\n<p><a href=\"" + svg::escape(file) + "\"><img src=\"" + svg::escape(file) +
                "\" alt=\"" + svg::escape(caption) + "\"></a></p>\n";
    html += "<h2>Report</h2>\n<pre>" + svg::escape(text) + "</pre>\n";
    if (timelines || activities) html += "<p>Per-block records and GPU activities as a trace: open <a href=\"trace.json\">trace.json</a> in https://ui.perfetto.dev</p>\n";
    html += "</body></html>\n";
    put("index.html", html, "the report and every picture on one page (HTML)");
    return written;
}

}  // namespace gpuchrono::report
