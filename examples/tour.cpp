// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono-tour: runs every example on the GPU, prints what each one measured and what it shows, then a
// summary, and writes all report files into one folder:
//
//     gpuchrono-tour [--out DIR] [--quick] [--only ID,ID...]
//
// DIR defaults to out/tour-<UTC date and time>. The folder holds report.json (every raw sample; render it
// again anywhere with `gpuchrono report`), report.txt, CSV tables, per-block timelines and sweep plots as SVG,
// the per-block records as a Chrome trace (trace.json, for https://ui.perfetto.dev), and index.html.
#include <cuda_runtime_api.h>

#include <gpuchrono/core/cuda_error.hpp>  // GPUCHRONO_CUDA_CHECK: a macro, which no module exports

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// The report model and its renderers' parts are internal (examples build richer reports than write_report).
#include <gpuchrono/report/render/progress.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/report_files.hpp>
#include <gpuchrono/report/render/text_report.hpp>
#include <gpuchrono/report/render/units.hpp>

#include <gpuchrono/api.hpp>

#include "example.hpp"

namespace {

namespace ex = gpuchrono_examples;
namespace report = gpuchrono::report;

int usage(std::FILE* to) {
    std::fputs("usage: gpuchrono-tour [--out DIR] [--quick] [--only ID,ID...]\n"
               "  runs every example on CUDA device 0, prints the results and writes the report files into DIR\n"
               "  (default out/tour-<UTC time>). --quick takes fewer repetitions. --only runs the examples named:\n",
               to);
    for (const ex::ExampleEntry& e : ex::all_examples) std::fprintf(to, "    %s\n", e.id);
    return to == stdout ? 0 : 2;
}

std::string default_folder() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[64];
    std::strftime(buf, sizeof buf, "out/tour-%Y%m%d-%H%M%S", &utc);
    return buf;
}

bool selected(const std::vector<std::string>& only, std::string_view id) {
    if (only.empty()) return true;
    for (const auto& o : only)
        if (o == id) return true;
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::filesystem::path out;
    bool quick = false;
    std::vector<std::string> only;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") return usage(stdout);
        if (arg == "--quick") {
            quick = true;
        } else if (arg == "--out" && i + 1 < argc) {
            out = argv[++i];
        } else if (arg == "--only" && i + 1 < argc) {
            std::string list = argv[++i];
            for (std::size_t start = 0; start <= list.size();) {
                const std::size_t comma = std::min(list.find(',', start), list.size());
                if (comma > start) only.push_back(list.substr(start, comma - start));
                start = comma + 1;
            }
            for (const auto& o : only) {
                bool known = false;
                for (const ex::ExampleEntry& e : ex::all_examples) known = known || o == e.id;
                if (!known) {
                    std::fprintf(stderr, "gpuchrono-tour: no example named %s\n", o.c_str());
                    return usage(stderr);
                }
            }
        } else {
            return usage(stderr);
        }
    }
    if (const std::string line = ex::no_device_line("gpuchrono-tour"); !line.empty()) {
        std::printf("%s\n", line.c_str());
        return 2;
    }
    if (out.empty()) out = default_folder();

    const auto started = std::chrono::steady_clock::now();
    int failures = 0;
    report::Report tour = report::new_report();
    try {
        // Every finding goes into the report, next to the figures it concerns; none is printed twice on stderr.
        gpuchrono::set_finding_reaction(gpuchrono::Reaction::collect);
        ex::Context ctx(0, quick);
        std::printf("gpuchrono tour: the seeds' timing experiments on this GPU; report files go to %s\n\n%s",
                    out.string().c_str(), report::render_device_text(ctx.device_info()).c_str());
        if (quick) tour.notes.push_back("run with --quick: fewer repetitions per measurement");

        int number = 0;
        for (const ex::ExampleEntry& entry : ex::all_examples) {
            if (!selected(only, entry.id)) continue;
            ++number;
            std::printf("\n");
            std::fflush(stdout);
            try {
                tour.experiments.push_back(entry.run(ctx));
                std::printf("%s", report::render_experiment_text(tour.experiments.back(), number).c_str());
            } catch (const std::exception& e) {
                ++failures;
                const std::string why = std::string(entry.id) + " failed: " + e.what();
                std::printf("%d. %s\n", number, why.c_str());
                tour.notes.push_back(why);
                // A broken context fails every later CUDA call, each saying so; the others may still run.
            }
            std::fflush(stdout);
        }
        tour.device = ctx.device_info();  // now with the SM clock and timer step measured on the way
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuchrono-tour: %s\n", e.what());
        ++failures;
        tour.notes.push_back(std::string("the tour stopped: ") + e.what());
    }

    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("\nSummary (%zu examples in %.1f s on %s, SM clock %s measured)\n%s", tour.experiments.size(), seconds,
                tour.device.name.c_str(),
                std::isnan(tour.device.sm_clock_measured_mhz)
                    ? "not"
                    : (report::format_number(tour.device.sm_clock_measured_mhz, 4) + " MHz").c_str(),
                report::render_summary_text(tour).c_str());
    try {
        const auto written = report::write_report_files(tour, out);
        std::printf("\nWrote %zu files into %s:\n", written.size(), out.string().c_str());
        for (const auto& f : written) std::printf("  %s\n      %s\n", f.path.filename().string().c_str(), f.what.c_str());
        std::printf("Open %s in a browser; trace.json opens in https://ui.perfetto.dev; "
                    "gpuchrono report %s renders it all again without a GPU.\n",
                    (out / "index.html").string().c_str(), (out / "report.json").string().c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuchrono-tour: writing the report files failed: %s\n", e.what());
        ++failures;
    }
    // The last line is the verdict (scripts/gpu-run shows it).
    if (failures)
        std::printf("\ngpuchrono-tour: FAILED: %d of the steps failed; see above\n", failures);
    else
        std::printf("\ngpuchrono-tour: passed: %zu examples, report files in %s\n", tour.experiments.size(), out.string().c_str());
    return failures ? 1 : 0;
}
