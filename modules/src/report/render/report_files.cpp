// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/report/render/report_files.hpp>

#include "report/render/chrome_trace.hpp"
#include "report/render/csv.hpp"
#include "report/render/kernel_metrics_csv.hpp"
#include "report/render/roofline_svg.hpp"
#include "report/render/report_html.hpp"
#include <gpuchrono/report/json/report_json.hpp>
#include "report/render/svg.hpp"
#include "report/render/sweep_svg.hpp"
#include <gpuchrono/report/render/text_report.hpp>
#include "report/render/timeline_svg.hpp"

#include <fstream>
#include <iterator>
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

// The command line of this process, for the page's header: what a reader reruns to get the report again.
std::string own_command() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string args((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!args.empty() && args.back() == '\0') args.pop_back();
    for (char& c : args)
        if (c == '\0') c = ' ';
    return args;
}

}  // namespace

std::vector<WrittenFile> write_report_files(const Report& report, const std::filesystem::path& folder) {
    return write_report_files(report, folder, ReportFilesOptions{});
}

std::vector<WrittenFile> write_report_files(const Report& report, const std::filesystem::path& folder, const ReportFilesOptions& options) {
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
    std::vector<HtmlPicture> pictures;
    std::size_t timelines = 0, activities = 0;  // the Chrome trace shows both
    for (const Experiment& e : report.experiments) {
        activities += e.activities.size();
        for (const Timeline& t : e.timelines) {
            const std::string name = unique(used, "timeline-" + slug(e.id) + "-" + slug(t.name), ".svg");
            std::string svg_text = render_timeline_svg(t, {.device_name = report.device.name});
            put(name, svg_text, "per-block timeline: " + t.name + " (SVG)");
            pictures.push_back({e.id, name, "Per-block timeline: " + t.name, std::move(svg_text)});
            ++timelines;
        }
        for (const SampleSeries& s : e.series) {
            if (!s.kernel_metrics || !can_draw_roofline(*s.kernel_metrics)) continue;
            const std::string title = "Roofline: " + s.name;
            const std::string name = unique(used, "roofline-" + slug(e.id) + "-" + slug(s.name), ".svg");
            std::string svg_text = render_roofline_svg(*s.kernel_metrics, {.title = title});
            put(name, svg_text, "roofline chart: " + s.name + " (SVG)");
            pictures.push_back({e.id, name, title, std::move(svg_text)});
        }
        for (const Sweep& s : e.sweeps) {
            const std::string name = unique(used, "sweep-" + slug(e.id) + "-" + slug(s.name), ".svg");
            std::string svg_text = render_sweep_svg(s, {.device_name = report.device.name});
            put(name, svg_text, "sweep plot: " + (s.title.empty() ? s.name : s.title) + " (SVG)");
            pictures.push_back({e.id, name, "Sweep: " + (s.title.empty() ? s.name : s.title), std::move(svg_text)});
        }
    }
    if (timelines || activities)
        put("trace.json", render_chrome_trace(report),
            "per-block records and KernelPolicy's GPU activities as Chrome trace events (open in ui.perfetto.dev)");

    // Pictures stay in memory only to be inlined; otherwise the page links the files.
    if (!options.single_file)
        for (HtmlPicture& p : pictures) p.svg.clear();
    const HtmlPageOptions page{.command = options.command.empty() ? own_command() : options.command,
                               .single_file = options.single_file,
                               .trace = timelines || activities};
    put("index.html", render_report_html(report, pictures, text, page),
        options.single_file ? "the whole report on one self-contained page, pictures inlined (HTML)"
                            : "the report on one page: summary, tables, findings, pictures (HTML)");
    return written;
}

}  // namespace gpuchrono::report
