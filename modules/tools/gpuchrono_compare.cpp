// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono-compare: did anything get slower between two saved reports? One row per series the two have in
// common (median before and after, the relative change with its confidence interval, the Mann-Whitney p-value,
// the verdict), as nvbench_compare and Google Benchmark's compare.py are used in CI:
//
//     gpuchrono-compare base/report.json new/report.json              # exit 1 if a series got slower
//     gpuchrono-compare base.json new.json --threshold 0.02           # a 2% practical threshold
//     gpuchrono-compare base.json new.json --html compare.html         # and the comparison as a page
//
// Exit status: 0 when no series got slower beyond the threshold, 1 when one did, 2 for bad usage or an
// unreadable file, 3 when nothing got slower but some series could not be compared (only in one report, no
// samples, or refused: different methods, cache states or devices unless allowed), so a gate never passes
// on a comparison it did not make; 2 also when no series at all could be compared.
#include "report/compare/comparison_html.hpp"
#include "report/compare/report_comparison.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <gpuchrono/api.hpp>

#include "commands.hpp"

namespace {

int usage(std::FILE* to) {
    std::fputs("usage: gpuchrono-compare BASE.json NEW.json [--threshold R] [--confidence C]\n"
               "                         [--allow-different-methods] [--allow-different-cache-states]\n"
               "                         [--allow-different-devices] [--html PAGE.html]\n"
               "  compares every series the two reports share (same experiment id and series name): median before\n"
               "  and after, change of NEW against BASE with its confidence interval (Hodges-Lehmann), Mann-Whitney\n"
               "  p-value, verdict (slower/faster when significant and at least R; default R 0.01 = 1%, C 0.95).\n"
               "  --html: also writes the comparison as a page (verdicts as words, both medians, the change and its CI).\n"
               "  exit status: 0 none slower, 1 some slower, 2 usage or file error, or no series compared,\n"
               "  3 some series not compared.\n",
               to);
    return to == stdout ? 0 : 2;
}

bool parse_ratio(const char* text, double& into) {
    char* end = nullptr;
    into = std::strtod(text, &end);
    return end != text && *end == '\0';
}

}  // namespace

int compare_main(int argc, char** argv) try {
    std::string files[2];
    int given = 0;
    gpuchrono::CompareOptions options;
    std::string page;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return usage(stdout);
        if (arg == "--threshold" || arg == "--confidence") {
            double& into = arg == "--threshold" ? options.threshold : options.confidence;
            if (++i == argc || !parse_ratio(argv[i], into)) {
                std::fprintf(stderr, "gpuchrono-compare: %s needs a number (a ratio: 0.01 is 1%%)\n", arg.data());
                return usage(stderr);
            }
        } else if (arg == "--html") {
            if (++i == argc) {
                std::fputs("gpuchrono-compare: --html needs a file\n", stderr);
                return usage(stderr);
            }
            page = argv[i];
        } else if (arg == "--allow-different-methods") {
            options.allow_different_methods = true;
        } else if (arg == "--allow-different-cache-states") {
            options.allow_different_cache_states = true;
        } else if (arg == "--allow-different-devices") {
            options.allow_different_devices = true;
        } else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "gpuchrono-compare: unknown option %s\n", argv[i]);
            return usage(stderr);
        } else if (given < 2) {
            files[given++] = arg;
        } else {
            std::fputs("gpuchrono-compare: give exactly two report files\n", stderr);
            return usage(stderr);
        }
    }
    if (given != 2) return usage(stderr);
    options.validate();

    const gpuchrono::report::Report base = gpuchrono::report::load_report(files[0]);
    const gpuchrono::report::Report next = gpuchrono::report::load_report(files[1]);
    const gpuchrono::ReportComparison c = gpuchrono::compare_reports(base, next, options);
    std::printf("gpuchrono-compare: %s -> %s\n", files[0].c_str(), files[1].c_str());
    std::fputs(gpuchrono::render_comparison(c, options).c_str(), stdout);
    if (!page.empty()) {
        gpuchrono::ComparisonPageInput input{files[0], files[1], &base, &next, {}};
        for (int i = 0; i < argc; ++i) input.command += (i ? " " : "") + std::string(argv[i]);
        if (const auto folder = std::filesystem::path(page).parent_path(); !folder.empty()) std::filesystem::create_directories(folder);
        std::ofstream f(page, std::ios::binary);
        f << gpuchrono::render_comparison_html(c, input, options);
        if (!f.flush()) {
            std::fprintf(stderr, "gpuchrono-compare: cannot write %s\n", page.c_str());
            return 2;
        }
    }
    if (c.rows.size() == c.problems()) {
        std::fprintf(stderr,
                     "gpuchrono-compare: nothing was compared: %s, so the comparison cannot say whether anything got "
                     "slower.\n",
                     c.rows.empty() ? "neither report holds a series"
                                    : "no series is in both reports with samples the comparison accepts");
        return 2;
    }
    if (c.slower() > 0) return 1;
    return c.problems() > 0 ? 3 : 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "gpuchrono-compare: %s\n", e.what());
    return 2;
}

#ifndef GPUCHRONO_ONE_COMMAND
int main(int argc, char** argv) { return compare_main(argc, argv); }
#endif
