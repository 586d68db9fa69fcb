// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono::sweep(): measure() over a list of parameter values (block counts, sizes), straight into the
// report's sweep model, so render_sweep_svg draws it without glue:
//
//     gpuchrono::report::Sweep s = gpuchrono::sweep("reduce", stream, std::vector{1, 2, 4, 8, 132, 133},
//         [&](int blocks, cudaStream_t st) { launch_reduce(st, blocks); }, {.x_label = "blocks", .x_scale = "log"});
//     experiment.sweeps.push_back(std::move(s));
//
// One curve named after the sweep; each point is the median at that value, its band the confidence interval
// of the median (band_label says so). With `into`, each value's Series goes there as "name [x=value]", so
// the samples can go into the report's series too. Host only (the report model carries Stats: range-v3).
#pragma once

#include <gpuchrono/measure/measure.hpp>
#include <gpuchrono/measure/measure_record.hpp>
#include <gpuchrono/report/model/report.hpp>

#include <cuda_runtime_api.h>

#include <concepts>
#include <sstream>
#include <string>
#include <utility>

namespace gpuchrono {

struct SweepOptions {
    std::string title;                 // default: the sweep's name
    std::string x_label = "parameter";
    std::string x_scale = "linear";    // or "log"
    MeasureOptions measure;            // for every value
};

template <class Values, class F>
report::Sweep sweep(std::string name, cudaStream_t stream, const Values& values, F&& callable,
                    const SweepOptions& options = {}, SeriesSet* into = nullptr) {
    report::Sweep out;
    out.name = name;
    out.title = options.title.empty() ? name : options.title;
    out.x_label = options.x_label;
    out.y_label = "time per call (median)";
    out.y_unit = "ns";
    out.x_scale = options.x_scale;
    out.band_label = std::to_string(static_cast<int>(options.measure.confidence * 100 + 0.5)) + "% CI of the median";
    report::SweepCurve curve;
    curve.name = name;
    for (const auto& value : values) {
        std::ostringstream label;
        label << name << " [x=" << value << ']';
        Series s = [&] {
            if constexpr (std::invocable<F&, decltype(value), cudaStream_t>)
                return measure(label.str(), stream, [&](cudaStream_t st) { callable(value, st); }, options.measure);
            else
                return measure(label.str(), stream, [&] { callable(value); }, options.measure);
        }();
        const MeasureRecord& r = *s.measure_record();
        curve.points.push_back({static_cast<double>(value), r.interval.median_ns, r.interval.low_ns, r.interval.high_ns});
        if (into) {
            detail::require_unused_series_name(*into, label.str());
            (*into)[label.str()] = std::move(s);
        }
    }
    out.curves.push_back(std::move(curve));
    return out;
}

}  // namespace gpuchrono
