// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Example: one kernel timed through both ways into gpuchrono.
//
//   saxpy.cu (nvcc)          #include <gpuchrono/gpuchrono.hpp>
//                            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream); kernel<<<g, b, 0, stream>>>(...);
//   this file (clang++)      import gpuchrono;   and the same timer around a plain C++ launcher
//
// Both yield gpuchrono::Measurement, the same type (checked below at compile time), and both medians should
// agree to within the spread of the samples: one library, two doors.
#include <cuda_runtime_api.h>

#include <gpuchrono/core/cuda_error.hpp>  // GPUCHRONO_CUDA_CHECK: a macro, which no module exports

#include "saxpy.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// The report model and its renderers' parts are internal (examples build richer reports than write_report).
#include <gpuchrono/report/render/progress.hpp>
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/render/report_files.hpp>
#include <gpuchrono/report/render/text_report.hpp>
#include <gpuchrono/report/render/units.hpp>

#include <gpuchrono/api.hpp>

#include "../example.hpp"

namespace gpuchrono_examples {

namespace report = gpuchrono::report;

// The .cu file's Measurement is the module's: one entity, whichever door it came through.
static_assert(std::is_same_v<decltype(header_and_module::time_saxpy_in_cu(nullptr, 0, 0.0f, nullptr, nullptr)),
                             gpuchrono::Measurement>);

report::Experiment header_and_module(Context& ctx) {
    const cudaStream_t stream = ctx.stream();
    const unsigned n = 1u << 24;  // 16 Mi floats: 64 MiB per array
    const float a = 2.0f;
    const int repetitions = ctx.repetitions(21);

    std::vector<float> ones(n, 1.0f);
    DeviceArray<float> x(n), y(n);
    GPUCHRONO_CUDA_CHECK(cudaMemcpy(x.get(), ones.data(), x.bytes(), cudaMemcpyHostToDevice), "copying x");
    GPUCHRONO_CUDA_CHECK(cudaMemcpy(y.get(), ones.data(), y.bytes(), cudaMemcpyHostToDevice), "copying y");
    header_and_module::launch_saxpy(stream, n, a, x.get(), y.get());  // loads the module, untimed

    gpuchrono::Series from_cu("timed in saxpy.cu (#include <gpuchrono/gpuchrono.hpp>)");
    gpuchrono::Series from_cpp("timed in header_and_module.cpp (import gpuchrono;)");
    report::Progress progress("saxpy through both paths", 2 * static_cast<std::size_t>(repetitions));
    for (int r = 0; r < repetitions; ++r) {  // in turns, so drift affects both alike
        from_cu.add(header_and_module::time_saxpy_in_cu(stream, n, a, x.get(), y.get()));
        progress.advance("from the .cu file");
        {
            gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(from_cpp, stream);
            header_and_module::launch_saxpy(stream, n, a, x.get(), y.get());
        }
        progress.advance("from the .cpp file");
    }
    progress.finish();

    // Every launch added 2 to each y: check the kernel did its work through both paths.
    float y0 = 0;
    GPUCHRONO_CUDA_CHECK(cudaMemcpy(&y0, y.get(), sizeof y0, cudaMemcpyDeviceToHost), "reading y");
    const float expected = 1.0f + a * static_cast<float>(2 * repetitions + 1);
    if (y0 != expected)
        throw std::runtime_error("header and module: y[0] is " + std::to_string(y0) + ", expected " + std::to_string(expected));

    report::Experiment e;
    e.id = "header-and-module";
    e.title = "One kernel, timed from a .cu file and from a module-importing .cpp file";
    e.series = {report::make_series(from_cu), report::make_series(from_cpp)};
    const gpuchrono::Stats& cu = e.series[0].stats;
    const gpuchrono::Stats& cpp = e.series[1].stats;
    const double bytes = 3.0 * static_cast<double>(x.bytes());  // reads x and y, writes y
    e.metrics = {
        {"median, .cu path", cu.median.ns(), "ns", str(bytes / cu.median.ns()) + " GB/s"},
        {"median, .cpp path", cpp.median.ns(), "ns", str(bytes / cpp.median.ns()) + " GB/s"},
        {"difference of the medians", (cpp.median - cu.median).ns(), "ns",
         "interquartile ranges " + str(cu.iqr()) + " and " + str(cpp.iqr())},
    };
    e.explanation = {
        "nvcc cannot import a C++20 module, so CUDA files include <gpuchrono/gpuchrono.hpp>; other C++ files write "
        "`import gpuchrono;`. The module declares nothing of its own: it re-exports the entities of those headers, so a "
        "ScopedTimer built in a .cu file and one built in a .cpp file are the same class, and their Measurements the "
        "same type (a static_assert in this example checks it).",
        "The same saxpy launch (" + std::to_string(n) + " floats, 3 x " + report::format_bytes(static_cast<double>(x.bytes())) +
            " of traffic), timed " + std::to_string(repetitions) + " times through each path in turns: " + str(cu.median) +
            " from the .cu file and " + str(cpp.median) + " from the .cpp file, a difference of " +
            str(cpp.median - cu.median) + " against interquartile ranges of " + str(cu.iqr()) + " and " + str(cpp.iqr()) +
            ". The path into the library changes nothing in what is measured.",
    };
    return e;
}

}  // namespace gpuchrono_examples
