// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono diff A B: per kernel and NVTX range of two `gpuchrono run` reports, the change of B against A with
// its confidence interval, corrected for the number of names compared (run/run_diff.hpp).
//
//     gpuchrono diff before/ after/                    # folders written by gpuchrono run --output
//     gpuchrono diff a/report.json b/report.json --threshold 0.02
//
// Exit status: 0 nothing slower, 1 something slower, 2 usage or file error or nothing compared, 3 nothing slower
// but kernels added or removed (with --strict also: called too rarely to compare).
#include "run/run_diff.hpp"

#include <gpuchrono/report/json/report_json.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#include <gpuchrono/api.hpp>

#include "commands.hpp"

namespace {

int usage(std::FILE* to) {
    std::fputs("usage: gpuchrono diff A B [--threshold R] [--confidence C] [--kernels-only] [--strict]\n"
               "  A, B: report.json files of gpuchrono run, or the folders holding them.\n"
               "  per kernel (and NVTX range) both runs have: the medians, the Hodges-Lehmann change of B against A\n"
               "  with its confidence interval, the Mann-Whitney p-value and the verdict, each comparison at the\n"
               "  Bonferroni-corrected level so that C (default 0.95) holds for the whole diff; R is the practical\n"
               "  threshold (default 0.01 = 1%). Kernels in only one run are listed as added or removed.\n"
               "  exit status: 0 none slower, 1 some slower, 2 usage or file error, or nothing compared, 3 none slower\n"
               "  but some added or removed (--strict: or called too rarely to compare, e.g. once).\n",
               to);
    return to == stdout ? 0 : 2;
}

std::filesystem::path report_in(const std::string& given) {
    std::filesystem::path p(given);
    if (std::filesystem::is_directory(p)) p /= "report.json";
    return p;
}

}  // namespace

int diff_main(int argc, char** argv) try {
    std::string files[2];
    int given = 0;
    gpuchrono::run::DiffOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return usage(stdout);
        if (arg == "--threshold" || arg == "--confidence") {
            char* end = nullptr;
            if (++i == argc) return usage(stderr);
            const double v = std::strtod(argv[i], &end);
            if (end == argv[i] || *end != '\0' || !(v >= 0 && v < 1) || (arg == "--confidence" && v <= 0)) {
                std::fprintf(stderr, "gpuchrono diff: %s needs a ratio in [0, 1), not %s\n", arg.data(), argv[i]);
                return 2;
            }
            (arg == "--threshold" ? options.threshold : options.confidence) = v;
        } else if (arg == "--kernels-only") {
            options.ranges = false;
        } else if (arg == "--strict") {
            options.strict = true;
        } else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "gpuchrono diff: unknown option %s\n", argv[i]);
            return usage(stderr);
        } else if (given < 2) {
            files[given++] = arg;
        } else {
            std::fputs("gpuchrono diff: give exactly two reports\n", stderr);
            return usage(stderr);
        }
    }
    if (given != 2) return usage(stderr);
    const auto a = gpuchrono::report::load_report(report_in(files[0]));
    const auto b = gpuchrono::report::load_report(report_in(files[1]));
    const gpuchrono::run::RunDiff d = gpuchrono::run::diff_runs(a, b, options);
    std::printf("gpuchrono diff: %s -> %s\n", report_in(files[0]).string().c_str(), report_in(files[1]).string().c_str());
    std::fputs(gpuchrono::run::render_diff(d, options).c_str(), stdout);
    if (const std::string why = gpuchrono::run::nothing_compared_reason(d); !why.empty())
        std::fprintf(stderr, "gpuchrono diff: %s.\n", why.c_str());
    return gpuchrono::run::diff_exit_code(d);
} catch (const std::exception& e) {
    std::fprintf(stderr, "gpuchrono diff: %s\n", e.what());
    return 2;
}
