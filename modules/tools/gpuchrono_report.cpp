// gpuchrono-report: renders a saved report.json again, on any machine (no GPU, no CUDA driver needed).
//
//     gpuchrono-report out/tour-20251122-041000/report.json            # prints the text report
//     gpuchrono-report report.json --out pictures/                      # and writes every file into pictures/
//
// A run taken on a GPU cluster can so be read and drawn on a laptop: the JSON holds every raw sample.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#include <gpuchrono/api.hpp>

namespace {

int usage(std::FILE* to) {
    std::fputs("usage: gpuchrono-report REPORT.json [--out DIR] [--quiet]\n"
               "  prints the report as text; with --out also writes report.txt, CSV tables, the per-block timeline\n"
               "  and sweep SVGs, a Chrome trace (open it in https://ui.perfetto.dev) and index.html into DIR.\n"
               "  --quiet: do not print the text report.\n",
               to);
    return to == stdout ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) try {
    std::filesystem::path input, out;
    bool quiet = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return usage(stdout);
        if (arg == "--quiet") {
            quiet = true;
        } else if (arg == "--out") {
            if (++i == argc) {
                std::fputs("gpuchrono-report: --out needs a folder\n", stderr);
                return usage(stderr);
            }
            out = argv[i];
        } else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "gpuchrono-report: unknown option %s\n", argv[i]);
            return usage(stderr);
        } else if (input.empty()) {
            input = arg;
        } else {
            std::fputs("gpuchrono-report: give one report file\n", stderr);
            return usage(stderr);
        }
    }
    if (input.empty()) return usage(stderr);

    const gpuchrono::report::Report report = gpuchrono::report::load_report(input);
    if (!quiet) std::fputs(gpuchrono::report::render_text(report).c_str(), stdout);
    if (!out.empty()) {
        const auto written = gpuchrono::report::write_report_files(report, out);
        std::printf("\ngpuchrono-report: wrote %zu files into %s\n", written.size(), out.string().c_str());
        for (const auto& f : written) std::printf("  %s\n      %s\n", f.path.filename().string().c_str(), f.what.c_str());
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "gpuchrono-report: %s\n", e.what());
    return 1;
}
