// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the example programs and the tour share: the Context, the no-device message, and the main() of a
// standalone example.
#include <cuda_runtime_api.h>

#include <gpuchrono/core/cuda_error.hpp>  // GPUCHRONO_CUDA_CHECK: a macro, which no module exports

#include <spin.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

// The report model and its renderers' parts are internal (examples build richer reports than write_report).
#include <gpuchrono/report/render/progress.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/report_files.hpp>
#include <gpuchrono/report/render/text_report.hpp>
#include <gpuchrono/report/render/units.hpp>

#include <gpuchrono/api.hpp>

#include "example.hpp"

namespace gpuchrono_examples {

Context::Context(int device, bool quick) : device_(device), quick_(quick) {
    GPUCHRONO_CUDA_CHECK(cudaSetDevice(device), "selecting the device for the examples");
    GPUCHRONO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "creating the examples' stream");
    // 50 ms of spinning brings an idle GPU (345 MHz on an H100) up to its working clock before anything is
    // timed (docs/pitfalls-catalog.md row 5); the empty kernel loads the spin module's neighbour too.
    gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ms(50), stream_, 132, 128);
    gpuchrono::kernels::launch_empty(stream_);
    GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream_), "warming up the GPU");
    info_ = gpuchrono::report::describe_device(device);
}

Context::~Context() {
    if (stream_) (void)cudaStreamDestroy(stream_);
}

void Context::note_device_clock(const gpuchrono::BlockSamples& b) {
    if (std::isnan(info_.sm_clock_measured_mhz) && b.sm_clock.hz > 0) info_.sm_clock_measured_mhz = b.sm_clock.hz / 1e6;
    if (std::isnan(info_.globaltimer_step_ns) && b.timer_step.ns() > 0) info_.globaltimer_step_ns = b.timer_step.ns();
}

std::string no_device_line(const char* program) {
    const auto why = gpuchrono::no_device_reason();
    if (!why) return {};
    return std::string(program) + ": no CUDA device here (" + *why +
           "); run it on a GPU machine: scripts/gpu-build here, then gpu-build/bin/" + program +
           " there (or scripts/gpu-run LOGDIR, which runs the tour)";
}

void merge_findings(gpuchrono::Findings& into, const gpuchrono::Findings& more) {
    for (const gpuchrono::Finding& f : more) {
        gpuchrono::Finding* same = nullptr;
        for (gpuchrono::Finding& g : into)
            if (g.code == f.code) same = &g;
        if (!same) {
            into.push_back(f);
            continue;
        }
        // Count repeats on the first one, in the evidence and at the end of its message.
        double seen = same->evidence_or("measurements_with_this_finding", 1.0) + 1.0;
        bool updated = false;
        for (gpuchrono::Evidence& e : same->evidence)
            if (e.name == "measurements_with_this_finding") {
                e.value = seen;
                updated = true;
            }
        if (!updated) same->evidence.push_back({"measurements_with_this_finding", seen});
        const std::string marker = " [first of ";
        if (const auto at = same->message.find(marker); at != std::string::npos) same->message.erase(at);
        same->message += marker + std::to_string(static_cast<long long>(seen)) + " measurements with this finding]";
    }
}

std::string str(double value, int significant) { return gpuchrono::report::format_number(value, significant); }

int example_main(const char* id, int argc, char** argv) {
    const ExampleEntry* entry = nullptr;
    for (const ExampleEntry& e : all_examples)
        if (std::string_view(e.id) == id) entry = &e;
    if (!entry) {
        std::fprintf(stderr, "no example named %s\n", id);
        return 2;
    }
    std::filesystem::path out;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--quick") {
            quick = true;
        } else if (arg == "--out" && i + 1 < argc) {
            out = argv[++i];
        } else {
            std::fprintf(stderr,
                         "usage: %s [--out DIR] [--quick]\n"
                         "  runs the example on CUDA device 0 and prints what it measured and what that shows;\n"
                         "  --out DIR also writes the report files (JSON, CSV, SVG, Chrome trace) into DIR;\n"
                         "  --quick takes fewer repetitions.\n",
                         entry->program);
            return 2;
        }
    }
    if (const std::string line = no_device_line(entry->program); !line.empty()) {
        std::printf("%s\n", line.c_str());
        return 2;
    }
    try {
        // The findings are part of the report this program prints: no second copy on stderr.
        gpuchrono::set_finding_reaction(gpuchrono::Reaction::collect);
        Context ctx(0, quick);
        gpuchrono::report::Report report = gpuchrono::report::new_report();
        report.experiments.push_back(entry->run(ctx));
        report.device = ctx.device_info();
        std::printf("%s\n%s", gpuchrono::report::render_device_text(report.device).c_str(),
                    gpuchrono::report::render_experiment_text(report.experiments.back()).c_str());
        if (!out.empty()) {
            const auto written = gpuchrono::report::write_report_files(report, out);
            std::printf("\nwrote %zu files into %s (open index.html in a browser)\n", written.size(), out.string().c_str());
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", entry->program, e.what());
        return 1;
    }
}

}  // namespace gpuchrono_examples
