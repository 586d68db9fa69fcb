// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono-report: renders a saved report.json again, on any machine (no GPU, no CUDA driver needed).
//
//     gpuchrono-report out/tour-20251122-041000/report.json            # prints the text report
//     gpuchrono-report report.json --out pictures/                      # and writes every file into pictures/
//     gpuchrono-report report.json --out pictures/ --single-file        # index.html with the pictures inlined
//
// A run taken on a GPU cluster can so be read and drawn on a laptop: the JSON holds every raw sample.
//
//     gpuchrono-report merge rank*.json -o job.json [--trace trace.json] [--svg DIR] [--html job.html] [--quiet]
//
// merges the reports of a distributed job's ranks (job/job_merge.hpp). A subcommand rather than a
// tool of its own: it reads the same files, and users who have gpuchrono-report have it.
#include "job/job_html.hpp"
#include <gpuchrono/job/job_merge.hpp>
#include "report/render/lateness_svg.hpp"
#include "job/straggler_text.hpp"
#include <gpuchrono/report/model/report.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#include <gpuchrono/api.hpp>

#include "commands.hpp"

namespace {

int usage(std::FILE* to) {
    std::fputs("usage: gpuchrono-report REPORT.json [--out DIR] [--single-file] [--quiet]\n"
               "       gpuchrono-report merge RANK.json... -o JOB.json   (see gpuchrono-report merge --help)\n"
               "  prints the report as text; with --out also writes report.txt, CSV tables, the per-block timeline\n"
               "  and sweep SVGs, a Chrome trace (open it in https://ui.perfetto.dev) and index.html into DIR.\n"
               "  --single-file: index.html holds every picture inlined, one self-contained page to send.\n"
               "  --quiet: do not print the text report.\n",
               to);
    return to == stdout ? 0 : 2;
}

int merge_usage(std::FILE* to) {
    std::fputs("usage: gpuchrono-report merge RANK.json... -o JOB.json [--trace TRACE.json] [--svg DIR] [--html PAGE.html]\n"
               "                              [--quiet]\n"
               "  merges the reports of a job's ranks (each written with a \"distributed\" section): checks that they\n"
               "  are one job with every rank once, puts them on one clock, names the stragglers of every scope name,\n"
               "  and writes JOB.json; --trace: a Perfetto/Chrome trace with a process per rank (default: JOB's folder/\n"
               "  trace.json); --svg: a lateness heat map per scope name into DIR; --html: the job as one self-contained\n"
               "  page (per-rank table, lateness heat maps). Prints the summary unless --quiet.\n",
               to);
    return to == stdout ? 0 : 2;
}

int merge(int argc, char** argv) {
    std::vector<std::filesystem::path> inputs;
    std::filesystem::path out, trace, svg, page;
    bool quiet = false;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&](const char* what) -> std::filesystem::path {
            if (++i == argc) {
                std::fprintf(stderr, "gpuchrono-report merge: %s needs %s\n", std::string(arg).c_str(), what);
                std::exit(merge_usage(stderr));
            }
            return argv[i];
        };
        if (arg == "-h" || arg == "--help") return merge_usage(stdout);
        if (arg == "-o" || arg == "--out") out = value("a file");
        else if (arg == "--trace") trace = value("a file");
        else if (arg == "--svg") svg = value("a folder");
        else if (arg == "--html") page = value("a file");
        else if (arg == "--quiet") quiet = true;
        else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "gpuchrono-report merge: unknown option %s\n", argv[i]);
            return merge_usage(stderr);
        } else inputs.emplace_back(arg);
    }
    if (inputs.empty() || out.empty()) {
        std::fputs(inputs.empty() ? "gpuchrono-report merge: give the rank reports\n" : "gpuchrono-report merge: give -o JOB.json\n", stderr);
        return merge_usage(stderr);
    }
    if (trace.empty()) trace = out.parent_path() / "trace.json";
    for (const auto& file : {out, trace, page})
        if (!file.empty() && file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    const auto job = gpuchrono::distributed::merge_rank_reports(inputs, {trace});
    gpuchrono::distributed::save_job(job, out);
    if (!svg.empty()) {
        std::filesystem::create_directories(svg);
        for (const auto& s : job.stragglers) {
            const auto file = svg / ("lateness-" + gpuchrono::report::slug(s.name) + ".svg");
            std::ofstream f(file);
            f << gpuchrono::distributed::render_lateness_svg(s);
            if (!f.flush()) throw std::runtime_error("cannot write " + file.string());
        }
    }
    if (!page.empty()) {
        std::string command;
        for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
        std::ofstream f(page, std::ios::binary);
        f << gpuchrono::distributed::render_job_html(job, command);
        if (!f.flush()) throw std::runtime_error("cannot write " + page.string());
    }
    if (!quiet) std::fputs(gpuchrono::distributed::render_job_text(job).c_str(), stdout);
    std::printf("\ngpuchrono-report merge: %zu ranks into %s and %s\n", job.ranks.size(), out.string().c_str(), trace.string().c_str());
    return 0;
}

}  // namespace

int report_main(int argc, char** argv) try {
    if (argc > 1 && std::string_view(argv[1]) == "merge") return merge(argc, argv);
    std::filesystem::path input, out;
    bool quiet = false;
    gpuchrono::report::ReportFilesOptions options;
    for (int i = 0; i < argc; ++i) options.command += (i ? " " : "") + std::string(argv[i]);
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return usage(stdout);
        if (arg == "--quiet") {
            quiet = true;
        } else if (arg == "--single-file") {
            options.single_file = true;
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
        const auto written = gpuchrono::report::write_report_files(report, out, options);
        std::printf("\ngpuchrono-report: wrote %zu files into %s\n", written.size(), out.string().c_str());
        for (const auto& f : written) std::printf("  %s\n      %s\n", f.path.filename().string().c_str(), f.what.c_str());
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "gpuchrono-report: %s\n", e.what());
    return 1;
}

#ifndef GPUCHRONO_ONE_COMMAND
int main(int argc, char** argv) { return report_main(argc, argv); }
#endif
