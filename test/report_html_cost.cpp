// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the HTML page costs: the time render_report_html takes against the time write_report_files takes for
// everything else, and the page's size with its pictures linked and inlined.
//
//     report_html_cost out/tour-20251122-041000/report.json [--max-fraction 0.10] [--max-bytes 2000000]
//
// Prints both sizes and the fraction the page adds to writing the report folder (best of several runs of each,
// so a busy machine's noise does not count); exit status 1 when that fraction is above --max-fraction or the
// single-file page is larger than --max-bytes.
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/report_files.hpp>
#include "report/render/report_html.hpp"
#include <gpuchrono/report/json/report_json.hpp>
#include <gpuchrono/report/render/text_report.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

// Under a sanitizer string work slows several times and file writes do not: the fraction is printed, not judged.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
#else
constexpr bool sanitized = false;
#endif

namespace fs = std::filesystem;
namespace gr = gpuchrono::report;

namespace {

template <class F>
double best_seconds(int runs, F&& f) {
    double best = 1e300;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

std::string slurp(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 2) {
        std::fputs("usage: report_html_cost REPORT.json [--max-fraction R] [--max-bytes N]\n", stderr);
        return 2;
    }
    double max_fraction = 0.10;
    double max_bytes = 2e6;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::string_view(argv[i]) == "--max-fraction") max_fraction = std::atof(argv[i + 1]);
        if (std::string_view(argv[i]) == "--max-bytes") max_bytes = std::atof(argv[i + 1]);
    }

    const gr::Report report = gr::load_report(argv[1]);
    const fs::path dir = fs::temp_directory_path() / ("gpuchrono-html-cost-" + std::to_string(::getpid()));
    const int runs = 9;

    const double with_page = best_seconds(runs, [&] { gr::write_report_files(report, dir / "single", {.single_file = true, .command = "x"}); });
    (void)gr::write_report_files(report, dir / "linked", {.single_file = false, .command = "x"});

    // The same pictures the folder holds, each under its experiment (their file names carry its slug).
    std::vector<gr::HtmlPicture> pictures;
    for (const auto& entry : fs::directory_iterator(dir / "single")) {
        if (entry.path().extension() != ".svg") continue;
        const std::string name = entry.path().filename().string();
        std::string experiment = report.experiments.empty() ? std::string() : report.experiments.front().id;
        for (const gr::Experiment& e : report.experiments)
            if (name.find("-" + gr::slug(e.id) + "-") != std::string::npos) experiment = e.id;
        pictures.push_back({experiment, name, name, slurp(entry.path())});
    }
    const std::string text = gr::render_text(report);
    std::size_t size = 0;
    const double page = best_seconds(runs, [&] {
        size = gr::render_report_html(report, pictures, text, {.command = "x", .single_file = true}).size();
    });

    const auto single = fs::file_size(dir / "single" / "index.html");
    const auto linked = fs::file_size(dir / "linked" / "index.html");
    const double fraction = page / std::max(with_page - page, 1e-9);
    std::printf("index.html: %ju bytes with the pictures inlined (--single-file; limit %.0f), %ju bytes linking %zu pictures\n",
                static_cast<std::uintmax_t>(single), max_bytes, static_cast<std::uintmax_t>(linked), pictures.size());
    std::printf("writing the report folder: %.2f ms, of which the single-file page %.2f ms (%zu bytes): +%.1f%% (limit %.0f%%%s)\n",
                with_page * 1e3, page * 1e3, size, fraction * 100, max_fraction * 100, sanitized ? ", not judged under a sanitizer" : "");
    fs::remove_all(dir);
    return (sanitized || fraction <= max_fraction) && static_cast<double>(single) <= max_bytes ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "report_html_cost: %s\n", e.what());
    return 2;
}
